from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.base import Engine, Option
from shabneshin.localize import digits
from tables.models import Table
from tables.seating import SeatingError


def _coerce(option_choices: tuple[Any, ...]):  # noqa: ANN202
    by_text = {str(c): c for c in option_choices}
    return lambda text: by_text[text]


def _is_yes_no(option: Option) -> bool:
    return all(isinstance(c, bool) for c in option.choices) and set(option.choices) == {True, False}


def _option_field(option: Option) -> forms.Field:
    """A yes/no option is a checkbox; any other a select whose labels are translated words (or
    numbers in the page's digits), while the submitted values stay the engine's own. Its help, one
    translated sentence, is shown under it and names it for assistive technology
    (``aria-describedby``: tables/_form_field.html)."""
    help_text = _(option.help) if option.help else ""
    if _is_yes_no(option):
        return forms.BooleanField(
            label=_(option.label), required=False, initial=bool(option.default), help_text=help_text
        )
    return forms.TypedChoiceField(
        label=_(option.label),
        choices=[(str(value), digits(_(label))) for value, label in option.labelled_choices()],
        initial=str(option.default),
        coerce=_coerce(option.choices),
        help_text=help_text,
    )


class CreateTableForm(forms.Form):
    """The create-table form of one game: player count, visibility, speed and the game's options,
    each field a label, its control and its help under it, small (tables/_form_field.html)."""

    seat_count = forms.TypedChoiceField(label=gettext_lazy("Players"), coerce=int)
    visibility = forms.ChoiceField(label=gettext_lazy("Table"), choices=Table.Visibility.choices)
    speed = forms.ChoiceField(label=gettext_lazy("Turn timers"), choices=Table.Speed.choices, initial="normal")

    def __init__(self, engine: Engine, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.engine = engine
        counts = range(engine.min_players, engine.max_players + 1)
        self.fields["seat_count"].choices = [(n, digits(n)) for n in counts]
        self.fields["seat_count"].initial = engine.min_players
        for option in engine.options:
            self.fields[f"opt_{option.key}"] = _option_field(option)

    def game_options(self) -> dict[str, Any]:
        return {o.key: self.cleaned_data[f"opt_{o.key}"] for o in self.engine.options}

    def refuse(self, error: SeatingError) -> None:
        """Show why the table was not created. Where the game names the one change that makes its
        options dealable (``SeatingError.fix``: Night of the Mummy's advanced guests at 7 or 8
        players), the form comes back with that change made and the reason beside it, so creating
        the table is one more press; the game still deals only what the host sent."""
        fields = {f"opt_{key}": value for key, value in error.fix.items() if f"opt_{key}" in self.fields}
        if not fields:
            self.add_error(None, error.message)
            return
        data = self.data.copy()
        for name, value in fields.items():
            data[name] = str(value)
        self.data = data
        again = _("That change is made below: press «Create table» again.")
        self.add_error(next(iter(fields)), f"{error.message} {again}")

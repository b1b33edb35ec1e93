from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.base import Engine
from tables.models import Table


def _coerce(option_choices: tuple[Any, ...]):  # noqa: ANN202
    by_text = {str(c): c for c in option_choices}
    return lambda text: by_text[text]


class CreateTableForm(forms.Form):
    """The create-table form of one game: player count, visibility, speed and the game's options."""

    seat_count = forms.TypedChoiceField(label=gettext_lazy("Players"), coerce=int)
    visibility = forms.ChoiceField(label=gettext_lazy("Table"), choices=Table.Visibility.choices)
    speed = forms.ChoiceField(label=gettext_lazy("Turn timers"), choices=Table.Speed.choices, initial="normal")

    def __init__(self, engine: Engine, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.engine = engine
        counts = range(engine.min_players, engine.max_players + 1)
        self.fields["seat_count"].choices = [(n, str(n)) for n in counts]
        self.fields["seat_count"].initial = engine.min_players
        for option in engine.options:
            self.fields[f"opt_{option.key}"] = forms.TypedChoiceField(
                label=_(option.label),
                choices=[(str(value), _(label)) for value, label in option.labelled_choices()],
                initial=str(option.default),
                coerce=_coerce(option.choices),
            )

    def game_options(self) -> dict[str, Any]:
        return {o.key: self.cleaned_data[f"opt_{o.key}"] for o in self.engine.options}

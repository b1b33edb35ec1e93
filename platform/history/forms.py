"""The filters of "My games": game, result, dates and a co-player."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _

from games import registry
from shabneshin.date_inputs import CalendarDateField
from tables.models import Match, Seat


class HistoryFilterForm(forms.Form):
    RESULTS = (("", _("Any result")), ("won", _("Won")), ("lost", _("Lost")), ("aborted", _("Aborted")))

    game = forms.ChoiceField(label=_("Game"), required=False)
    result = forms.ChoiceField(label=_("Result"), required=False, choices=RESULTS)
    since = CalendarDateField(label=_("From"), required=False)  # Jalali on a Persian page
    until = CalendarDateField(label=_("To"), required=False)
    with_player = forms.CharField(label=_("Played with"), required=False, max_length=40)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [("", _("Any game")), *((e.slug, _(e.name)) for e in registry.all())]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("since") and data.get("until") and data["since"] > data["until"]:
            raise forms.ValidationError(_("The first date comes after the last one."))
        return data

    def apply(self, matches: QuerySet[Match], user: Any) -> list[tuple[Match, int | None]]:
        """The user's matches that pass the filters, each with the user's seat. A filter that is
        not valid (a date that is no date, or dates in the wrong order) is left out and its error
        shown; the valid ones still apply, so one mistyped date does not show every game."""
        self.is_valid()
        data = dict(getattr(self, "cleaned_data", {}))
        if self.non_field_errors():  # the dates in the wrong order: neither of them applies
            data.pop("since", None)
            data.pop("until", None)
        if data.get("game"):
            matches = matches.filter(game=data["game"])
        if data.get("since"):
            matches = matches.filter(started_at__date__gte=data["since"])
        if data.get("until"):
            matches = matches.filter(started_at__date__lte=data["until"])
        if data.get("with_player"):
            name = data["with_player"].strip()
            named = Q(user__display_name__icontains=name) | Q(user__username__iexact=name)
            matches = matches.filter(table_id__in=Seat.objects.filter(named).exclude(user=user).values("table_id"))
        rows = []
        for match in matches:
            seat = next((s.number for s in match.table.seats.all() if s.user_id == user.pk), None)
            winners = (match.result or {}).get("winners", [])
            outcome = "aborted" if match.status == Match.Status.ABORTED else ("won" if seat in winners else "lost")
            if data.get("result") and data["result"] != outcome:
                continue
            rows.append((match, seat))
        return rows

"""The clubs' forms. Each refuses an impossible value with a translated message and changes
nothing; times are entered in the club's time zone and stored in UTC."""

from __future__ import annotations

import zoneinfo
from datetime import datetime, timedelta
from functools import cache
from importlib import resources
from typing import Any
from zoneinfo import ZoneInfo

from django import forms
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.models import Club, Preferences, Series
from games import registry
from games.base import Engine
from shabneshin.date_inputs import CalendarDateField, CalendarDateTimeField
from shabneshin.localize import digits
from shabneshin.number_inputs import DigitsIntegerField
from shabneshin.zone_names import choices as zone_choices
from shabneshin.zone_names import zone_name
from tables.forms import CreateTableForm

RESERVED_SLUGS = {"new", "admin", "static", "calendar", "nights", "notifications"}


# The areas of the canonical zone names ("Area/City"); Etc/*, "US/Pacific", "CST6CDT", "GMT0",
# "Zulu" and the like are legacy aliases a reader would only be puzzled by (Etc/GMT+1 is UTC-1).
ZONE_AREAS = frozenset(
    {"Africa", "America", "Antarctica", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific"}
)


def _zone_tab() -> frozenset[str]:
    """The zones tzdata's ``zone.tab`` names for the countries: the current spelling of each city
    ("Asia/Kolkata", "Europe/Kyiv"), never an old one kept as an alias ("Asia/Calcutta",
    "Europe/Kiev"). Empty where the tzdata package is not installed (icalendar requires it)."""
    try:
        text = resources.files("tzdata").joinpath("zoneinfo/zone.tab").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        return frozenset()
    return frozenset(line.split("\t")[2] for line in text.splitlines() if line and not line.startswith("#"))


@cache
def time_zones() -> tuple[str, ...]:
    """The zones a club may choose: every canonical Area/City zone (as zone.tab spells it, where
    tzdata is there to say), and UTC once."""
    every, tab = zoneinfo.available_timezones(), _zone_tab()
    return tuple(
        sorted(
            n
            for n in every
            if n == "UTC" or ("/" in n and n.split("/", 1)[0] in ZONE_AREAS and (not tab or n in tab))
        )
    )


class ClubForm(forms.ModelForm):
    time_zone = forms.ChoiceField(
        label=gettext_lazy("Time zone"),
        error_messages={"invalid_choice": gettext_lazy("Unknown time zone: choose one from the list.")},
    )

    class Meta:
        model = Club
        fields = ("name", "slug", "description", "language", "time_zone", "visibility", "join_policy")
        labels = {
            "name": gettext_lazy("Name"),
            "slug": gettext_lazy("Web address: /clubs/… (letters, digits and dashes)"),
            "description": gettext_lazy("Description"),
            "language": gettext_lazy("Language"),
            "visibility": gettext_lazy("Visibility"),
            "join_policy": gettext_lazy("Who may join"),
        }
        widgets = {"description": forms.Textarea(attrs={"rows": 4})}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        offered = zone_choices(time_zones())
        stored = self.instance.time_zone if self.instance.pk else ""
        if stored and stored not in time_zones():  # a legacy name chosen before: kept, shown as it is
            offered.insert(0, (_("Current time zone"), [(stored, zone_name(stored))]))
        self.fields["time_zone"].choices = offered
        self.fields["time_zone"].widget.attrs.update({"data-browser-tz": "1"})

    def clean_slug(self) -> str:
        slug = self.cleaned_data["slug"].lower()
        if slug in RESERVED_SLUGS:
            raise forms.ValidationError(_("This address is taken."))
        return slug


class JoinRequestForm(forms.Form):
    message = forms.CharField(
        label=gettext_lazy("A message to the organizers"),
        max_length=500,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class GameChoiceForm(CreateTableForm):
    """One offered game with its table options, as on the create-table form (no visibility: a
    night's tables are the club's)."""

    offered = forms.BooleanField(label=gettext_lazy("Offer this game"), required=False)

    def __init__(self, engine: Engine, *args: Any, **kwargs: Any) -> None:
        super().__init__(engine, *args, **kwargs)
        del self.fields["visibility"]
        self.order_fields(["offered"])

    def choice(self) -> dict[str, Any]:
        return {
            "game": self.engine.slug,
            "seat_count": self.cleaned_data["seat_count"],
            "options": self.game_options(),
            "speed": self.cleaned_data["speed"],
        }


RSVP_CLOSE = [
    (0, gettext_lazy("At the start")),
    (60, gettext_lazy("1 hour before")),
    (120, gettext_lazy("2 hours before")),
    (360, gettext_lazy("6 hours before")),
    (1440, gettext_lazy("1 day before")),
    (2880, gettext_lazy("2 days before")),
]
DURATIONS = (60, 90, 120, 150, 180, 240, 300, 360)
REPEATS = [("", gettext_lazy("Does not repeat")), *Series.Frequency.choices]


class NightForm(forms.Form):
    new_night = True  # a new night must open for answers (see clean)
    title = forms.CharField(label=gettext_lazy("Title"), max_length=100)
    starts = CalendarDateTimeField(label=gettext_lazy("Starts"))  # Jalali on a Persian page
    duration = forms.TypedChoiceField(label=gettext_lazy("Expected length (minutes)"), coerce=int, initial=180)
    online = forms.BooleanField(label=gettext_lazy("Online"), required=False)
    address = forms.CharField(label=gettext_lazy("Address"), max_length=200, required=False)
    place_note = forms.CharField(label=gettext_lazy("Note about the place"), max_length=300, required=False)
    capacity = DigitsIntegerField(label=gettext_lazy("Capacity"), min_value=1, max_value=500)
    rsvp_close = forms.TypedChoiceField(label=gettext_lazy("RSVPs close"), coerce=int, choices=RSVP_CLOSE, initial=120)
    repeat = forms.ChoiceField(label=gettext_lazy("Repeats"), choices=REPEATS, required=False)
    fair_roles = forms.BooleanField(
        label=gettext_lazy("Fair roles: nobody gets the same hidden side three games running"), required=False
    )
    until = CalendarDateField(label=gettext_lazy("Repeat until (optional)"), required=False)

    def __init__(self, club: Club, *args: Any, series_choice: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        self.fields["duration"].choices = [(m, digits(m)) for m in DURATIONS]
        self.fields["starts"].help_text = _("In the club's time zone: %(zone)s.") % {"zone": zone_name(club.time_zone)}
        if not series_choice:
            del self.fields["repeat"]
            del self.fields["until"]
        data = args[0] if args else kwargs.get("data")
        initial_games = {g["game"]: g for g in (self.initial.get("games") or [])}
        self.game_forms = []
        for engine in registry.all():
            given = initial_games.get(engine.slug)
            initial = None
            if given is not None:
                initial = {
                    "offered": True,
                    "seat_count": given.get("seat_count", engine.min_players),
                    "speed": given.get("speed", "normal"),
                }
                initial |= {f"opt_{k}": str(v) for k, v in given.get("options", {}).items()}
            self.game_forms.append(GameChoiceForm(engine, data, prefix=f"g-{engine.slug}", initial=initial))

    def clean_starts(self) -> datetime:
        naive = self.cleaned_data["starts"]
        if timezone.is_aware(naive):
            naive = timezone.make_naive(naive, timezone.get_current_timezone())
        starts = naive.replace(tzinfo=ZoneInfo(self.club.time_zone))
        if starts <= timezone.now():
            raise forms.ValidationError(_("The start is in the past: choose a time still to come."))
        return starts

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        games = []
        for sub in self.game_forms:
            if not sub.is_valid():
                if sub.data.get(sub.add_prefix("offered")):
                    self.add_error(None, _("The options of %(game)s are not valid.") % {"game": _(sub.engine.name)})
                continue
            if sub.cleaned_data["offered"]:
                choice = sub.choice()
                try:
                    resolved = sub.engine.resolve_options(choice["options"])
                    sub.engine.setup(choice["seat_count"], dict(resolved), 0)
                except ValueError as exc:
                    self.add_error(None, _("These options are not valid: %(reason)s") % {"reason": exc})
                    continue
                games.append({**choice, "options": resolved})
        if not games and not self.errors:
            self.add_error(None, _("Offer at least one game."))
        smallest = min((g["seat_count"] for g in games), default=0)
        capacity = data.get("capacity")
        if capacity is not None and games and capacity < smallest:
            self.add_error(
                "capacity",
                digits(
                    _("The capacity is below the smallest table of the games offered (%(n)d players).")
                    % {"n": smallest}
                ),
            )
        if not data.get("online") and not (data.get("address") or "").strip() and "address" not in self.errors:
            self.add_error("address", _("Give an address, or mark the night as online."))
        starts, close = data.get("starts"), data.get("rsvp_close")
        closed = starts is not None and close is not None and starts - timedelta(minutes=close) <= timezone.now()
        if closed and self.new_night:
            # A night whose replies would be closed the moment it is published: nobody could answer.
            self.add_error(
                "rsvp_close",
                _("With this start, answers would already be closed: choose a shorter time before the start."),
            )
        data["games"] = games
        return data

    def night_fields(self) -> dict[str, Any]:
        data = self.cleaned_data
        starts = data["starts"].astimezone(ZoneInfo("UTC"))
        return {
            "title": data["title"],
            "starts_at": starts,
            "duration": timedelta(minutes=data["duration"]),
            "online": data["online"],
            "address": "" if data["online"] else data["address"].strip(),
            "place_note": data["place_note"].strip(),
            "games": data["games"],
            "capacity": data["capacity"],
            "rsvp_deadline": starts - timedelta(minutes=data["rsvp_close"]),
            "fair_roles": bool(data.get("fair_roles")),
        }


class NightEditForm(NightForm):
    new_night = False  # an edit close to the start may leave answers closed: organizers still add people
    SCOPES = [("one", gettext_lazy("Only this night")), ("following", gettext_lazy("This and every following night"))]
    scope = forms.ChoiceField(label=gettext_lazy("Apply to"), choices=SCOPES, initial="one")

    def __init__(self, club: Club, *args: Any, in_series: bool = False, **kwargs: Any) -> None:
        super().__init__(club, *args, series_choice=False, **kwargs)
        if not in_series:
            del self.fields["scope"]


class PreferencesForm(forms.ModelForm):
    reminder_minutes = DigitsIntegerField(
        label=gettext_lazy("Remind me this many minutes before a night"), min_value=5, max_value=7 * 24 * 60
    )
    email = forms.EmailField(label=gettext_lazy("Email for reminders and calendar updates"), required=False)

    class Meta:
        model = Preferences
        fields = ("reminder_minutes",)

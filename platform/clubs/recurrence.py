"""Recurring nights: a Series' rule (weekly, every two weeks, monthly on the n-th weekday) and the
materialised occurrences, each a real Night with its own RSVPs.

The rule runs over local dates in the club's time zone and each occurrence keeps its wall-clock
time, so a 19:00 night stays at 19:00 across a daylight-saving change (its UTC time moves).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from dateutil.rrule import MONTHLY, WEEKLY, rrule, weekday
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from clubs.models import Night, Series

TEMPLATE_FIELDS = ("title", "duration", "online", "address", "place_note", "games", "capacity")


def nth_weekday(day: date) -> int:
    """Which weekday of its month ``day`` is: 1–4, or -1 for a fifth (the month's last)."""
    n = (day.day - 1) // 7 + 1
    return -1 if n == 5 else n


def _rule(series: Series) -> rrule:
    start = datetime.combine(series.first_date, time())
    until = datetime.combine(series.until, time()) if series.until else None
    if series.frequency == Series.Frequency.MONTHLY:
        return rrule(
            MONTHLY,
            dtstart=start,
            until=until,
            byweekday=weekday(series.first_date.weekday(), nth_weekday(series.first_date)),
        )
    interval = 2 if series.frequency == Series.Frequency.BIWEEKLY else 1
    return rrule(WEEKLY, dtstart=start, until=until, interval=interval)


def dates(series: Series, start: date, count: int) -> list[date]:
    """The first ``count`` occurrence dates on or after ``start``."""
    found = []
    for moment in _rule(series).xafter(datetime.combine(start, time()), inc=True):
        found.append(moment.date())
        if len(found) >= count:
            break
    return found


def local_start(day: date, at: time, zone: str) -> datetime:
    """The UTC instant of ``at`` on ``day`` in ``zone``."""
    return datetime.combine(day, at, tzinfo=ZoneInfo(zone)).astimezone(UTC)


def night_fields(series: Series, day: date) -> dict:
    starts_at = local_start(day, series.local_time, series.club.time_zone)
    fields = {name: getattr(series, name) for name in TEMPLATE_FIELDS}
    return {**fields, "starts_at": starts_at, "rsvp_deadline": starts_at - series.rsvp_lead}


def materialise(series: Series, now: datetime | None = None) -> list[Night]:
    """Create the missing nights among the next ``CLUB_SERIES_AHEAD`` occurrences. A date that
    already has a night (moved or cancelled included) is never created again."""
    now = now or timezone.now()
    want = settings.CLUB_SERIES_AHEAD
    upcoming = Night.objects.filter(series=series, starts_at__gt=now).count()
    if upcoming >= want:
        return []
    known = set(Night.objects.filter(series=series).values_list("occurrence_date", flat=True))
    today = now.astimezone(ZoneInfo(series.club.time_zone)).date()
    created = []
    for day in dates(series, today, want + len(known) + 1):
        if upcoming >= want:
            break
        if day in known:
            continue
        fields = night_fields(series, day)
        if fields["starts_at"] <= now:
            continue
        try:
            with transaction.atomic():
                night = Night.objects.create(
                    club=series.club, series=series, occurrence_date=day, created_by=series.created_by, **fields
                )
        except IntegrityError:  # another process made it first
            continue
        created.append(night)
        upcoming += 1
    return created


@transaction.atomic
def edit_from(series: Series, from_date: date, by, changes: dict, now: datetime | None = None) -> Series:  # noqa: ANN001
    """Edit the series from ``from_date`` onward: the old series ends the day before, a new one
    takes over with ``changes`` (template fields, ``frequency``, ``local_time``, ``first_date``).
    The coming nights are carried over in order, keeping their RSVPs (their SEQUENCE bumped where
    the time or place changed); the first nights before ``from_date`` are not touched."""
    from clubs import nights

    now = now or timezone.now()
    series = Series.objects.select_for_update().select_related("club").get(pk=series.pk)
    keep = {f: getattr(series, f) for f in (*TEMPLATE_FIELDS, "frequency", "local_time", "rsvp_lead", "until")}
    new = Series(
        club=series.club, created_by=by, first_date=changes.pop("first_date", from_date), **{**keep, **changes}
    )
    new.save()
    series.until = from_date - timedelta(days=1)
    series.save(update_fields=["until"])
    moving = list(
        Night.objects.filter(
            series=series, occurrence_date__gte=from_date, starts_at__gt=now, cancelled=False
        ).order_by("starts_at")
    )
    for night, day in zip(moving, dates(new, new.first_date, len(moving)), strict=False):
        fields = night_fields(new, day)
        Night.objects.filter(pk=night.pk).update(series=new, occurrence_date=day)
        night.series, night.occurrence_date = new, day
        nights.update_night(night, fields, now=now)
    for night in moving[len(dates(new, new.first_date, len(moving))) :]:
        nights.cancel_night(night)
    materialise(new, now)
    return new


@transaction.atomic
def end_from(series: Series, from_date: date, now: datetime | None = None) -> int:
    """End the series with the occurrence of ``from_date``: it repeats no more from that date, and
    that night and every later one still to come are cancelled (everyone going is told, as for one
    cancelled night). A night that began is left as it is. Returns how many were cancelled."""
    from clubs import nights

    now = now or timezone.now()
    series = Series.objects.select_for_update().select_related("club").get(pk=series.pk)
    series.until = from_date - timedelta(days=1)
    series.save(update_fields=["until"])
    ending = Night.objects.filter(
        series=series, occurrence_date__gte=from_date, starts_at__gt=now, cancelled=False
    ).order_by("starts_at")
    cancelled = 0
    for night in ending:
        nights.cancel_night(night)
        cancelled += 1
    return cancelled

"""Planning nights: create, edit (move), cancel. A change of time or place, and a cancellation,
bump the night's SEQUENCE and are emailed to those going as an iCalendar REQUEST or CANCEL.

Ruling: "fair roles" (issue 12 §6) is a setting of one night. A series' template does not hold it,
so its nights start without it; an organizer turns it on per night (edit), and "repeat this
night" (clubs.recap) copies it to the next one."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs import live, notifications, recurrence, reminders, rsvp
from clubs.models import Club, Night, Offer, Round, Rsvp, Series
from games import registry


class NightError(Exception):
    """A change the night's state refuses; the message says why."""


def refuse_change_if_over(night: Night) -> None:
    """An ended night is the club's record (its scoreboard, its standings, who played): it is not
    moved, edited or cancelled."""
    if night.ended:
        raise NightError(_("This night has ended: it can no longer be changed or cancelled."))


PLACE_AND_TIME = ("starts_at", "duration", "online", "address", "place_note")
EDITABLE = (*PLACE_AND_TIME, "title", "games", "capacity", "rsvp_deadline", "fair_roles")


def _url(night: Night) -> str:
    return f"/clubs/{night.club.slug}/nights/{night.pk}/"


def default_games(club: Club) -> list[dict]:
    """The games a new night's form offers before the organizer chooses: those of the club's
    latest night (its settings too), or, for a club's first night, every game."""
    latest = Night.objects.filter(club=club, cancelled=False).order_by("-starts_at").first()
    if latest is not None and latest.games:
        return list(latest.games)
    return [{"game": engine.slug} for engine in registry.all()]


@transaction.atomic
def create_night(club: Club, by, fields: dict) -> Night:  # noqa: ANN001
    return Night.objects.create(club=club, created_by=by, **{k: fields[k] for k in EDITABLE if k in fields})


@transaction.atomic
def create_series(club: Club, by, frequency: str, fields: dict, until=None) -> Series:  # noqa: ANN001
    """A recurring night whose first occurrence is ``fields['starts_at']``; materialises the next ones."""
    local = fields["starts_at"].astimezone(ZoneInfo(club.time_zone))
    series = Series.objects.create(
        club=club,
        created_by=by,
        frequency=frequency,
        first_date=local.date(),
        until=until,
        local_time=local.time().replace(tzinfo=None),
        rsvp_lead=fields["starts_at"] - fields["rsvp_deadline"],
        **{k: fields[k] for k in recurrence.TEMPLATE_FIELDS},
    )
    recurrence.materialise(series)
    return series


def _people_going(night: Night) -> list:
    return [r.user for r in Rsvp.objects.filter(night=night, answer=Rsvp.Answer.GOING).select_related("user")]


@transaction.atomic
def update_night(night: Night, fields: dict, now: datetime | None = None) -> Night:
    """Change a night; returns it. Moving it or changing its place tells everyone going."""
    from clubs import mailer

    now = now or timezone.now()
    night = Night.objects.select_for_update().select_related("club").get(pk=night.pk)
    refuse_change_if_over(night)
    moved = any(k in fields and fields[k] != getattr(night, k) for k in PLACE_AND_TIME)
    more_seats = fields.get("capacity", night.capacity) > night.capacity
    for key in EDITABLE:
        if key in fields:
            setattr(night, key, fields[key])
    if night.rsvp_deadline > now:
        night.deadline_done = False
    if moved:
        night.sequence += 1
    night.save()
    if moved:
        reminders.reschedule(night)
        for person in _people_going(night):
            notifications.notify(person, "night_changed", _url(night), night=night.title)
        mailer.send_night_update(night, "REQUEST")  # stored with the change, sent once it commits
    if more_seats:
        rsvp.capacity_changed(night, now)
    live.night_changed(night)
    return night


@transaction.atomic
def cancel_night(night: Night) -> Night:
    from clubs import mailer

    night = Night.objects.select_for_update().select_related("club").get(pk=night.pk)
    if night.cancelled:
        return night
    refuse_change_if_over(night)
    if Round.objects.filter(night=night).exclude(status=Round.Status.DRAFT).exists():
        raise NightError(_("This night's games have begun: end the night instead of cancelling it."))
    night.cancelled = True
    night.sequence += 1
    night.save(update_fields=["cancelled", "sequence", "updated_at"])
    Offer.objects.filter(night=night, status=Offer.Status.PENDING).update(
        status=Offer.Status.DECLINED, answered_at=timezone.now()
    )
    for person in _people_going(night):
        notifications.notify(person, "night_cancelled", _url(night), night=night.title)
    mailer.send_night_update(night, "CANCEL")  # stored with the change, sent once it commits
    live.night_changed(night)
    return night

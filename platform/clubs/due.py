"""Everything of the clubs that is due at a time, run by the moderator's clock in every server
process (ARCHITECTURE §5): reminders, seat offers that expire, RSVP deadlines, and series that
need their next nights; and mail that failed is tried again (clubs.outbox, on a thread of its
own). Each is a row with a due time taken with ``select_for_update(skip_locked)``, so it happens
once whatever the number of processes."""

from __future__ import annotations

import time
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from clubs import checkin, live, notifications, outbox, playing, recurrence, reminders, rsvp
from clubs.models import Membership, Night, Offer, Reminder, Series
from clubs.permissions import Role

BATCH = 50
SERIES_EVERY_S = 60.0
_last_series_look = [0.0]


def send_reminders(now: datetime) -> int:
    if not Reminder.objects.filter(sent_at__isnull=True, due_at__lte=now).exists():
        return 0  # a read first: on SQLite every write transaction takes the database's one lock
    with transaction.atomic():
        rows = list(
            Reminder.objects.select_for_update(skip_locked=True)
            .filter(sent_at__isnull=True, due_at__lte=now)
            .select_related("night__club", "user")
            .order_by("due_at")[:BATCH]
        )
        return sum(reminders.send(row, now) for row in rows)


def expire_offers(now: datetime) -> int:
    ids = list(
        Offer.objects.filter(status=Offer.Status.PENDING, expires_at__lte=now)
        .order_by("expires_at")
        .values_list("pk", flat=True)[:BATCH]
    )
    return sum(rsvp.expire(offer_id, now) for offer_id in ids)


def close_rsvps(now: datetime) -> int:
    """At a night's RSVP deadline (the answers themselves close by the clock on the wall), its
    organizers are told how many are going."""
    if not Night.objects.filter(deadline_done=False, cancelled=False, rsvp_deadline__lte=now).exists():
        return 0
    with transaction.atomic():
        due = list(
            Night.objects.select_for_update(skip_locked=True)
            .filter(deadline_done=False, cancelled=False, rsvp_deadline__lte=now)
            .select_related("club")[:BATCH]
        )
        for night in due:
            night.deadline_done = True
            night.save(update_fields=["deadline_done"])
            going = rsvp.going_count(night)
            for organizer in Membership.objects.filter(club=night.club, role__in=[Role.OWNER, Role.ORGANIZER]):
                url = f"/clubs/{night.club.slug}/nights/{night.pk}/"
                notifications.notify(organizer.user, "rsvp_closed", url, night=night.title, going=going)
            live.night_changed(night)
        return len(due)


def materialise_series(now: datetime) -> int:
    made = 0
    today = now.date()
    for series_id in Series.objects.exclude(until__lt=today).values_list("pk", flat=True):
        with transaction.atomic():
            series = Series.objects.select_for_update(skip_locked=True).filter(pk=series_id).first()
            if series is not None:
                made += len(recurrence.materialise(series, now))
    return made


def run_due(now: datetime | None = None, series: bool | None = None) -> int:
    """Apply what is due; returns how many things happened. Series are looked at once a minute."""
    now = now or timezone.now()
    if series is None:
        series = time.monotonic() - _last_series_look[0] >= SERIES_EVERY_S
    with outbox.first_tries_on_the_mail_thread():  # a mail server that hangs holds back no game
        done = send_reminders(now) + expire_offers(now) + close_rsvps(now) + checkin.lock_due(now)
        done += playing.run_due(now)
        outbox.retry_soon()  # on the mail thread: a slow mail server never holds the clock
        if series:
            _last_series_look[0] = time.monotonic()
            done += materialise_series(now)
    return done

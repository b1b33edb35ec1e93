"""Reminder rows: one before the night (at the person's chosen offset) and one at its start, for
each person going. The rows are kept in step with the RSVP and the night's time; the clock sends
them (clubs.due), and checks again at sending time that the night is on (neither cancelled nor
ended early) and the person going."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from clubs import notifications
from clubs.models import Night, Preferences, Reminder, Rsvp


def _due_times(night: Night, user) -> dict[str, datetime]:  # noqa: ANN001
    minutes = Preferences.of(user).reminder_minutes
    return {Reminder.Kind.BEFORE: night.starts_at - timedelta(minutes=minutes), Reminder.Kind.START: night.starts_at}


def sync(night: Night, user, now: datetime | None = None) -> None:  # noqa: ANN001
    """Make ``user``'s reminder rows for ``night`` match whether they are going and when it is.
    A reminder already sent is sent again only if the night moved to after it was sent."""
    now = now or timezone.now()
    going = not night.cancelled and Rsvp.objects.filter(night=night, user=user, answer=Rsvp.Answer.GOING).exists()
    if not going:
        Reminder.objects.filter(night=night, user=user, sent_at__isnull=True).delete()
        return
    for kind, due in _due_times(night, user).items():
        row = Reminder.objects.filter(night=night, user=user, kind=kind).first()
        too_late = kind == Reminder.Kind.BEFORE and due <= now  # too late to say "soon"; the start one still comes
        if row is None:
            if not too_late:
                Reminder.objects.create(night=night, user=user, kind=kind, due_at=due)
        elif row.sent_at is None or due > row.sent_at:
            if too_late:
                if row.sent_at is None:
                    row.delete()
                continue
            row.due_at, row.sent_at, row.skipped = due, None, False
            row.save(update_fields=["due_at", "sent_at", "skipped"])


def reschedule(night: Night) -> None:
    """After the night moved: every going person's reminders follow it."""
    for rsvp in Rsvp.objects.filter(night=night, answer=Rsvp.Answer.GOING).select_related("user"):
        sync(night, rsvp.user)


def send(reminder: Reminder, now: datetime) -> bool:
    """Send one reminder whose row the caller holds locked; returns whether anything was sent."""
    from clubs import mailer

    night = reminder.night
    going = Rsvp.objects.filter(night=night, user=reminder.user, answer=Rsvp.Answer.GOING).exists()
    reminder.sent_at = now
    if night.cancelled or night.ended_at is not None or not going:  # ended early: its recap went out
        reminder.skipped = True
        reminder.save(update_fields=["sent_at", "skipped"])
        return False
    reminder.save(update_fields=["sent_at"])
    kind = "reminder_start" if reminder.kind == Reminder.Kind.START else "reminder_before"
    notifications.notify(reminder.user, kind, f"/clubs/{night.club.slug}/nights/{night.pk}/", night=night.title)
    mailer.send_reminder(reminder)  # stored with the reminder's row, sent once it commits
    return True

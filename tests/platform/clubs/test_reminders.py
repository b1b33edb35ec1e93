"""Reminders: before the night at each person's offset, and at its start; never for a cancelled
night or someone not going; moved with the night."""

from __future__ import annotations

from datetime import timedelta

from django.core import mail

from clubs import due, nights, rsvp
from clubs.models import Notification, Preferences, Reminder
from tests.platform.clubs.conftest import add_members


def test_going_schedules_a_reminder_at_my_offset_and_one_at_the_start(club, night):
    (person,) = add_members(club, 1)
    Preferences.objects.create(user=person, reminder_minutes=30)
    rsvp.answer(night, person, "going")
    rows = dict(Reminder.objects.filter(user=person).values_list("kind", "due_at"))
    assert rows == {"before": night.starts_at - timedelta(minutes=30), "start": night.starts_at}


def test_reminders_are_sent_once_each_by_email_and_on_site(club, night, django_capture_on_commit_callbacks):
    (person,) = add_members(club, 1)
    rsvp.answer(night, person, "going")
    with django_capture_on_commit_callbacks(execute=True):
        assert due.send_reminders(night.starts_at - timedelta(hours=3)) == 0
        assert due.send_reminders(night.starts_at - timedelta(hours=2)) == 1
        assert due.send_reminders(night.starts_at - timedelta(hours=1)) == 0
        assert due.send_reminders(night.starts_at) == 1
        assert due.send_reminders(night.starts_at + timedelta(hours=1)) == 0
    # in the club's language, Persian
    assert [m.subject for m in mail.outbox] == ["به‌زودی: Werewolf night", "همین حالا شروع می‌شود: Werewolf night"]
    assert mail.outbox[0].to == [person.email]
    assert list(Notification.objects.filter(user=person).values_list("kind", flat=True)) == [
        "reminder_start",
        "reminder_before",
    ]


def test_nothing_is_sent_for_a_cancelled_night_or_to_someone_no_longer_going(
    club, night, django_capture_on_commit_callbacks
):
    club.language = "en"
    club.save()
    stays, leaves = add_members(club, 2)
    rsvp.answer(night, stays, "going")
    rsvp.answer(night, leaves, "going")
    rsvp.answer(night, leaves, "no")
    assert not Reminder.objects.filter(user=leaves).exists()
    other = nights.create_night(club, None, {**_fields(night), "title": "Other"})
    rsvp.answer(other, stays, "going")
    nights.cancel_night(other)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):  # the clock's part (on its mail thread: test_outbox.py)
        due.send_reminders(other.starts_at + timedelta(minutes=1))
    assert {m.subject for m in mail.outbox} == {"Soon: Werewolf night", "Starting now: Werewolf night"}
    assert all(m.to == [stays.email] for m in mail.outbox)
    assert Reminder.objects.filter(night=other, skipped=True).count() == 2


def test_moving_the_night_moves_its_reminders(club, night):
    (person,) = add_members(club, 1)
    rsvp.answer(night, person, "going")
    later = night.starts_at + timedelta(days=1)
    nights.update_night(night, {"starts_at": later, "rsvp_deadline": later - timedelta(hours=2)})
    assert Reminder.objects.get(user=person, kind="start").due_at == later


def _fields(night) -> dict:
    return {k: getattr(night, k) for k in nights.EDITABLE}


def test_each_member_reads_club_mail_in_their_own_language_else_the_clubs(
    club, night, django_capture_on_commit_callbacks
):
    """The Persian club's reminder reaches Emma, who chose English in her settings, in English,
    and Reza, who chose nothing, in the club's Persian."""
    emma, reza = add_members(club, 2)
    emma.language = "en"
    emma.save()
    for person in (emma, reza):
        rsvp.answer(night, person, "going")
    with django_capture_on_commit_callbacks(execute=True):
        assert due.send_reminders(night.starts_at - timedelta(hours=2)) == 2
    subjects = {m.to[0]: m.subject for m in mail.outbox}
    assert subjects == {emma.email: "Soon: Werewolf night", reza.email: "به‌زودی: Werewolf night"}
    (english,) = [m for m in mail.outbox if m.to == [emma.email]]
    assert "starts on" in english.body and not any("\u06f0" <= ch <= "\u06f9" for ch in english.body)


def test_nothing_is_sent_for_a_night_ended_before_its_reminders_fall_due(
    club, night, bob, django_capture_on_commit_callbacks
):
    """An organizer who ends a night early (its recap already sent) sends no «Soon» or «Starting
    now» about it afterwards, by mail or on the site."""
    from clubs import recap

    (person,) = add_members(club, 1)
    rsvp.answer(night, person, "going")
    recap.end_night(night, bob)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert due.send_reminders(night.starts_at - timedelta(hours=2)) == 0
        assert due.send_reminders(night.starts_at) == 0
    assert mail.outbox == []
    assert not Notification.objects.filter(user=person, kind__startswith="reminder").exists()

"""Club mail is stored with the change it tells of: none for a change that rolled back, and
still sent after a crash between the commit and its first try. Mail the mail server refused is
tried again later, with growing waits, until it goes; it is given up rather than sent once it is
no longer of use; two rounds never send one message twice;
the clock's rounds run on the mail thread; staff see a mail's state but never its text
(clubs.outbox)."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.db import transaction
from django.utils import timezone

from clubs import due, mailer, nights, outbox, rsvp
from clubs.models import Offer, OutgoingMail
from tests.platform.clubs.conftest import add_members

State, Kind = OutgoingMail.State, OutgoingMail.Kind


class FlakyServer(EmailBackend):
    """The test outbox behind a mail server that is down while ``down`` is set, and hangs while
    ``hanging`` is set; it notes which thread sent each message, and which tried each."""

    down = False
    hanging: threading.Event | None = None
    threads: list[str] = []
    tried_on: list[str] = []

    def send_messages(self, messages):
        FlakyServer.tried_on.extend(threading.current_thread().name for _ in messages)
        if FlakyServer.hanging is not None:
            FlakyServer.hanging.wait(10)
        if FlakyServer.down:
            raise ConnectionRefusedError("the mail server is down")
        FlakyServer.threads.extend(threading.current_thread().name for _ in messages)
        return super().send_messages(messages)


@pytest.fixture
def server(settings):
    settings.EMAIL_BACKEND = f"{__name__}.FlakyServer"
    FlakyServer.down, FlakyServer.hanging, FlakyServer.threads, FlakyServer.tried_on = True, None, [], []
    yield FlakyServer
    FlakyServer.down, FlakyServer.hanging = False, None


def _mail_thread_idle() -> None:
    """Every first try handed to the mail thread so far has run (it runs them in order)."""
    outbox._mail_thread().submit(lambda: None).result(10)


def _row(**filters) -> OutgoingMail:
    return OutgoingMail.objects.get(**filters)


def test_a_reminder_refused_by_a_down_server_is_sent_once_it_is_back(
    club, night, server, django_capture_on_commit_callbacks
):
    (person,) = add_members(club, 1)
    rsvp.answer(night, person, "going")
    soon = night.starts_at - timedelta(hours=2)
    with django_capture_on_commit_callbacks(execute=True):
        assert due.send_reminders(soon) == 1
    assert mail.outbox == []
    row = _row(user=person, kind=Kind.REMINDER)
    assert row.state == State.PENDING and row.attempts == 1 and "down" in row.last_error
    assert outbox.retry_due(timezone.now()) == 0, "not before its wait of a minute"
    server.down = False
    assert outbox.retry_due(timezone.now() + timedelta(minutes=2)) == 1
    (message,) = mail.outbox
    assert message.to == [person.email] and "Werewolf night" in message.subject
    row.refresh_from_db()
    assert row.state == State.SENT and row.attempts == 2 and row.sent_at is not None
    assert row.body == "", "its text is not kept once sent"
    assert outbox.retry_due(timezone.now() + timedelta(hours=1)) == 0, "sent once"


def test_each_failed_try_waits_longer_and_the_last_one_gives_up_until_staff_send_it_again(
    club, night, server, caplog, django_capture_on_commit_callbacks
):
    (person,) = add_members(club, 1)
    with django_capture_on_commit_callbacks(execute=True):
        outbox.send(person, Kind.RECAP, "Recap: Werewolf night", "The scoreboard", night=night)
    for wait in outbox.RETRY_MINUTES:
        row = _row(user=person)
        assert row.state == State.PENDING
        waited = row.next_try_at - timezone.now()
        assert timedelta(minutes=wait) - timedelta(seconds=30) < waited <= timedelta(minutes=wait)
        assert outbox.retry_due(row.next_try_at) == 0
    row = _row(user=person)
    assert row.state == State.FAILED and row.attempts == len(outbox.RETRY_MINUTES) + 1 and row.next_try_at is None
    assert "given up after 6 tries" in caplog.text
    assert outbox.retry_due(timezone.now() + timedelta(days=1)) == 0, "given up: no more tries"
    server.down = False
    assert outbox.send_again(OutgoingMail.objects.all()) == 1
    assert outbox.retry_due() == 1
    assert [m.body for m in mail.outbox] == ["The scoreboard"], "its text was kept for staff to send again"


def _a_refused_reminder(club, night, capture):
    """A member going to the night, whose reminder the mail server (down) refused; the member."""
    (person,) = add_members(club, 1)
    rsvp.answer(night, person, "going")
    with capture(execute=True):
        due.send_reminders(night.starts_at - timedelta(hours=2))
    return person


def test_a_reminder_is_given_up_not_sent_late_once_its_night_began(
    club, night, server, django_capture_on_commit_callbacks
):
    person = _a_refused_reminder(club, night, django_capture_on_commit_callbacks)
    server.down = False
    assert outbox.retry_due(night.starts_at + timedelta(minutes=1)) == 0
    row = _row(user=person, kind=Kind.REMINDER)
    assert row.state == State.EXPIRED and row.body == ""
    assert mail.outbox == []


@pytest.mark.parametrize(
    ("change", "told"),
    [
        (nights.cancel_night, "Cancelled: Werewolf night"),
        (
            lambda night: nights.update_night(night, {"starts_at": night.starts_at + timedelta(days=1)}),
            "Changed: Werewolf night",
        ),
    ],
    ids=["cancelled", "moved"],
)
def test_a_waiting_reminder_is_replaced_by_the_mail_of_its_nights_change(
    club, night, server, django_capture_on_commit_callbacks, change, told
):
    """Its text says the night is on at the old time: the change's mail replaces it."""
    club.language = "en"
    club.save()
    _a_refused_reminder(club, night, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        change(night)
    assert _row(kind=Kind.REMINDER).state == State.EXPIRED
    server.down = False
    assert outbox.retry_due(timezone.now() + timedelta(minutes=2)) == 1
    assert [m.subject for m in mail.outbox] == [told]


def test_a_reminder_waiting_when_its_person_stops_going_is_not_sent(
    club, night, server, django_capture_on_commit_callbacks
):
    person = _a_refused_reminder(club, night, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        rsvp.answer(night, person, "no")
    server.down = False
    assert outbox.retry_due(timezone.now() + timedelta(minutes=2)) == 0
    assert _row(kind=Kind.REMINDER).state == State.EXPIRED and mail.outbox == []


def test_a_newer_change_of_the_night_replaces_an_older_one_still_waiting(
    club, night, server, django_capture_on_commit_callbacks
):
    club.language = "en"
    club.save()
    (person,) = add_members(club, 1)
    rsvp.answer(night, person, "going")
    for hours in (1, 2):
        night.starts_at += timedelta(hours=hours)
        night.save()
        with django_capture_on_commit_callbacks(execute=True):
            assert mailer.send_night_update(night, "REQUEST") == 1, "stored; its try failed"
    older, newer = OutgoingMail.objects.filter(kind=Kind.NIGHT_UPDATE).order_by("pk")
    assert older.state == State.EXPIRED and newer.state == State.PENDING
    server.down = False
    assert outbox.retry_due(timezone.now() + timedelta(minutes=2)) == 1
    (message,) = mail.outbox
    assert message.attachments, "the latest calendar entry goes with it"


def test_a_seat_offer_answered_on_the_site_is_not_mailed_again(
    club, night, server, django_capture_on_commit_callbacks
):
    (person,) = add_members(club, 1)
    offer = Offer.objects.create(night=night, user=person, expires_at=timezone.now() + timedelta(hours=12))
    with django_capture_on_commit_callbacks(execute=True):
        mailer.send_offer(offer)
    assert _row(kind=Kind.OFFER).attempts == 1 and mail.outbox == []
    offer.status = Offer.Status.ACCEPTED
    offer.save()
    server.down = False
    assert outbox.retry_due(timezone.now() + timedelta(minutes=2)) == 0
    assert _row(kind=Kind.OFFER).state == State.EXPIRED and mail.outbox == []


def test_a_row_one_round_holds_is_skipped_by_the_next(club, night, server, django_capture_on_commit_callbacks):
    (person,) = add_members(club, 1)
    with django_capture_on_commit_callbacks(execute=True):
        outbox.send(person, Kind.RECAP, "Recap", "text", night=night)
    later = timezone.now() + timedelta(minutes=2)
    (held,) = outbox.claim(later)
    assert outbox.claim(later) == [], "another process's round, meanwhile, finds nothing to send"
    server.down = False
    assert outbox.deliver(held)
    assert len(mail.outbox) == 1


@pytest.mark.django_db(transaction=True)
def test_the_clock_retries_on_the_mail_thread_at_most_every_so_often(settings, server, monkeypatch):
    (person,) = [get_user_model().objects.create_user("mona", "mona@example.com", "a-long-password-1")]
    outbox.send(person, Kind.RECAP, "Recap", "text")
    OutgoingMail.objects.update(next_try_at=timezone.now() - timedelta(seconds=1))
    server.down = False
    settings.MAIL_RETRY_EVERY_S = 30
    monkeypatch.setattr(outbox, "_last_round", [float("-inf")])
    due.run_due(series=False)
    assert outbox._round[0] is not None and outbox._round[0].result(10) == 1
    assert server.threads == ["shabneshin-mail_0"], "sent on the mail thread, not the clock's"
    assert outbox.retry_soon() is None, "not again within MAIL_RETRY_EVERY_S"
    assert _row(user=person).state == State.SENT


def test_staff_see_a_mails_state_but_never_its_text(client, club, night, server, django_capture_on_commit_callbacks):
    (person,) = add_members(club, 1)
    offer = Offer.objects.create(night=night, user=person, expires_at=timezone.now() + timedelta(hours=12))
    with django_capture_on_commit_callbacks(execute=True):
        mailer.send_offer(offer)
    token = mailer.offer_token(offer)
    row = _row(kind=Kind.OFFER)
    assert token in row.body, "the stored text holds the offer's link"
    staff = get_user_model().objects.create_superuser("warden", "w@example.com", "a-long-password-1")
    client.force_login(staff)
    listing = client.get("/admin/clubs/outgoingmail/", {"q": person.email})
    one = client.get(f"/admin/clubs/outgoingmail/{row.pk}/change/")
    assert listing.status_code == one.status_code == 200
    assert row.subject in listing.content.decode() and "the mail server is down" in one.content.decode()
    for page in (listing, one):
        assert token not in page.content.decode()


def test_a_deleted_accounts_waiting_mail_and_address_go_with_it(club, night, server):
    (person,) = add_members(club, 1)
    outbox.send(person, Kind.RECAP, "Recap", "text", night=night)
    person.delete()
    assert not OutgoingMail.objects.exists()


def test_a_change_that_rolls_back_leaves_no_mail_about_it(club, night, server, django_capture_on_commit_callbacks):
    """Bob's cancellation fails after its mail was worded: nobody is told of a night that is still on."""
    (person,) = add_members(club, 1)
    rsvp.answer(night, person, "going")
    server.down = False
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError):
        with transaction.atomic():
            nights.cancel_night(night)
            raise RuntimeError("the request failed after the change")
    night.refresh_from_db()
    assert not night.cancelled
    assert not OutgoingMail.objects.exists() and mail.outbox == []


def test_mail_stored_with_its_change_is_sent_after_a_crash_before_its_first_try(
    club, night, server, django_capture_on_commit_callbacks
):
    """The process dies as the cancellation commits, before the mail is tried: the row was
    committed with the change, and the clock sends it once its hold has passed."""
    club.language = "en"
    club.save()
    (person,) = add_members(club, 1)
    rsvp.answer(night, person, "going")
    server.down = False
    with django_capture_on_commit_callbacks(execute=False):  # committed, and then nothing ran
        nights.cancel_night(night)
    row = _row(kind=Kind.NIGHT_UPDATE)
    assert row.state == State.PENDING and row.attempts == 0 and mail.outbox == []
    assert outbox.retry_due(timezone.now() + timedelta(minutes=2)) == 0, "held by the try that never ran"
    assert outbox.retry_due(timezone.now() + timedelta(minutes=outbox.CLAIM_MINUTES + 1)) == 1
    assert [m.subject for m in mail.outbox] == ["Cancelled: Werewolf night"]


def test_a_fault_in_wording_a_mail_leaves_the_change_standing_without_it(
    club, night, server, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    (person,) = add_members(club, 1)
    rsvp.answer(night, person, "going")

    def broken(*args, **kwargs):
        raise ValueError("a calendar entry that cannot be written")

    monkeypatch.setattr(mailer.calendar, "single", broken)
    with django_capture_on_commit_callbacks(execute=True):
        nights.cancel_night(night)
    night.refresh_from_db()
    assert night.cancelled, "the change stands"
    assert not OutgoingMail.objects.exists()
    assert "could not be worded" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_the_clocks_reminders_are_first_tried_on_the_mail_thread_so_a_hanging_server_holds_back_no_game(
    club, night, server
):
    """A reminder comes due while the mail server hangs: the clock's look stores it and goes on
    (the clock's thread also applies the games' timeouts); the mail thread sends it once the
    server answers."""
    (person,) = add_members(club, 1)
    rsvp.answer(night, person, "going")
    server.down, server.hanging = False, threading.Event()
    began = time.monotonic()
    due.run_due(night.starts_at - timedelta(hours=2), series=False)
    assert time.monotonic() - began < 5, "the look did not wait for the mail server"
    assert _row(user=person, kind=Kind.REMINDER).state == State.PENDING
    server.hanging.set()
    _mail_thread_idle()
    assert server.threads == ["shabneshin-mail_0"]
    assert _row(user=person, kind=Kind.REMINDER).state == State.SENT


@pytest.mark.django_db(transaction=True)
def test_after_a_failed_try_a_page_waits_for_one_timeout_not_one_a_person(club, night, server, settings):
    """Three people are going when the night is cancelled and the mail server is down: the page
    tries the first mail, and hands the two others to the mail thread, where each is tried once
    and left for the retries."""
    settings.MAIL_PAUSE_AFTER_FAILURE_S = 60
    for person in add_members(club, 3):
        rsvp.answer(night, person, "going")
    try:
        nights.cancel_night(night)
        _mail_thread_idle()
    finally:
        outbox._paused_until[0] = float("-inf")
    assert sorted(server.tried_on) == ["MainThread", "shabneshin-mail_0", "shabneshin-mail_0"]
    rows = OutgoingMail.objects.filter(kind=Kind.NIGHT_UPDATE)
    assert [(r.state, r.attempts) for r in rows] == [(State.PENDING, 1)] * 3

"""Real concurrent requests and clock ticks, on whichever database the run uses (the PostgreSQL
pass of `make test` runs them against PostgreSQL's row locks)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from clubs import due, nights, rsvp
from clubs.models import Notification, Reminder, Rsvp
from tests.platform.clubs.concurrency_helpers import race
from tests.platform.clubs.conftest import add_members, night_fields

pytestmark = pytest.mark.django_db(transaction=True)


def test_concurrent_going_requests_never_overfill_a_night(services_in_use, club, bob):
    night = nights.create_night(club, bob, night_fields(capacity=3))
    people = add_members(club, 10)
    clients = []
    for person in people:
        c = Client(HTTP_ACCEPT_LANGUAGE="en")
        c.force_login(person)
        clients.append(c)
    url = f"/clubs/wolves/nights/{night.pk}/rsvp/"
    statuses = race([lambda c=c: c.post(url, {"answer": "going"}).status_code for c in clients])
    assert statuses == [302] * 10
    answers = Rsvp.objects.filter(night=night)
    assert answers.filter(answer="going").count() == 3
    queue = sorted(answers.filter(answer="waiting").values_list("queue_number", flat=True))
    assert queue == list(range(1, 8)), "seven on the waitlist, in one order, no number twice"


def test_concurrent_drop_outs_and_accepts_keep_going_within_capacity(services_in_use, club, bob):
    night = nights.create_night(club, bob, night_fields(capacity=4))
    people = add_members(club, 8)
    for person in people:
        rsvp.answer(night, person, "going")
    race([lambda p=p: rsvp.answer(night, p, "no") for p in people[:4]])
    offers = list(night.offers.filter(status="pending"))
    assert sorted(o.user_id for o in offers) == sorted(p.pk for p in people[4:])
    late = add_members(club, 4, prefix="late")
    race(
        [
            *[lambda o=o: rsvp.accept(night, o.pk, o.user) for o in offers],
            *[lambda p=p: rsvp.answer(night, p, "going") for p in late],
        ]
    )
    assert Rsvp.objects.filter(night=night, answer="going").count() == 4
    assert Rsvp.objects.filter(night=night, answer="waiting").count() == 4


def test_two_processes_racing_the_clock_send_each_reminder_once(services_in_use, club, bob, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    people = add_members(club, 6)
    soon = []
    for i in range(4):
        night = nights.create_night(club, bob, night_fields(title=f"N{i}"))
        soon.append(night)
        for person in people:
            rsvp.answer(night, person, "going")
    assert Reminder.objects.count() == 4 * 6 * 2
    at = max(n.starts_at for n in soon) + timedelta(minutes=1)

    def clock():
        sent = 0
        while True:
            done = due.send_reminders(at)
            if not done and not Reminder.objects.filter(sent_at__isnull=True).exists():
                return sent
            sent += done

    results = race([clock, clock])
    assert sum(results) == 48
    assert Notification.objects.filter(kind__startswith="reminder").count() == 48
    assert len(mail.outbox) == 48
    assert len({(m.to[0], m.subject) for m in mail.outbox}) == 48, "no one got one reminder twice"


def test_two_processes_racing_expire_each_offer_once(services_in_use, club, bob):
    night = nights.create_night(club, bob, night_fields(capacity=2))
    people = add_members(club, 6)
    for person in people:
        rsvp.answer(night, person, "going")
    rsvp.answer(night, people[0], "no")
    rsvp.answer(night, people[1], "no")
    at = timezone.now() + timedelta(days=2, hours=23)
    results = race([lambda: due.expire_offers(at), lambda: due.expire_offers(at)])
    assert sum(results) == 2
    assert night.offers.filter(status="expired").count() == 2
    assert night.offers.filter(status="pending").count() == 2

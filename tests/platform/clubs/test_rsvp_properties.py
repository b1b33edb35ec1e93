"""Random sequences of RSVP, cancel, accept, decline and expiry keep the waitlist's invariants."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs import members, nights, rsvp
from clubs.models import Offer, Rsvp
from tests.platform.clubs.conftest import add_members, night_fields

PEOPLE = 6
OPS = st.lists(
    st.tuples(st.sampled_from(["going", "maybe", "no", "accept", "decline", "expire"]), st.integers(0, PEOPLE - 1)),
    max_size=30,
)


def _check(night) -> None:
    going = Rsvp.objects.filter(night=night, answer=Rsvp.Answer.GOING).count()
    pending = list(Offer.objects.filter(night=night, status=Offer.Status.PENDING))
    assert going <= night.capacity
    assert going + len(pending) <= night.capacity, "a seat under offer is still a seat"
    offered = {o.user_id for o in pending}
    assert len(offered) == len(pending), "no one holds two offers"
    waiting = list(Rsvp.objects.filter(night=night, answer=Rsvp.Answer.WAITING).order_by("queue_number"))
    numbers = [r.queue_number for r in waiting]
    assert None not in numbers and len(set(numbers)) == len(numbers)
    assert offered <= {r.user_id for r in waiting}, "offers go only to people on the waitlist"
    flags = [r.user_id in offered for r in waiting]
    assert flags == sorted(flags, reverse=True), "seats are offered in waitlist order"
    if going + len(pending) < night.capacity:
        assert not [r for r in waiting if r.user_id not in offered], "a free seat is never left while someone waits"
    assert (
        Rsvp.objects.filter(night=night).values("user").distinct().count() == Rsvp.objects.filter(night=night).count()
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS, capacity=st.integers(1, 3))
@pytest.mark.django_db
def test_random_sequences_keep_going_within_capacity_and_the_waitlist_in_order(alice, ops, capacity):
    club = members.create_club(alice, name="Prop", slug=f"prop-{timezone.now().timestamp():.0f}-{len(ops)}")
    club.slug = f"prop{club.pk}"
    club.save()
    people = add_members(club, PEOPLE, prefix=f"p{club.pk}x")
    night = nights.create_night(club, alice, night_fields(capacity=capacity))
    clock = timezone.now()
    for op, index in ops:
        person = people[index]
        offer = Offer.objects.filter(night=night, user=person, status=Offer.Status.PENDING).first()
        try:
            if op in ("going", "maybe", "no"):
                rsvp.answer(night, person, op, now=clock)
            elif op == "accept" and offer is not None:
                rsvp.accept(night, offer.pk, person, now=clock)
            elif op == "decline" and offer is not None:
                rsvp.decline(night, offer.pk, person, now=clock)
            elif op == "expire" and offer is not None:
                clock = max(clock, offer.expires_at - timedelta(hours=1))
                assert rsvp.expire(offer.pk, offer.expires_at)
        except rsvp.RsvpError:
            pass
        night.refresh_from_db()
        _check(night)

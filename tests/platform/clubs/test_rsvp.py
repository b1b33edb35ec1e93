"""Capacity and the waitlist: going never passes the capacity, the waitlist keeps its order, a
freed seat is offered to the first in line, an offer not taken passes on, the deadline closes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from clubs import due, rsvp
from clubs.models import Night, Notification, Offer, Rsvp
from tests.platform.clubs.conftest import add_members, night_fields

GOING, MAYBE, NO, WAITING = Rsvp.Answer.GOING, Rsvp.Answer.MAYBE, Rsvp.Answer.NO, Rsvp.Answer.WAITING


@pytest.fixture
def small_night(club, bob):
    from clubs import nights

    return nights.create_night(club, bob, night_fields(capacity=2))


def answer_of(night, user) -> str:
    return Rsvp.objects.get(night=night, user=user).answer


def test_going_past_capacity_joins_the_waitlist_in_order(club, small_night, alice, bob, charlie):
    (dave_like,) = add_members(club, 1)
    for person in (alice, bob, charlie, dave_like):
        rsvp.answer(small_night, person, GOING)
    assert [answer_of(small_night, p) for p in (alice, bob, charlie, dave_like)] == [GOING, GOING, WAITING, WAITING]
    assert [r.user for r in rsvp.waitlist(small_night)] == [charlie, dave_like]


def test_a_drop_out_offers_the_seat_to_the_first_in_line_and_accepting_makes_them_going(
    club, small_night, alice, bob, charlie
):
    for person in (alice, bob, charlie):
        rsvp.answer(small_night, person, GOING)
    rsvp.answer(small_night, bob, NO)
    offer = Offer.objects.get(night=small_night, status=Offer.Status.PENDING)
    assert offer.user == charlie
    assert Notification.objects.filter(user=charlie, kind="offer").exists()
    rsvp.accept(small_night, offer.pk, charlie)
    assert answer_of(small_night, charlie) == GOING
    assert rsvp.going_count(small_night) == 2


def test_a_seat_under_offer_is_not_taken_by_someone_else_answering_going(club, small_night, alice, bob, charlie):
    (late,) = add_members(club, 1)
    for person in (alice, bob, charlie):
        rsvp.answer(small_night, person, GOING)
    rsvp.answer(small_night, bob, NO)
    rsvp.answer(small_night, late, GOING)
    assert answer_of(small_night, late) == WAITING


def test_declining_passes_the_offer_to_the_next_in_line(club, small_night, alice, bob, charlie):
    (fourth,) = add_members(club, 1)
    for person in (alice, bob, charlie, fourth):
        rsvp.answer(small_night, person, GOING)
    rsvp.answer(small_night, alice, NO)
    first = Offer.objects.get(status=Offer.Status.PENDING)
    rsvp.decline(small_night, first.pk, charlie)
    second = Offer.objects.get(status=Offer.Status.PENDING)
    assert (second.user, answer_of(small_night, charlie)) == (fourth, NO)


def test_an_offer_not_taken_in_time_passes_to_the_next(club, small_night, alice, bob, charlie, settings):
    (fourth,) = add_members(club, 1)
    for person in (alice, bob, charlie, fourth):
        rsvp.answer(small_night, person, GOING)
    rsvp.answer(small_night, alice, NO)
    first = Offer.objects.get(status=Offer.Status.PENDING)
    assert due.run_due(first.expires_at - timedelta(seconds=1), series=False) == 0
    assert due.expire_offers(first.expires_at) == 1
    first.refresh_from_db()
    assert first.status == Offer.Status.EXPIRED
    assert Offer.objects.get(status=Offer.Status.PENDING).user == fourth
    assert answer_of(small_night, charlie) == MAYBE
    with pytest.raises(rsvp.RsvpError):
        rsvp.accept(small_night, first.pk, charlie)


def test_an_expired_offer_cannot_be_accepted_even_before_the_clock_sees_it(club, small_night, alice, bob, charlie):
    for person in (alice, bob, charlie):
        rsvp.answer(small_night, person, GOING)
    rsvp.answer(small_night, alice, NO)
    offer = Offer.objects.get(status=Offer.Status.PENDING)
    with pytest.raises(rsvp.RsvpError):
        rsvp.accept(small_night, offer.pk, charlie, now=offer.expires_at + timedelta(seconds=1))
    assert answer_of(small_night, charlie) == WAITING


def test_someone_else_cannot_accept_your_offer(club, small_night, alice, bob, charlie):
    for person in (alice, bob, charlie):
        rsvp.answer(small_night, person, GOING)
    rsvp.answer(small_night, alice, NO)
    offer = Offer.objects.get(status=Offer.Status.PENDING)
    with pytest.raises(rsvp.RsvpError):
        rsvp.accept(small_night, offer.pk, alice)
    assert Offer.objects.get(pk=offer.pk).status == Offer.Status.PENDING


def test_rsvps_close_at_the_deadline_but_an_organizer_can_still_add_and_remove(club, small_night, alice, charlie):
    after = small_night.rsvp_deadline + timedelta(minutes=1)
    with pytest.raises(rsvp.RsvpError, match="closed"):
        rsvp.answer(small_night, charlie, GOING, now=after)
    assert not Rsvp.objects.filter(night=small_night).exists()
    rsvp.answer(small_night, charlie, GOING, organizer=True, now=after)
    assert answer_of(small_night, charlie) == GOING
    rsvp.answer(small_night, charlie, NO, organizer=True, now=after)
    assert answer_of(small_night, charlie) == NO


def test_an_organizer_cannot_add_someone_past_the_capacity(club, small_night, alice, bob, charlie):
    rsvp.answer(small_night, alice, GOING)
    rsvp.answer(small_night, bob, GOING)
    with pytest.raises(rsvp.RsvpError, match="full"):
        rsvp.answer(small_night, charlie, GOING, organizer=True)
    assert not Rsvp.objects.filter(night=small_night, user=charlie).exists()


def test_the_clock_tells_organizers_when_rsvps_close_once(club, small_night, alice, bob):
    rsvp.answer(small_night, alice, GOING)
    at = small_night.rsvp_deadline
    assert due.close_rsvps(at) == 1
    assert due.close_rsvps(at + timedelta(minutes=5)) == 0
    assert Notification.objects.filter(kind="rsvp_closed").count() == 2  # alice (owner), bob (organizer)
    assert Night.objects.get(pk=small_night.pk).deadline_done


def test_outsiders_and_unknown_answers_are_refused(club, small_night, dave):
    with pytest.raises(rsvp.RsvpError):
        rsvp.answer(small_night, dave, GOING)
    with pytest.raises(rsvp.RsvpError):
        rsvp.answer(small_night, club.memberships.first().user, "definitely")
    assert not Rsvp.objects.filter(night=small_night).exists()


def test_raising_the_capacity_offers_the_new_seats_in_order(club, small_night, alice, bob, charlie):
    from clubs import nights

    (fourth,) = add_members(club, 1)
    for person in (alice, bob, charlie, fourth):
        rsvp.answer(small_night, person, GOING)
    nights.update_night(small_night, {"capacity": 3})
    assert list(Offer.objects.filter(status=Offer.Status.PENDING).values_list("user", flat=True)) == [charlie.pk]


def test_a_cancelled_night_takes_no_answers(club, small_night, charlie):
    from clubs import nights

    nights.cancel_night(small_night)
    with pytest.raises(rsvp.RsvpError):
        rsvp.answer(small_night, charlie, GOING)


def test_an_offer_never_outlives_the_start(club, small_night, alice, bob, charlie, settings):
    settings.CLUB_OFFER_MINUTES = 60 * 24 * 30
    for person in (alice, bob, charlie):
        rsvp.answer(small_night, person, GOING)
    rsvp.answer(small_night, alice, NO)
    assert Offer.objects.get(status=Offer.Status.PENDING).expires_at == small_night.starts_at
    assert timezone.now() < small_night.starts_at


def test_a_night_ended_before_its_start_takes_no_answer_offers_no_seat_and_shows_no_buttons(
    client, club, small_night, alice, bob, charlie
):
    """An organizer may end a night early, before its planned start: its record is then closed.
    Nobody answers it any more (nor is added or removed by an organizer), nobody on its waitlist
    is offered a seat (no mail about a night that is over), and a pending offer cannot be taken."""
    from clubs import recap

    for person in (alice, bob, charlie):
        rsvp.answer(small_night, person, GOING)
    rsvp.answer(small_night, bob, NO)
    offer = Offer.objects.get(night=small_night, user=charlie, status=Offer.Status.PENDING)
    recap.end_night(small_night, bob)
    small_night.refresh_from_db()

    for person, choice in ((alice, NO), (bob, GOING)):
        with pytest.raises(rsvp.RsvpError, match="has ended"):
            rsvp.answer(small_night, person, choice)
    with pytest.raises(rsvp.RsvpError, match="has ended"):
        rsvp.answer(small_night, alice, NO, organizer=True)
    with pytest.raises(rsvp.RsvpError, match="has ended"):
        rsvp.accept(small_night, offer.pk, charlie)
    assert answer_of(small_night, alice) == GOING
    assert answer_of(small_night, charlie) == WAITING
    assert rsvp.offer_next(small_night) == []
    assert rsvp.pending_offer(small_night, charlie) is None, "the offer card is gone from the night's page"

    client.force_login(bob)  # an organizer of the club
    page = client.get(f"/clubs/{club.slug}/nights/{small_night.pk}/").content.decode()
    assert 'data-testid="rsvp-going"' not in page
    assert 'value="remove"' not in page and 'value="add"' not in page

"""Check-in (issue 12 §1): members going say "I'm here" from an hour before the start; organizers
check people in and out and add walk-ins; at the seat lock unclaimed seats pass to the waitlist."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from clubs import checkin, due, nights, rsvp
from clubs.models import CheckIn, Membership, Offer, Round, Rsvp
from tests.platform.clubs.conftest import add_members, night_fields

PERSONAS = ["alice", "bob", "charlie", "dave", "gus", "nobody"]


@pytest.fixture
def tonight(club, bob):
    """A night starting in half an hour: check-in is open."""
    starts = timezone.now().replace(microsecond=0) + timedelta(minutes=30)
    return nights.create_night(club, bob, night_fields(starts_at=starts, rsvp_deadline=starts - timedelta(hours=2)))


def _going(night, *people):
    for person in people:
        rsvp.answer(night, person, "going", organizer=True)


def test_a_member_going_checks_in_and_the_page_says_so(client, tonight, charlie):
    _going(tonight, charlie)
    client.force_login(charlie)
    page = client.get(f"/clubs/wolves/nights/{tonight.pk}/").content.decode()
    assert 'data-testid="check-in"' in page
    client.post(f"/clubs/wolves/nights/{tonight.pk}/here/")
    row = CheckIn.objects.get(night=tonight)
    assert row.user == charlie and row.checked_in_by == charlie and row.person == f"u{charlie.pk}"
    assert 'data-testid="i-am-here"' in client.get(f"/clubs/wolves/nights/{tonight.pk}/").content.decode()


def test_check_in_is_refused_before_the_hour_and_for_someone_not_going(client, night, tonight, charlie):
    _going(night, charlie)
    client.force_login(charlie)
    response = client.post(f"/clubs/wolves/nights/{night.pk}/here/", follow=True)
    assert "Check-in opens an hour before the start." in response.content.decode()
    response = client.post(f"/clubs/wolves/nights/{tonight.pk}/here/", follow=True)
    assert "Only people going can check in" in response.content.decode()
    assert not CheckIn.objects.exists()


@pytest.mark.parametrize("persona", ["charlie", "dave", "gus", "nobody"])
def test_only_organizers_check_others_in_or_out_or_add_walk_ins(as_, persona, tonight, charlie, bob):
    client = as_(persona)
    member = Membership.objects.get(club=tonight.club, user=charlie)
    row = checkin.check_in_member(tonight, bob, bob)
    url = f"/clubs/wolves/nights/{tonight.pk}/checkins/"
    for data in (
        {"action": "in", "member": member.pk},
        {"action": "out", "checkin": row.pk},
        {"action": "walk_in", "name": "Zed"},
    ):
        assert client.post(url, data).status_code == 403, (persona, data)
    assert list(CheckIn.objects.values_list("user_id", "present")) == [(bob.pk, True)]


@pytest.mark.parametrize("persona", ["dave", "gus", "nobody"])
def test_outsiders_of_a_private_club_get_404_on_every_check_in_url(as_, persona, private_club, tonight):
    client = as_(persona)
    for url in ("here/", "checkins/"):
        assert (
            client.post(f"/clubs/wolves/nights/{tonight.pk}/{url}", {"action": "walk_in", "name": "Z"}).status_code
            == 404
        )


@pytest.mark.parametrize("persona", ["alice", "bob"])
def test_an_organizer_checks_in_a_member_checks_out_and_adds_a_walk_in(as_, persona, tonight, charlie):
    client = as_(persona)
    url = f"/clubs/wolves/nights/{tonight.pk}/checkins/"
    member = Membership.objects.get(club=tonight.club, user=charlie)
    client.post(url, {"action": "in", "member": member.pk})
    client.post(url, {"action": "walk_in", "name": "  Zed   the guest "})
    walk_in = CheckIn.objects.get(walk_in=True)
    assert walk_in.user.is_guest and walk_in.user.display_name == "Zed the guest"
    assert walk_in.person == f"w{walk_in.pk}" and walk_in.checked_in_by.username == persona
    page = client.get(f"/clubs/wolves/nights/{tonight.pk}/").content.decode()
    assert "Zed the guest" in page and 'data-testid="walkin-link"' in page
    row = CheckIn.objects.get(user=charlie)
    client.post(url, {"action": "out", "checkin": row.pk})
    row.refresh_from_db()
    assert not row.present and row.checked_out_by.username == persona
    assert checkin.people(tonight) == [walk_in.person]


def test_bad_check_in_input_is_refused_with_a_message(client, tonight, bob):
    client.force_login(bob)
    url = f"/clubs/wolves/nights/{tonight.pk}/checkins/"
    for data, text in [
        ({"action": "in", "member": "99999"}, "There is no such member in this club."),
        ({"action": "in", "member": "x1"}, "There is no such member in this club."),
        ({"action": "out", "checkin": "12"}, "That person is not checked in."),
        ({"action": "walk_in", "name": "   "}, "Give the guest a name"),
        ({"action": "walk_in", "name": "x" * 41}, "Give the guest a name"),
        ({"action": "dance"}, "Check someone in or out"),
    ]:
        assert text in client.post(url, data, follow=True).content.decode(), data
    assert not CheckIn.objects.exists()


def test_check_in_is_refused_while_a_round_is_under_way(tonight, bob, charlie):
    Round.objects.create(night=tonight, number=1, status=Round.Status.STARTED)
    with pytest.raises(checkin.CheckInError, match="A round is under way"):
        checkin.check_in_member(tonight, charlie, bob)


def test_the_walk_in_link_signs_a_phone_in_as_the_guest_but_never_replaces_a_member(client, tonight, bob, charlie):
    from clubs.tonight_views import walkin_token

    row = checkin.add_walk_in(tonight, "Zed", bob)
    url = f"/clubs/wolves/nights/{tonight.pk}/walk-in/{walkin_token(row)}/"
    assert client.get(url).status_code == 302
    assert int(client.session["_auth_user_id"]) == row.user_id
    client.force_login(charlie)
    assert client.get(url).status_code == 403
    assert client.get(url[:-5] + "xxxx/").status_code == 404
    member_row = checkin.check_in_member(tonight, charlie, bob)
    assert client.get(f"/clubs/wolves/nights/{tonight.pk}/walk-in/{walkin_token(member_row)}/").status_code == 404


def test_at_the_seat_lock_unclaimed_seats_pass_to_the_waitlist_with_offers(club, bob, tonight):
    tonight.capacity = 2
    tonight.save()
    first, second, third = add_members(club, 3)
    _going(tonight, first, second)
    Rsvp.objects.create(night=tonight, user=third, answer=Rsvp.Answer.WAITING, queue_number=1)
    checkin.check_in_self(tonight, first)
    assert checkin.lock_due(timezone.now()) == 0, "not yet: the lock is 15 minutes before the start"
    assert due.run_due(tonight.starts_at - timedelta(minutes=10), series=False) >= 1
    tonight.refresh_from_db()
    assert tonight.seats_locked
    assert Rsvp.objects.get(night=tonight, user=second).answer == Rsvp.Answer.MAYBE
    assert Rsvp.objects.get(night=tonight, user=first).answer == Rsvp.Answer.GOING
    offer = Offer.objects.get(night=tonight)
    assert offer.user == third and offer.status == Offer.Status.PENDING
    assert second.notifications.filter(kind="seat_released").exists()
    assert checkin.lock_due(tonight.starts_at) == 0, "the lock happens once"


def test_with_nobody_waiting_the_seat_lock_takes_no_seat(club, tonight):
    (first,) = add_members(club, 1)
    _going(tonight, first)
    assert checkin.lock_due(tonight.starts_at - timedelta(minutes=1)) == 1
    assert Rsvp.objects.get(night=tonight, user=first).answer == Rsvp.Answer.GOING


def test_every_night_has_a_committed_seed_of_its_own(tonight, night):
    from clubs import commitment

    assert commitment.verify(tonight.seed_secret, tonight.seed_commitment)
    assert tonight.seed_secret != night.seed_secret
    assert tonight.revealed_seed() == ""


def test_a_late_member_checked_in_by_an_organizer_is_going_and_off_the_waitlist(tonight, bob, charlie):
    """Sami's seat passed at the seat lock, so he waits in line; he arrives and Bob checks him in:
    he is going, off the waitlist, and his pending offer is withdrawn."""
    (sami,) = add_members(tonight.club, 1, "s")
    Rsvp.objects.create(night=tonight, user=sami, answer=Rsvp.Answer.WAITING, queue_number=3)
    Offer.objects.create(night=tonight, user=sami, expires_at=timezone.now() + timedelta(hours=1))
    checkin.check_in_member(tonight, sami, bob)
    assert Rsvp.objects.get(night=tonight, user=sami).answer == Rsvp.Answer.GOING
    assert Rsvp.objects.get(night=tonight, user=sami).queue_number is None
    assert not Offer.objects.filter(night=tonight, user=sami, status=Offer.Status.PENDING).exists()

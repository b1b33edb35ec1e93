"""An ended night is the club's record: its organizers can no longer move, edit or cancel it, and a
member who leaves (or is removed) keeps their place in the nights that already began."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs import members, nights, recap, rsvp
from clubs.models import Membership, Night, Notification, Rsvp
from tests.platform.clubs.conftest import add_members, night_fields
from tests.platform.clubs.tonight_helpers import drawn, played


def test_an_ended_night_cannot_be_cancelled_or_edited(club, bob, as_):
    night, people, _round = played(club, bob)
    recap.end_night(night, bob)
    with pytest.raises(nights.NightError, match="has ended"):
        nights.cancel_night(night)
    with pytest.raises(nights.NightError, match="has ended"):
        nights.update_night(night, {"title": "Renamed"})
    night.refresh_from_db()
    assert (night.cancelled, night.title) == (False, "Werewolf night")
    page = as_("bob").get(reverse("clubs:night", args=[club.slug, night.pk])).content.decode()
    assert 'data-testid="cancel-night"' not in page and 'data-testid="edit-night"' not in page


def test_a_forged_cancel_of_an_ended_night_is_refused_with_a_message(club, bob, as_):
    night, people, _round = played(club, bob)
    recap.end_night(night, bob)
    client = as_("bob")
    answer = client.post(reverse("clubs:night_cancel", args=[club.slug, night.pk]), follow=True)
    assert "This night has ended" in answer.content.decode()
    assert not Night.objects.get(pk=night.pk).cancelled
    edit = client.get(reverse("clubs:night_edit", args=[club.slug, night.pk]), follow=True)
    assert "This night has ended" in edit.content.decode()


def test_a_night_whose_games_began_is_ended_not_cancelled(club, bob):
    from clubs import rounds

    night, people, round_ = drawn(club, bob)
    rounds.confirm(night, round_.pk, bob)
    with pytest.raises(nights.NightError, match="have begun"):
        nights.cancel_night(night)
    assert not Night.objects.get(pk=night.pk).cancelled


def test_a_night_still_being_planned_can_be_cancelled(club, bob):
    night = nights.create_night(club, bob, night_fields())
    assert nights.cancel_night(night).cancelled


def test_leaving_the_club_keeps_the_nights_that_began_and_frees_the_coming_ones(club, bob, charlie):
    """Charlie went to last week's night and said he would come to next week's; then he leaves."""
    past = nights.create_night(club, bob, night_fields())
    rsvp.answer(past, charlie, "going")
    Night.objects.filter(pk=past.pk).update(starts_at=timezone.now() - timedelta(days=7))
    coming = nights.create_night(club, bob, night_fields())
    rsvp.answer(coming, charlie, "going")
    members.leave(club, charlie)
    assert Rsvp.objects.get(night=past, user=charlie).answer == Rsvp.Answer.GOING
    assert not Rsvp.objects.filter(night=coming, user=charlie, answer=Rsvp.Answer.GOING).exists()


def test_a_removed_member_is_told(club, bob, charlie):
    members.remove(club, bob, str(Membership.objects.get(club=club, user=charlie).pk))
    notice = Notification.objects.get(user=charlie, kind="removed")
    assert notice.params == {"club": "Thursday Wolves"}


def test_an_ended_night_is_listed_with_the_past_ones_at_once_and_a_cancelled_one_says_no_going(club, bob, as_):
    night, people, _round = played(club, bob)
    recap.end_night(night, bob)
    coming = nights.create_night(club, bob, night_fields(title="Next week"))
    rsvp.answer(coming, people[0], "going")
    nights.cancel_night(coming)
    page = as_("bob").get(reverse("clubs:detail", args=[club.slug]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    upcoming = page.split('data-testid="upcoming"')[1].split("</ul>")[0] if 'data-testid="upcoming"' in page else ""
    assert "Werewolf night" not in upcoming, "an ended night is no longer coming"
    assert "Werewolf night" in page, "it is listed with the past nights"
    client = as_("nobody")
    client.force_login(people[0])
    mine = client.get(reverse("clubs:my_nights"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    row = mine.split("Next week")[1].split("</li>")[0] if "Next week" in mine else ""
    assert "Going" not in row


def test_an_organizer_sees_who_said_maybe_or_no_and_who_has_not_answered(club, alice, bob, charlie, as_):
    """Bob organizes: Charlie said maybe, Alice no, and the two new members nothing yet."""
    night = nights.create_night(club, bob, night_fields())
    rsvp.answer(night, charlie, "maybe")
    rsvp.answer(night, alice, "no")
    quiet = add_members(club, 2, "q")
    page = as_("bob").get(reverse("clubs:night", args=[club.slug, night.pk]), HTTP_ACCEPT_LANGUAGE="en")
    html = page.content.decode()
    maybe = html.split('data-testid="answered-maybe"')[1].split("</ul>")[0]
    no = html.split('data-testid="answered-no"')[1].split("</ul>")[0]
    silent = html.split('data-testid="not-answered"')[1].split("</ul>")[0]
    assert "Charlie" in maybe and "Alice" in no
    assert all(str(person) in silent for person in quiet) and "Charlie" not in silent and "Bob" in silent
    member_view = as_("charlie").get(reverse("clubs:night", args=[club.slug, night.pk])).content.decode()
    assert 'data-testid="roll-call"' not in member_view, "only those who plan see it"


def test_a_waiting_member_reads_their_place_in_line_not_their_ticket(club, bob, as_):
    """The night is full and three wait; the first of them leaves the line: the next one reads
    «number 1 in line», not the ticket drawn on joining it."""
    night = nights.create_night(club, bob, night_fields(capacity=1))
    first, second, third, fourth = add_members(club, 4, "w")
    for person in (first, second, third, fourth):
        rsvp.answer(night, person, "going")
    rsvp.answer(night, second, "no")
    client = as_("nobody")
    client.force_login(third)
    page = client.get(reverse("clubs:night", args=[club.slug, night.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "number 1 in line" in page

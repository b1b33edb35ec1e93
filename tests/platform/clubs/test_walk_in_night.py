"""A walk-in guest is no member, but the night is theirs: once checked in they see their table,
vote for their table's best player and read the recap, at a private club too, while outsiders
still learn nothing of it."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs import checkin, playing, recap, rounds, rsvp
from clubs.models import Club
from tables.models import Match
from tests.platform.clubs.conftest import add_members
from tests.platform.clubs.tonight_helpers import DRACULA_AND_MONSTER, night_tonight
from tests.platform.helpers import play_until_over


def _night_with_zed(club, bob):
    """Four members and Zed, a walk-in, checked in; the first round drawn and its tables started."""
    night = night_tonight(club, bob)
    for person in add_members(club, 4, "m"):
        rsvp.answer(night, person, "going", organizer=True)
        checkin.check_in_self(night, person)
    zed = checkin.add_walk_in(night, "Zed", bob).user
    round_ = rounds.start_round(night, bob, DRACULA_AND_MONSTER)
    rounds.confirm(night, round_.pk, bob)
    rounds.start_tables(night, round_.pk)
    return night, zed, round_


def _as(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


@pytest.mark.parametrize("visibility", [Club.Visibility.PUBLIC, Club.Visibility.PRIVATE])
def test_a_walk_in_sees_their_table_and_the_recap(club, bob, dave, visibility):
    club.visibility = visibility
    club.save()
    night, zed, round_ = _night_with_zed(club, bob)
    url = f"/clubs/{club.slug}/nights/{night.pk}/"
    page = _as(zed).get(url)
    assert page.status_code == 200
    assert 'data-testid="your-table"' in page.content.decode()
    outsider = _as(dave).get(url)
    if visibility == Club.Visibility.PRIVATE:
        assert outsider.status_code == 404
    else:
        assert 'data-testid="round-tables"' not in outsider.content.decode()
    for match in Match.objects.filter(table__night_table__round=round_):
        play_until_over(match)
    playing.run_due()
    recap.end_night(night, bob)
    assert _as(zed).get(f"{url}recap/").status_code == 200
    assert _as(dave).get(f"{url}recap/").status_code in (403, 404)


def test_a_walk_in_finds_the_recap_among_their_nights_once_the_night_ends(club, bob, dave):
    night = night_tonight(club, bob)
    zed = checkin.add_walk_in(night, "Zed", bob).user
    recap.end_night(night, bob)
    recap_url = f"/clubs/{club.slug}/nights/{night.pk}/recap/"
    home = _as(zed).get("/").content.decode()
    assert 'href="/nights/"' in home, "the header's My nights"
    assert recap_url in home, "the home page's box offers the recap"
    mine = _as(zed).get("/nights/").content.decode()
    assert 'data-testid="came-to"' in mine and recap_url in mine
    assert _as(zed).get(recap_url).status_code == 200
    assert recap_url not in _as(dave).get("/nights/").content.decode()


def test_a_guest_who_came_to_no_night_keeps_the_short_header(gus):
    assert 'href="/nights/"' not in _as(gus).get("/").content.decode()


def test_a_night_ended_before_its_planned_start_is_no_longer_a_coming_night(club, bob):
    night = night_tonight(club, bob)  # starts in half an hour
    recap.end_night(night, bob)
    mine = _as(bob).get("/nights/").content.decode()
    assert 'data-testid="my-nights"' not in mine and 'data-testid="came-to"' not in mine
    assert f"/nights/{night.pk}/" not in _as(bob).get("/").content.decode()


def test_a_walk_in_who_logs_in_to_their_account_keeps_their_points_on_the_nights_scoreboard(club, bob, dave):
    """Zed came as a walk-in, played the first round, then logged in to the account they had
    (dave) on the same device: the night's points and check-in are dave's now, not lost."""
    from django.urls import reverse

    from accounts.claims import merge_guest_into
    from clubs.models import CheckIn, PointsEntry

    night, zed, round_ = _night_with_zed(club, bob)
    for match in Match.objects.filter(table__night_table__round=round_):
        play_until_over(match)
    playing.run_due()
    zeds_points = sorted(PointsEntry.objects.filter(night=night, user=zed).values_list("points", flat=True))
    assert zeds_points, "the round gave Zed a points line"
    merge_guest_into(zed, dave)
    assert sorted(PointsEntry.objects.filter(night=night, user=dave).values_list("points", flat=True)) == zeds_points
    assert CheckIn.objects.filter(night=night, user=dave, walk_in=True).exists()
    board = _as(bob).get(reverse("clubs:night", args=[club.slug, night.pk])).content.decode()
    assert str(dave.display_name) in board

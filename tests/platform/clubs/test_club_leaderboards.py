"""A club's own leaderboards (issue 13 §5) and the clubs on a profile (§6). Personas: alice owns
the club, bob organizes, charlie is a member, dave is an outsider."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from clubs import rounds
from games.base import TIMEOUT
from history import club_boards
from tables import moderator, seating
from tables.models import Match, Table
from tests.platform.clubs.tonight_helpers import drawn

pytestmark = pytest.mark.django_db


def _play_by_hand(match: Match, rng: random.Random) -> Match:
    """Every seat moves itself (no clock, no bot): a match that ratings count."""
    for _ in range(3000):
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            return match
        engine = match.engine
        movers = [s for s in range(match.n_players) if any(a != TIMEOUT for a in engine.legal_actions(match.state, s))]
        seat = rng.choice(movers)
        action = rng.choice([a for a in engine.legal_actions(match.state, seat) if a != TIMEOUT])
        owner = match.table.seats.get(number=seat).user_id
        version = (match.decision_versions or {}).get(str(seat), match.version)
        moderator.submit(match.pk, seat, action, int(version), user_id=owner)
    raise AssertionError("the match did not end")


def _club_night_played_by_hand(club, organizer):
    night, people, round_ = drawn(club, organizer)
    rounds.confirm(night, round_.pk, organizer)
    rounds.start_tables(night, round_.pk)
    matches = [_play_by_hand(m, random.Random(m.pk)) for m in Match.objects.filter(table__night_table__round=round_)]
    return people, matches


@pytest.fixture
def counted_at_once(monkeypatch):
    """One game is enough to be listed here, so that a short night fills the board."""
    from history import models

    monkeypatch.setattr(models, "PROVISIONAL_GAMES", 1)
    monkeypatch.setattr(models, "PROVISIONAL_SIGMA", 100.0)


def test_a_clubs_board_counts_the_games_of_its_nights(club, bob, counted_at_once):
    people, matches = _club_night_played_by_hand(club, bob)
    dracula = next(m for m in matches if m.game == "dracula")
    ratings = club_boards.club_ratings(club, "dracula")
    assert dracula.status == Match.Status.FINISHED
    players = set(dracula.table.seats.values_list("user_id", flat=True))
    assert set(ratings) == players and all(r.games == 1 for r in ratings.values())
    rows, provisional = club_boards.club_leaderboard(club, "dracula")
    assert {r.user.pk for r in rows} == players and provisional == 0


def test_a_game_away_from_the_clubs_nights_does_not_count(club, bob, counted_at_once):
    people, matches = _club_night_played_by_hand(club, bob)
    dracula = next(m for m in matches if m.game == "dracula")
    first, second = (s.user for s in dracula.table.seats.order_by("number"))
    table = seating.create_table(first, "dracula", 2, Table.Visibility.PRIVATE)
    seating.sit(table, second)
    seating.start(table, first, seed=5)
    _play_by_hand(Match.objects.get(table=table), random.Random(1))
    assert {r.games for r in club_boards.club_ratings(club, "dracula").values()} == {1}


def test_provisional_players_are_left_out_and_counted(club, bob):
    _club_night_played_by_hand(club, bob)
    rows, provisional = club_boards.club_leaderboard(club, "dracula")
    assert rows == [] and provisional == 2


@pytest.mark.parametrize("persona", ["alice", "bob", "charlie"])
def test_members_see_their_clubs_board(as_, club, persona):
    page = as_(persona).get(reverse("players:club_leaderboard", args=["dracula", club.slug]))
    assert page.status_code == 200 and b'data-testid="club-board"' in page.content


@pytest.mark.parametrize("persona", ["dave", "nobody"])
def test_outsiders_are_told_the_board_is_for_members(as_, club, persona):
    page = as_(persona).get(reverse("players:club_leaderboard", args=["dracula", club.slug]))
    assert page.status_code == 403 and b'data-testid="club-board-closed"' in page.content


@pytest.mark.parametrize("persona", ["dave", "nobody"])
def test_a_private_clubs_board_does_not_exist_for_outsiders(as_, private_club, persona):
    page = as_(persona).get(reverse("players:club_leaderboard", args=["dracula", private_club.slug]))
    assert page.status_code == 404


def test_an_unknown_game_or_club_is_not_found(as_, club):
    assert as_("charlie").get(reverse("players:club_leaderboard", args=["chess", club.slug])).status_code == 404
    assert as_("charlie").get(reverse("players:club_leaderboard", args=["dracula", "nope"])).status_code == 404


def test_a_profile_lists_the_public_clubs_of_its_player(as_, club, charlie):
    page = as_("dave").get(reverse("players:profile", args=[charlie.username]))
    assert b'data-testid="profile-clubs"' in page.content and club.name.encode() in page.content


@pytest.mark.parametrize(("persona", "sees"), [("dave", False), ("nobody", False), ("bob", True), ("charlie", True)])
def test_a_private_club_is_on_a_profile_only_for_its_members(as_, private_club, charlie, persona, sees):
    page = as_(persona).get(reverse("players:profile", args=[charlie.username]))
    assert page.status_code == 200
    assert (private_club.name.encode() in page.content) is sees


def test_the_provisional_count_reads_in_persian_digits(client, club, bob, charlie):
    _club_night_played_by_hand(club, bob)
    client.force_login(charlie)
    client.cookies["django_language"] = "fa"
    page = client.get(reverse("players:club_leaderboard", args=["dracula", club.slug]), HTTP_ACCEPT_LANGUAGE="fa")
    assert "۲ بازیکن موقت".encode() in page.content

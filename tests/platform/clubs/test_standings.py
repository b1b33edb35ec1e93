"""The club's standings (issue 12 §8): a leaderboard over the club's ended nights within a season
the owner sets; a member's page (nights attended, points, tables won by game and side); pair
rules the organizers set, honoured by the next seating. Every persona gets exactly its role's."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from clubs import recap, rounds, scoreboard, standings
from clubs.models import Membership, PairRule, PointsEntry, Season
from tests.platform.clubs.tonight_helpers import checked_in, played

PERSONAS = ["alice", "bob", "charlie", "dave", "gus", "nobody"]
MEMBERS = {"alice", "bob", "charlie"}


def _ended(club, bob):
    night, people, round_ = played(club, bob)
    recap.end_night(night, bob)
    return night, people


def test_the_leaderboard_counts_only_ended_nights_of_the_season(club, bob, alice):
    night, people = _ended(club, bob)
    today = timezone.localdate()
    inside = standings.add_season(club, alice, "Autumn", today - timedelta(days=1), today + timedelta(days=1))
    before = standings.add_season(club, alice, "Summer", today - timedelta(days=90), today - timedelta(days=30))
    rows = standings.leaderboard(club, inside)
    assert len(rows) == 5 and all(r["nights"] == 1 for r in rows)
    night_board = {r["user_id"]: r["total"] for r in scoreboard.rows(night)}
    assert {r["user_id"]: r["total"] for r in rows} == night_board
    assert standings.leaderboard(club, before) == []
    running, _people = checked_in(club, bob, 2, "late")
    PointsEntry.objects.create(night=running, user=_people[0], kind="penalty", points=-5, raw=-5)
    assert {r["user_id"] for r in standings.leaderboard(club, inside)} == set(night_board), (
        "a night under way is not counted"
    )


def test_a_members_page_shows_nights_points_and_tables_won_by_game_and_side(client, club, bob):
    night, people = _ended(club, bob)
    person = people[0]
    stats = standings.member_stats(club, person)
    line = PointsEntry.objects.get(night=night, user=person, kind="table")
    assert stats["nights"] == 1 and stats["tables"] == 1 and stats["won"] == int(line.won)
    assert [(g["game"], g["side"], g["tables"]) for g in stats["by_game"]] == [(line.game, line.side, 1)]
    client.force_login(bob)
    page = client.get(f"/clubs/wolves/members/{person.pk}/").content.decode()
    assert 'data-testid="by-game"' in page
    assert client.get("/clubs/wolves/members/999999/").status_code == 404


def test_a_season_needs_a_name_and_an_end_after_its_start(client, club, alice):
    client.force_login(alice)
    for data in (
        {"name": "", "starts_on": "2026-01-01", "ends_on": "2026-02-01"},
        {"name": "X", "starts_on": "2026-03-01", "ends_on": "2026-02-01"},
        {"name": "X", "starts_on": "soon", "ends_on": "2026-02-01"},
    ):
        client.post("/clubs/wolves/seasons/", data)
    assert not Season.objects.exists()
    client.post("/clubs/wolves/seasons/", {"name": "Winter", "starts_on": "2026-12-01", "ends_on": "2027-02-28"})
    assert Season.objects.get().name == "Winter"


@pytest.mark.parametrize("persona", PERSONAS)
def test_standings_for_members_seasons_for_the_owner_rules_for_organizers(as_, persona, club, gus, charlie):
    client = as_(persona)
    member = Membership.objects.get(club=club, user=charlie)
    member_ok = 200 if persona in MEMBERS else 403
    assert client.get("/clubs/wolves/standings/").status_code == member_ok
    assert client.get(f"/clubs/wolves/members/{charlie.pk}/").status_code == member_ok
    assert client.get("/clubs/wolves/pair-rules/").status_code == (200 if persona in {"alice", "bob"} else 403)
    season = {"name": "Winter", "starts_on": "2026-12-01", "ends_on": "2027-02-28"}
    assert client.post("/clubs/wolves/seasons/", season).status_code == (302 if persona == "alice" else 403)
    owner = Membership.objects.get(club=club, role="owner")
    rule = {"action": "add", "a": owner.pk, "b": member.pk, "kind": "apart"}
    assert client.post("/clubs/wolves/pair-rules/", rule).status_code == (302 if persona in {"alice", "bob"} else 403)
    assert Season.objects.exists() == (persona == "alice")
    assert PairRule.objects.exists() == (persona in {"alice", "bob"})


@pytest.mark.parametrize("persona", ["dave", "gus", "nobody"])
def test_a_private_clubs_standings_are_404_for_outsiders(as_, persona, private_club, charlie):
    client = as_(persona)
    for url in ("/clubs/wolves/standings/", f"/clubs/wolves/members/{charlie.pk}/", "/clubs/wolves/pair-rules/"):
        assert client.get(url).status_code == 404, url


def test_a_keep_apart_rule_set_on_the_page_is_honoured_by_the_next_seating(client, club, bob):
    night, people = checked_in(club, bob, 4)
    first, second = (Membership.objects.get(club=club, user=p) for p in people[:2])
    client.force_login(bob)
    client.post("/clubs/wolves/pair-rules/", {"action": "add", "a": first.pk, "b": second.pk, "kind": "apart"})
    games = [{"game": "monster", "options": {}, "min_players": 2, "max_players": 2}]
    round_ = rounds.start_round(night, bob, games)
    assert [r[2] for r in round_.inputs["rules"]] == ["apart"]
    pair = {f"u{people[0].pk}", f"u{people[1].pk}"}
    assert all(not pair <= set(t["people"]) for t in round_.seating["tables"])
    bad = client.post(
        "/clubs/wolves/pair-rules/", {"action": "add", "a": first.pk, "b": first.pk, "kind": "apart"}, follow=True
    )
    assert "Choose two different members" in bad.content.decode()


def test_a_player_checked_out_after_playing_a_round_still_attended_the_night(club, bob, alice):
    """Kaveh played the first round, then left and was checked out: he came that night."""
    from clubs import checkin
    from clubs.models import CheckIn

    night, people, round_ = played(club, bob)
    kaveh = people[0]
    checkin.check_out(night, CheckIn.objects.get(night=night, user=kaveh).pk, bob)
    recap.end_night(night, bob)
    assert standings.member_stats(club, kaveh)["nights"] == 1
    rows = {r["user_id"]: r["nights"] for r in standings.leaderboard(club, None)}
    assert rows[kaveh.pk] == 1


def test_a_members_page_names_monsters_side_in_the_readers_language(client, club, bob):
    """Monster's side was printed as its code, "scientist", on every member page."""
    night, people = _ended(club, bob)
    line = PointsEntry.objects.filter(night=night, kind="table", game="monster").first()
    client.force_login(bob)
    page = client.get(f"/clubs/wolves/members/{line.user_id}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Mad scientist" in page and ">scientist<" not in page


def test_a_persian_owner_sets_a_season_in_jalali_dates_and_an_english_one_with_the_picker(client, club, alice):
    """A browser's date picker knows only the Gregorian calendar: a Persian page asks for the
    season's days as Jalali text (as the night form does), and either page's dates are read."""
    from datetime import date

    client.force_login(alice)
    persian = client.get("/clubs/wolves/standings/", HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    assert 'type="date"' not in persian
    assert 'name="starts_on"' in persian and 'placeholder="۱۴۰۵/۰۹/۱۲"' in persian
    english = client.get("/clubs/wolves/standings/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'type="date" name="starts_on"' in english

    season = {"name": "زمستان", "starts_on": "۱۴۰۵/۱۰/۰۱", "ends_on": "۱۴۰۵/۱۲/۲۹"}
    client.post("/clubs/wolves/seasons/", season, HTTP_ACCEPT_LANGUAGE="fa")
    saved = Season.objects.get()
    assert (saved.starts_on, saved.ends_on) == (date(2026, 12, 22), date(2027, 3, 20))


def test_the_standings_link_only_to_member_pages_that_exist(client, club, alice, bob):
    """Someone who played and then left keeps their row in the standings, but their name is not
    a link to a member page that answers 404."""
    from clubs import members

    night, people, _round = played(club, bob)
    recap.end_night(night, bob)
    gone, stays = people[0], people[1]
    members.leave(club, gone)
    client.force_login(alice)
    page = client.get("/clubs/wolves/standings/").content.decode()
    assert f"<bdi>{gone}</bdi>" in page
    assert f"/clubs/wolves/members/{gone.pk}/" not in page
    assert f"/clubs/wolves/members/{stays.pk}/" in page
    assert client.get(f"/clubs/wolves/members/{stays.pk}/").status_code == 200

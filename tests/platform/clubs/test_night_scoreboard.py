"""The night's scoreboard (issue 12 §5): finished tables are scored by the documented points
table, normalised; best players (by vote or the organizer's pick) and penalties are logged and
undone; the total is always the sum of the log; tie-breaks are printed."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db.models import Sum

from clubs import points, scoreboard
from clubs.models import Award, Penalty, PointsEntry, Round, RoundTable
from tests.platform.clubs.tonight_helpers import played


def _log_total(night, user_id):
    return PointsEntry.objects.filter(night=night, user_id=user_id).aggregate(t=Sum("points"))["t"] or Decimal(0)


def _board(night):
    return {row["user_id"]: row for row in scoreboard.rows(night)}


def test_finished_tables_are_scored_by_the_points_table_once_and_the_round_ends(club, bob):
    night, people, round_ = played(club, bob)
    assert round_.status == Round.Status.ENDED and not round_.ended_early
    for row in RoundTable.objects.filter(round=round_).select_related("table__match"):
        match = row.table.match
        for seat in row.table.seats.all():
            line = PointsEntry.objects.get(night=night, user_id=seat.user_id, kind="table")
            expected = points.table_points(match.game, match.state, match.result, seat.number, points.POINTS_VERSION)
            assert float(line.points) == pytest.approx(expected, abs=0.01)
            assert line.won == (seat.number in match.result["winners"]) and line.version == "1"
    assert scoreboard.score_table(RoundTable.objects.filter(round=round_).first()) == 0, "scored once"
    assert PointsEntry.objects.filter(night=night).count() == 5
    board = scoreboard.rows(night)
    assert [r["place"] for r in board] == sorted(r["place"] for r in board)
    assert all(r["total"] == _log_total(night, r["user_id"]) for r in board)


def test_an_award_by_the_players_vote_adds_the_bonus_and_its_undo_restores_the_total(club, bob):
    night, people, round_ = played(club, bob)
    row = RoundTable.objects.get(round=round_, table__game="monster")
    players = [s.user for s in row.table.seats.order_by("number")]
    before = _board(night)[players[2].pk]["total"]
    scoreboard.vote(row, players[0], players[2].pk)
    scoreboard.vote(row, players[1], players[2].pk)
    given = scoreboard.award(row, bob)
    assert given.by_vote and given.user == players[2]
    assert _board(night)[players[2].pk]["total"] == before + Decimal(str(points.BEST_PLAYER_BONUS))
    assert _board(night)[players[2].pk]["awards"] == 1
    scoreboard.undo(night, given, bob)
    assert _board(night)[players[2].pk]["total"] == before
    assert _log_total(night, players[2].pk) == before
    kinds = list(PointsEntry.objects.filter(night=night, user=players[2]).values_list("kind", flat=True))
    assert kinds == ["table", "award", "undo"], "every change of the total has its line"
    with pytest.raises(scoreboard.ScoreError, match="already undone"):
        scoreboard.undo(night, Award.objects.get(pk=given.pk), bob)


def test_a_tied_vote_names_nobody_and_a_vote_for_oneself_or_a_stranger_is_refused(club, bob):
    night, people, round_ = played(club, bob)
    row = RoundTable.objects.get(round=round_, table__game="monster")
    a, b, c = [s.user for s in row.table.seats.order_by("number")]
    scoreboard.vote(row, a, b.pk)
    scoreboard.vote(row, b, a.pk)
    with pytest.raises(scoreboard.ScoreError, match="no clear winner"):
        scoreboard.award(row, bob)
    with pytest.raises(scoreboard.ScoreError, match="another player"):
        scoreboard.vote(row, c, c.pk)
    other = RoundTable.objects.get(round=round_, table__game="dracula")
    stranger = other.table.seats.first().user
    with pytest.raises(scoreboard.ScoreError, match="Only the table's players"):
        scoreboard.vote(row, stranger, a.pk)
    with pytest.raises(scoreboard.ScoreError, match="one of the table's players"):
        scoreboard.award(row, bob, stranger.pk)
    assert not Award.objects.exists()


def test_a_penalty_with_a_reason_is_taken_off_and_its_undo_gives_it_back(club, bob):
    night, people, round_ = played(club, bob)
    target = people[0]
    before = _board(night)[target.pk]["total"]
    penalty = scoreboard.penalise(night, target.pk, "phone at the table", bob, 2)
    assert _board(night)[target.pk]["total"] == before - 2
    scoreboard.undo(night, penalty, bob)
    assert _board(night)[target.pk]["total"] == before
    for bad, value in [("", 1), ("x" * 201, 1), ("ok", 0), ("ok", 11)]:
        with pytest.raises(scoreboard.ScoreError):
            scoreboard.penalise(night, target.pk, bad, bob, value)
    assert Penalty.objects.count() == 1


def test_tie_breaks_are_printed_in_their_order(club, bob, client):
    night, people, round_ = played(club, bob)
    client.force_login(people[0])
    page = client.get(f"/clubs/wolves/nights/{night.pk}/").content.decode()
    assert 'data-testid="scoreboard"' in page
    assert page.index("Most points") < page.index("Most tables won") < page.index("Most best-player awards")


def test_the_scoreboard_is_final_once_the_night_has_ended(club, bob):
    from clubs import recap

    night, people, round_ = played(club, bob)
    recap.end_night(night, bob)
    with pytest.raises(scoreboard.ScoreError, match="final"):
        scoreboard.penalise(night, people[0].pk, "late", bob)

"""The night's points table applied to real finished games, its normalisation, and the standings
with their printed tie-breaks, awards and penalties. Games are played to their end with random
legal moves (no database)."""

from __future__ import annotations

import pytest

from clubs import points
from clubs.points import NORMAL, Award, Penalty, TableScore, standings, table_points, tally
from games import registry
from tests.games.playout import random_game


def finished(game, n, seeds=range(40), options=None):
    engine = registry.get(game)
    for seed in seeds:
        state, _moves = random_game(engine, n, seed, options)
        yield state, engine.result(state)


def test_werewolf_gives_a_win_3_and_surviving_as_a_winner_1_scaled_to_ten():
    seen = set()
    for state, result in finished("werewolf", 7, range(25)):
        for seat, row in enumerate(result.seats):
            got = table_points("werewolf", state, result, seat)
            won = seat in result.winners
            if won and row["alive"]:
                assert got == NORMAL
                seen.add("alive winner")
            elif won:
                assert got == 7.5
                seen.add("dead winner")
            else:
                assert got == 0
                seen.add("loser")
    assert seen == {"alive winner", "dead winner", "loser"}


@pytest.mark.parametrize("game,n", [("dracula", 2), ("insidejob", 4), ("insidejob", 2)])
def test_side_games_give_the_winning_side_full_points_and_the_others_none(game, n):
    for state, result in finished(game, n, range(15)):
        got = [table_points(game, state, result, s) for s in range(n)]
        assert got == [NORMAL if s in result.winners else 0.0 for s in range(n)]


def test_larrys_win_in_inside_job_scores_nobody():
    larry = [(st, r) for st, r in finished("insidejob", 2, range(60)) if not r.winners]
    assert larry, "no random two-player game ended with LARRY's win"
    for state, result in larry:
        assert [table_points("insidejob", state, result, s) for s in range(2)] == [0.0, 0.0]


def test_monster_gives_place_points_from_first_ten_to_last_zero():
    for state, result in finished("monster", 5, range(6)):
        got = [table_points("monster", state, result, s) for s in range(5)]
        [winner] = result.winners
        assert got[winner] == NORMAL
        scores = [row["score"] for row in result.seats]
        for a in range(5):
            for b in range(5):
                if a not in result.winners and b not in result.winners and scores[a] > scores[b]:
                    assert got[a] > got[b]
                if scores[a] == scores[b] and winner not in (a, b):
                    assert got[a] == got[b]
        assert min(got) == 0.0 or len(set(scores)) < 5


def test_mummy_gives_the_winner_ten_the_others_nothing_and_a_draw_nothing():
    results = list(finished("mummy", 4, range(30)))
    assert any(r.winners for _s, r in results)
    for state, result in results:
        got = [table_points("mummy", state, result, s) for s in range(4)]
        assert got == [NORMAL if s in result.winners else 0.0 for s in range(4)]
    draw = {"winners": [], "draw": True, "seats": [{"side": "guest"}] * 4, "summary": ""}
    assert [table_points("mummy", None, draw, s) for s in range(4)] == [0.0] * 4


def test_normalisation_gives_every_game_the_same_most_a_seat_can_earn():
    best = {}
    for game, n in [("werewolf", 5), ("dracula", 2), ("insidejob", 3), ("monster", 3), ("mummy", 4)]:
        best[game] = max(table_points(game, st, r, s) for st, r in finished(game, n, range(12)) for s in range(n))
    assert set(best.values()) == {NORMAL}, best


def test_an_aborted_table_or_an_unknown_game_counts_for_nothing():
    assert table_points("werewolf", None, None, 0) == 0.0
    assert table_points("chess", None, {"winners": [0], "seats": [{}, {}]}, 0) == 0.0
    rows = [TableScore("u1", "t1", "werewolf", 10.0, True, aborted=True), TableScore("u1", "t2", "dracula", 10.0, True)]
    [alice] = standings(rows)
    assert (alice.points, alice.tables, alice.wins) == (10.0, 1, 1)


def test_an_old_night_keeps_the_meaning_of_its_version():
    with pytest.raises(ValueError):
        table_points("werewolf", None, {"winners": [0], "seats": [{"alive": True}]}, 0, version=99)
    assert points.POINTS_VERSION in points.POINTS


def test_the_printed_table_lists_every_rule_with_raw_and_normalised_points():
    rows = points.table_rows()
    assert ("werewolf", points.DESCRIPTIONS["win"], 3, 7.5) in rows
    assert ("dracula", points.DESCRIPTIONS["win"], 3, 10.0) in rows


def row(person, table, pts, won=False, game="monster"):
    return TableScore(person, table, game, pts, won)


def test_standings_rank_by_points_then_the_printed_tie_breaks():
    rows = [
        row("alice", "t1", 10, True),
        row("alice", "t2", 0),
        row("bob", "t1", 5),
        row("bob", "t3", 5),
        row("charlie", "t2", 10, True),
        row("dave", "t3", 10, True),
        row("erin", "t4", 10, True),
    ]
    awards = [Award("charlie", "t2")]
    ranked = standings(rows, awards)
    assert [s.person for s in ranked] == ["charlie", "dave", "erin", "alice", "bob"]
    assert [s.place for s in ranked] == [1, 2, 2, 4, 5]
    # dave and erin: equal points, wins, awards, penalties and tables: a shared place
    # alice (10 in two tables, one win) is below dave (10 in one table): fewest tables played
    # bob (10, no win) is below alice (10, a win): most tables won
    assert len(points.TIE_BREAKS) == 6


def test_a_penalty_breaks_a_tie_and_removing_it_restores_the_total():
    rows = [row("alice", "t1", 10, True), row("bob", "t2", 10, True)]
    before = {s.person: (s.points, s.place) for s in standings(rows)}
    assert before == {"alice": (10, 1), "bob": (10, 1)}
    fined = {s.person: (s.points, s.place) for s in standings(rows, penalties=[Penalty("alice", 1.5, "late")])}
    assert fined == {"alice": (8.5, 2), "bob": (10, 1)}
    assert {s.person: (s.points, s.place) for s in standings(rows, penalties=[])} == before


def test_a_best_player_award_adds_its_bonus_and_undoing_it_restores_the_total():
    rows = [row("alice", "t1", 7.5, True), row("bob", "t1", 7.5, True)]
    awarded = standings(rows, [Award("bob", "t1")])
    assert [(s.person, s.points, s.place) for s in awarded] == [("bob", 9.5, 1), ("alice", 7.5, 2)]
    undone = standings(rows, [])
    assert [(s.person, s.points, s.place) for s in undone] == [("alice", 7.5, 1), ("bob", 7.5, 1)]


def test_a_tables_best_player_is_the_most_voted_or_the_organizers_pick():
    assert tally({"alice": "bob", "charlie": "bob", "bob": "alice"}) == "bob"
    assert tally({"alice": "bob", "bob": "alice"}) is None  # a tie names nobody
    assert tally({"bob": "bob"}) is None  # one's own vote does not count
    assert tally({"alice": "bob", "charlie": "bob"}, pick="charlie") == "charlie"

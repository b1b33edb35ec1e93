"""Autopilot counts only real misses: a lapse counts when the seat had a real choice, not when
its only choice was `pass` or the game marks the decision optional (Night of the Mummy's ability
windows). Each game is played by the clock with a human at seat 0 who never moves."""

from __future__ import annotations

import pytest

from games import registry
from games.base import TIMEOUT
from tables import moderator, seating
from tables.models import Match, Move, Seat, Table
from tests.platform.helpers import play_until_over

pytestmark = pytest.mark.django_db


def _absent_player_match(host, slug: str, seed: int) -> Match:
    engine = registry.get(slug)
    table = seating.create_table(host, slug, engine.min_players, Table.Visibility.PRIVATE)
    seating.fill_with_bots(table, host)
    seating.start(table, host, seed=seed)
    return Match.objects.get(table=table)


def _lapses_of_seat_0(match: Match) -> tuple[int, int]:
    """Replaying the move log: (lapses in a Mummy window or with nothing to choose, other lapses)."""
    engine = match.engine
    state = engine.setup(match.n_players, dict(match.options), match.seed)
    free, real = 0, 0
    for move in Move.objects.filter(match=match).order_by("seq"):
        if move.seat == 0 and move.source == Move.Source.CLOCK:
            legal = engine.legal_actions(state, 0)
            in_window = match.game == "mummy" and state["public"]["phase"] == "window"
            if in_window or legal == [TIMEOUT]:
                free += 1
            else:
                real += 1
        state = engine.apply(state, move.seat, move.action)
    return free, real


@pytest.mark.parametrize("slug", ["werewolf", "dracula", "insidejob", "mummy", "monster"])
def test_only_real_choices_count_as_missed_deadlines(monkeypatch, alice, slug):
    monkeypatch.setattr(moderator, "AUTOPILOT_AFTER_MISSES", 10**6)  # she stays herself all game
    match = play_until_over(_absent_player_match(alice, slug, seed=5))
    free, real = _lapses_of_seat_0(match)
    assert real > 0
    assert Seat.objects.get(table=match.table, number=0).missed_deadlines == real
    if slug == "mummy":
        assert free > 0, "the absent player was in ability windows"


def test_mummy_window_lapses_alone_never_hand_a_present_player_to_a_bot(alice):
    """The reported bug: a present player who does not press "pass" in others' windows."""
    engine = registry.get("mummy")
    match = _absent_player_match(alice, "mummy", seed=11)
    seat = Seat.objects.get(table=match.table, number=0)
    windows = 0
    for _ in range(400):
        match = Match.objects.select_related("table").get(pk=match.pk)
        if match.status != Match.Status.PLAYING:
            break
        awaited = 0 in engine.awaiting(match.state)
        if awaited and match.state["public"]["phase"] != "window":
            choice = next(a for a in engine.legal_actions(match.state, 0) if a != TIMEOUT)
            moderator.submit(match.pk, 0, choice, match.version)  # she plays her real decisions
            continue
        windows += awaited
        moderator.run_due(match.next_deadline)
    seat.refresh_from_db()
    assert windows >= 3 and seat.missed_deadlines == 0 and not seat.autopilot

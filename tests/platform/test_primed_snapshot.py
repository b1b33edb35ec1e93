"""The moderator primes the snapshot of each move it applied (tables.renderer.prime): this
process's sockets render it without reading the table again. A primed snapshot must be what a
load after the commit reads, for every game, for a player's move and for the clock's (bots and
timeouts, several in one transaction), and a finished game is never primed.

Personas: Afsaneh hosts a table of practice bots; at her werewolf table Bahram plays too.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.base import TIMEOUT
from tables import broadcast, moderator, renderer, seating
from tables.models import Match, Table
from tests.platform.helpers import BOT_GAMES, bot_table, empty_renderer_caches, play_until, seat_audiences

VERSIONS_CHECKED = 30

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fresh_renderer_caches")]


@pytest.fixture
def events(monkeypatch):
    """Every event the moderator named, in order."""
    named: list[str] = []
    draw = broadcast.new_event

    def recorded() -> str:
        named.append(draw())
        return named[-1]

    monkeypatch.setattr(broadcast, "new_event", recorded)
    return named


def _user(name: str):
    return get_user_model().objects.create_user(username=name, password="a-long-password-1", display_name=name)


def _bot_table(slug: str, players: int) -> Match:
    return bot_table(slug, players, _user("Afsaneh"), seed=5)


def _assert_primed_equals_loaded(table_id: int, event: str, audiences: list[renderer.Audience]) -> None:
    primed = renderer._snapshots.get((table_id, event))
    assert primed is not None, "a move of a game still playing is primed"
    with empty_renderer_caches():
        loaded = renderer.load(table_id)
        assert loaded is not None
        assert primed.key == loaded.key
        fresh = {audience: renderer.fragments_for(loaded, audience) for audience in audiences}
    with empty_renderer_caches():
        for audience in audiences:
            assert renderer.fragments_for(primed, audience) == fresh[audience], (event, audience)


@pytest.mark.parametrize(("slug", "players"), BOT_GAMES)
def test_a_primed_snapshot_renders_what_a_load_after_the_commit_renders(slug, players, events):
    match = _bot_table(slug, players)
    audiences = [renderer.Audience(None, True, True, "en"), *seat_audiences(players)]
    checked = 0
    for version in range(1, VERSIONS_CHECKED):
        seen = len(events)
        match = play_until(match, lambda m, v=version: m.version >= v or m.status != "playing")
        if match.status != "playing":
            break
        for event in events[seen:]:  # the clock may have applied several moves in one transaction
            _assert_primed_equals_loaded(match.table_id, event, audiences)
            checked += 1
    assert checked >= 3


def test_a_players_own_move_is_primed_with_the_seats_players(events):
    afsaneh, bahram = _user("Afsaneh"), _user("Bahram")
    table = seating.create_table(afsaneh, "werewolf", 5, Table.Visibility.PRIVATE)
    seating.sit(table, bahram)
    seating.fill_with_bots(table, afsaneh)
    seating.start(table, afsaneh, seed=3)
    match = Match.objects.get(table=table)
    humans = {0: afsaneh, 1: bahram}
    own_moves = 0
    for _ in range(60):
        match = Match.objects.get(pk=match.pk)
        if match.status != "playing":
            break
        awaited = [s for s in sorted(match.engine.awaiting(match.state)) if s in humans]
        legal = [a for s in awaited[:1] for a in match.engine.legal_actions(match.state, s) if a != TIMEOUT]
        if not legal:  # the bots' turn, or a night to close: the clock's next due moment
            play_until(match, lambda m, v=match.version: m.version > v or m.status != "playing")
            continue
        moderator.submit(match.pk, awaited[0], legal[0], match.version, user_id=humans[awaited[0]].pk)
        own_moves += 1
        primed = renderer._snapshots.get((table.pk, events[-1]))
        if Match.objects.get(pk=match.pk).status != "playing":
            assert primed is None  # the last move: loaded, as the next test says
            break
        assert primed is not None
        assert [str(s.user) if s.user else "" for s in primed.seats][:2] == ["Afsaneh", "Bahram"]
        _assert_primed_equals_loaded(table.pk, events[-1], seat_audiences(5))
    assert own_moves >= 3


@pytest.mark.parametrize(("slug", "players"), [("monster", 3)])
def test_the_move_that_ends_a_game_is_not_primed(slug, players, events):
    """A finished game's page reads its ratings, written after the commit: it is loaded."""
    match = _bot_table(slug, players)
    match = play_until(match, lambda m: m.status != "playing", limit=5000)
    assert renderer._snapshots.get((match.table_id, events[-1])) is None

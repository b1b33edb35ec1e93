"""The contract every engine keeps (ARCHITECTURE §2), proved over random games of every engine,
every player count and every option: determinism, JSON round trip, legality, and secrecy."""

from __future__ import annotations

import copy
import json
import os

import pytest

from games import registry
from games.base import IllegalAction
from tests.games.playout import canonical, dealable, option_variants, random_move, replay, scrambled_for

GAMES_PER_ENGINE = int(os.environ.get("CONTRACT_GAMES", "200"))

# Which finished games are draws, per spec: only Night of the Mummy has one (§6: the round limit,
# winners = [], draw = true); every other spec names winners (Inside Job's LARRY may win alone with
# winners = [], which is a win, not a draw).
DRAWS = {
    "dracula": lambda result: False,
    "insidejob": lambda result: False,
    "monster": lambda result: False,
    "mummy": lambda result: result.winners == [],
    "werewolf": lambda result: False,
}

JUNK_ACTIONS = [
    None,
    "vote",
    [],
    {},
    {"type": 3},
    {"type": "no-such-action"},
    {"type": "timeout", "extra": 1},
]


def _cases():
    for engine in registry.all():
        variants = option_variants(engine)
        counts = list(range(engine.min_players, engine.max_players + 1))
        # As at a real table, a combination that setup refuses is never played (see below).
        combos = [(n, v) for n in counts for v in variants if dealable(engine, n, v)]
        for i in range(max(GAMES_PER_ENGINE, len(combos))):
            n, options = combos[i % len(combos)]
            yield pytest.param(engine.slug, n, options, i, id=f"{engine.slug}-{n}p-{i}")


CASES = list(_cases())


def _check_step(engine, state, deep: bool) -> None:
    assert json.loads(json.dumps(state)) == state, "state must survive a JSON round trip unchanged"
    deep = deep and not engine.is_over(state)  # after the end, view reveals everything by design
    awaiting = engine.awaiting(state)
    for seat in range(len(state["seats"])):
        legal = engine.legal_actions(state, seat)
        if seat not in awaiting:
            assert legal == []
        else:
            assert legal and legal[-1] == {"type": "timeout"}, "timeout ends every awaited seat's actions"
            assert json.loads(json.dumps(legal)) == legal
        if deep:
            other = scrambled_for(state, seat)
            assert canonical(engine.view(other, seat)) == canonical(engine.view(state, seat)), "view leaks"
            assert engine.legal_actions(other, seat) == legal, "legal actions depend on others' secrets"
            assert engine.awaiting(other) == awaiting, "awaiting depends on secrets"
    if deep:
        spectator = scrambled_for(state, -1)
        assert canonical(engine.view(spectator, None)) == canonical(engine.view(state, None))


def _check_refusals(engine, state) -> None:
    before = canonical(state)
    awaiting = engine.awaiting(state)
    seats = range(len(state["seats"]))
    idle = next((s for s in seats if s not in awaiting), None)
    if idle is not None:
        with pytest.raises(IllegalAction):
            engine.apply(state, idle, {"type": "timeout"})
    seat = min(awaiting)
    for junk in JUNK_ACTIONS:
        with pytest.raises(IllegalAction):
            engine.apply(state, seat, junk)
    assert canonical(state) == before, "a refused action changed the state"


@pytest.mark.parametrize(("slug", "n", "options", "game"), CASES)
def test_engine_keeps_the_contract(slug, n, options, game):
    engine = registry.get(slug)
    seed = game * 7919 + n
    state = engine.setup(n, copy.deepcopy(options), seed)
    assert engine.setup(n, copy.deepcopy(options), seed) == state, "setup must be deterministic"
    deep = game % 4 == 0
    moves = []
    while engine.awaiting(state):
        assert engine.result(state) is None
        _check_step(engine, state, deep)
        if len(moves) % 7 == 0:
            _check_refusals(engine, state)
        seat, action = random_move(engine, state, f"contract:{game}")
        before = canonical(state)
        new = engine.apply(state, seat, action)
        assert canonical(state) == before, "apply must not mutate its input"
        state = new
        moves.append([seat, action])
        assert len(moves) < 20_000, "game did not end"
    _check_step(engine, state, deep)
    result = engine.result(state)
    assert result is not None and all(0 <= w < n for w in result.winners)
    assert len(result.seats) == n
    json.dumps(result.to_dict())
    assert result.to_dict()["draw"] is result.draw
    assert result.draw is DRAWS[slug](result), "a draw exactly where the game's spec has one"
    for seat in range(n):
        assert engine.legal_actions(state, seat) == []
        with pytest.raises(IllegalAction) as refused:
            engine.apply(state, seat, {"type": "timeout"})
        assert refused.value.code == "game_over"
    assert engine.view(state, 0)["over"] and "reveal" in engine.view(state, None)
    assert replay(engine, n, seed, copy.deepcopy(options), moves) == state, "setup + actions must replay exactly"


def test_registry_lists_every_engine_by_slug():
    engines = registry.all()
    assert [e.slug for e in engines] == sorted(e.slug for e in engines)
    for engine in engines:
        assert registry.get(engine.slug) is engine
        assert engine.name and 1 <= engine.min_players <= engine.max_players


@pytest.mark.parametrize("slug", [engine.slug for engine in registry.all()])
def test_the_contract_plays_every_option_combination_a_table_can_be_created_with(slug):
    """Refused combinations are left out of the contract games, and only those: they are refused
    for every seed (a table checked at creation never fails at its start), with a ``ValueError``;
    every player count keeps its defaults or some other variant to play."""
    engine = registry.get(slug)
    played = {(c.values[1], canonical(c.values[2])) for c in CASES if c.values[0] == slug}
    for n in range(engine.min_players, engine.max_players + 1):
        kept = 0
        for options in option_variants(engine):
            if dealable(engine, n, options):
                kept += 1
                assert (n, canonical(options)) in played
                for seed in (1, 2, 99):
                    engine.setup(n, copy.deepcopy(options), seed)
            else:
                assert (n, canonical(options)) not in played
                for seed in (1, 2, 99):
                    with pytest.raises(ValueError):
                        engine.setup(n, copy.deepcopy(options), seed)
        assert kept, f"{slug} at {n} players has no option variant to play"


def test_mummy_tables_of_seven_or_eight_are_played_only_with_advanced_guests():
    engine = registry.get("mummy")
    for n in (7, 8):
        assert not dealable(engine, n, {}) and not dealable(engine, n, {"advanced_guests": False})
        assert dealable(engine, n, {"advanced_guests": True})
        played = [c.values[2] for c in CASES if c.values[:2] == ("mummy", n)]
        assert played and all(options.get("advanced_guests") is True for options in played)
    assert any(c.values[:2] == ("mummy", 6) and c.values[2] == {} for c in CASES)


def test_every_game_says_whether_its_spec_has_a_draw():
    assert set(DRAWS) == {engine.slug for engine in registry.all()}

"""Helpers shared by the engine tests: random playouts, scrambling, replay."""

from __future__ import annotations

import copy
import json
from typing import Any

from games.base import Engine, State, pick, rng_for

MAX_STEPS = 20_000


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def option_variants(engine: Engine) -> list[dict[str, Any]]:
    """The defaults, then each option's every other value on its own."""
    variants: list[dict[str, Any]] = [{}]
    for option in engine.options:
        variants += [{option.key: value} for value in option.choices if value != option.default]
    return variants


def dealable(engine: Engine, n: int, options: dict[str, Any]) -> bool:
    """Whether a table of ``n`` with ``options`` can be created: the platform refuses a combination
    whose ``setup`` raises ``ValueError`` (seed 0) when the table is created, so it is never played."""
    try:
        engine.setup(n, copy.deepcopy(options), 0)
    except ValueError:
        return False
    return True


def random_move(engine: Engine, state: State, rng_seed: str, timeout_share: float = 0.05) -> tuple[int, dict]:
    """A uniformly random awaited seat and one of its legal actions (a timeout now and then)."""
    rng = rng_for(rng_seed, state["step"])
    seat = pick(rng, sorted(engine.awaiting(state)))
    legal = engine.legal_actions(state, seat)
    if rng.random() < timeout_share or len(legal) == 1:
        return seat, legal[-1]
    return seat, pick(rng, legal[:-1])


def random_game(engine: Engine, n: int, seed: int, options: dict | None = None) -> tuple[State, list]:
    """Play a whole game with random legal moves; return the final state and the moves."""
    state = engine.setup(n, options, seed)
    moves: list = []
    while engine.awaiting(state):
        if len(moves) > MAX_STEPS:
            raise AssertionError(f"{engine.slug} n={n} seed={seed} did not end in {MAX_STEPS} moves")
        seat, action = random_move(engine, state, f"play:{seed}")
        state = engine.apply(state, seat, action)
        moves.append([seat, action])
    return state, moves


def replay(engine: Engine, n: int, seed: int, options: dict | None, moves: list) -> State:
    state = engine.setup(n, options, seed)
    for seat, action in moves:
        state = engine.apply(state, seat, action)
    return state


def scrambled_for(state: State, seat: int) -> State:
    """``state`` with every other seat's slot, ``hidden`` and every log entry ``seat`` may not read
    replaced by junk: a seat's view and legal actions must not notice."""
    other = copy.deepcopy(state)
    for i in range(len(other["seats"])):
        if i != seat:
            other["seats"][i] = {"junk": i, "role": "SCRAMBLED"}
    other["hidden"] = {"junk": "SCRAMBLED"}
    other["log"] = [
        e if e.get("to") is None or seat in e["to"] else {"to": e["to"], "junk": "SCRAMBLED"} for e in other["log"]
    ]
    return other

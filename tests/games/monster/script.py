"""Drive the Monster engine with the spec's §9.0 notation: ``"0 sel 6; 1 sel 3; 2 take V01"``."""

from __future__ import annotations

from typing import Any

from games import registry
from games.base import State

ENGINE = registry.get("monster")
A, B, C, D, E = 0, 1, 2, 3, 4


def start(n: int, deal: dict[str, Any] | None = None, **flags: Any) -> State:
    options: dict[str, Any] = dict(flags)
    if deal is not None:
        options["deal"] = deal
    return ENGINE.setup(n, options, seed=0)


def _arg(token: str) -> Any:
    if token == "·":
        return None
    return token if token.startswith("V") else int(token)


def action_of(words: list[str]) -> dict[str, Any]:
    verb, args = words[0], [_arg(w) for w in words[1:]]
    if verb == "sel":
        return {"type": "select", "monster": args[0]}
    if verb in ("absorb", "discard"):
        return {"type": verb, "monster": args[0]}
    if verb == "take":
        return {"type": "take", "victim": args[0]}
    if verb == "give":
        return {"type": "give", "to": args[0]}
    if verb == "burn":
        return {"type": "burn", "from": args[0], "victim": args[1]}
    if verb == "timeout":
        return {"type": "timeout"}
    raise ValueError(f"unknown verb {verb!r}")


def play(state: State, script: str) -> State:
    """Apply each ``seat verb args`` step of ``script`` (separated by ``;``)."""
    for step in filter(None, (s.strip() for s in script.split(";"))):
        seat, *words = step.split()
        state = ENGINE.apply(state, int(seat), action_of(words))
    return state


def kinds(state: State, kind: str) -> list[dict[str, Any]]:
    return [e for e in state["log"] if e["kind"] == kind]


def last(state: State, kind: str) -> dict[str, Any]:
    return kinds(state, kind)[-1]


def night_totals(state: State, night_index: int = -1) -> list[int]:
    return [s["total"] for s in state["public"]["night_scores"][night_index]["scores"]]

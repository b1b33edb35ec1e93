"""A tiny driver for the spec's scenario notation (§14.6), through deals and action dicts only."""

from __future__ import annotations

import copy
from typing import Any

from games import registry
from games.base import State

ENGINE = registry.get("insidejob")

IJ2_HANDS = [["R8", "G3", "Y5"], ["R4", "G5", "Y7"], ["B2", "R10", "G9"], ["R12", "Y9", "G11"]]


def ij2(**changes: Any) -> dict[str, Any]:
    """The IJ2-deal of §14.6, with some keys changed."""
    deal: dict[str, Any] = {
        "dealer": 1,
        "roles": ["AGENT", "AGENT", "INSIDER", "AGENT"],
        "missions": ["A01", "P01"],
        "hands": copy.deepcopy(IJ2_HANDS),
    }
    deal.update(changes)
    return deal


def start(n: int, deal: dict[str, Any], **options: Any) -> State:
    return ENGINE.setup(n, {**options, "deal": deal}, seed=0)


def action_for(step: str) -> tuple[int | None, dict[str, Any]]:
    """``"0 R8"``, ``"2 Y5+w"``, ``"1 mission 0"``, ``"3 pick 1"``, ``"0->2"``, ``"0->."``,
    ``"1 timeout"``, ``"ready"`` (seat None: every awaited seat)."""
    if step == "ready":
        return None, {"type": "ready"}
    if "->" in step:
        voter, target = step.split("->")
        return int(voter), {"type": "vote", "target": None if target == "." else int(target)}
    seat, *rest = step.split()
    if rest[0] == "mission":
        return int(seat), {"type": "mission", "index": int(rest[1])}
    if rest[0] == "pick":
        return int(seat), {"type": "pick", "target": int(rest[1])}
    if rest[0] in ("timeout", "ready"):
        return int(seat), {"type": rest[0]}
    card = rest[0]
    return int(seat), {"type": "play", "card": card.removesuffix("+w"), "wager": card.endswith("+w")}


def run(state: State, *steps: str) -> State:
    """Apply the steps in order; a trick opens with ``L mission 0`` unless a step says otherwise."""
    for step in steps:
        seat, action = action_for(step)
        if seat is None:
            for s in sorted(ENGINE.awaiting(state)):
                state = ENGINE.apply(state, s, action)
            continue
        if state["public"]["phase"] == "mission_choice" and action["type"] == "play":
            chooser = min(ENGINE.awaiting(state))
            state = ENGINE.apply(state, chooser, {"type": "mission", "index": 0})
        state = ENGINE.apply(state, seat, action)
    return state


def plays(state: State, seat: int) -> list[str]:
    """The legal plays of ``seat`` in the notation (``"R4"``, ``"R4+w"``)."""
    return [a["card"] + ("+w" if a["wager"] else "") for a in ENGINE.legal_actions(state, seat) if a["type"] == "play"]


def winners(state: State) -> set[int]:
    result = ENGINE.result(state)
    assert result is not None
    return set(result.winners)

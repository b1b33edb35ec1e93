"""Drive a werewolf game in the spec's §10.0 notation."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.base import State
from games.werewolf.engine import ENGINE

W5 = ["SEER", "VILLAGER", "WOLF", "DOCTOR", "VILLAGER"]
W7 = ["VILLAGER", "WOLF", "SEER", "VILLAGER", "WOLF", "DOCTOR", "VILLAGER"]
W7_REVERSED = ["VILLAGER", "DOCTOR", "WOLF", "VILLAGER", "SEER", "WOLF", "VILLAGER"]

TIMEOUT = {"type": "timeout"}
NOBODY = "·"


def deal(roles: list[str]) -> State:
    return ENGINE.setup(len(roles), {"deal": {"roles": list(roles)}}, seed=0)


def _items(spec: str, sep: str) -> list[tuple[int, int | None]]:
    out: list[tuple[int, int | None]] = []
    for item in spec.split(","):
        seat, target = item.strip().split(sep)
        out.append((int(seat), None if target == NOBODY else int(target)))
    return out


def night_turn(state: State, seat: int, target: int | None) -> State:
    """One §3.1 turn: the pick (or a timeout = no pick), then the close."""
    assert ENGINE.awaiting(state) == {seat}, f"seat {seat} should be on turn, not {ENGINE.awaiting(state)}"
    first = TIMEOUT if target is None else {"type": "pick", "target": target}
    state = ENGINE.apply(state, seat, first)
    assert ENGINE.legal_actions(state, seat) == [TIMEOUT], "after the pick only the close remains"
    return ENGINE.apply(state, seat, TIMEOUT)


def night(state: State, spec: str) -> State:
    """``"0>2, 1>0, 2>·"``: each seat's turn in the §3 order."""
    for seat, target in _items(spec, ">"):
        state = night_turn(state, seat, target)
    return state


def ready(state: State) -> State:
    """Every living seat applies ready, in ascending seat order."""
    for seat in sorted(ENGINE.awaiting(state)):
        state = ENGINE.apply(state, seat, {"type": "ready"})
    return state


def votes(state: State, spec: str) -> State:
    """``"0:1, 1:·"``: each voter in the §3 order."""
    for seat, target in _items(spec, ":"):
        assert ENGINE.awaiting(state) == {seat}, f"seat {seat} should be voting, not {ENGINE.awaiting(state)}"
        state = ENGINE.apply(state, seat, {"type": "vote", "target": target})
    return state


def views(state: State) -> dict[int | None, dict[str, Any]]:
    """Every seat's view and the spectator's (key ``None``)."""
    out: dict[int | None, dict[str, Any]] = {s: ENGINE.view(state, s) for s in range(len(state["seats"]))}
    out[None] = ENGINE.view(state, None)
    return out


def walk(value: Any) -> Iterator[dict[str, Any]]:
    """Every dict nested anywhere in ``value``."""
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v)


def knows_inquiry(view: dict[str, Any], target: int, result: str) -> bool:
    return any(d.get("target") == target and d.get("result") == result for d in walk(view))


def knows_wolf_pick(view: dict[str, Any], wolf: int, target: int) -> bool:
    return (
        any(d.get("kind") == "wolf_pick" and d.get("seat") == wolf and d.get("target") == target for d in walk(view))
        or {"seat": wolf, "target": target} in view["wolf_picks"]
    )


def targets(state: State, seat: int, kind: str) -> set[int | None]:
    return {a["target"] for a in ENGINE.legal_actions(state, seat) if a["type"] == kind}


def last_news(state: State) -> dict[str, Any]:
    """The latest morning announcement, as every view shows it."""
    news: dict[str, Any] = ENGINE.view(state, None)["announcements"][-1]
    return news


def last_vote(state: State) -> dict[str, Any]:
    """The latest revealed vote, as every view shows it."""
    vote: dict[str, Any] = ENGINE.view(state, None)["votes"][-1]
    return vote

"""A small driver for Night of the Mummy scenarios, written in the spec's §11.0 notation."""

from __future__ import annotations

import copy
from typing import Any

from games import registry
from games.base import State

ENGINE = registry.get("mummy")

FIXTURES: dict[str, dict[str, list[str]]] = {
    "M4": {
        "guests": ["ARCHEOLOGIST", "MUMMY", "SASQUATCH", "ANUBIS"],
        "mystery": ["GARGOYLE", "SARCOPHAGUS"],
    },
    "M5": {
        "guests": ["ARCHEOLOGIST", "MUMMY", "CAT_BURGLAR", "SASQUATCH", "ANUBIS"],
        "mystery": ["GARGOYLE", "SARCOPHAGUS"],
    },
    "M6": {
        "guests": ["ARCHEOLOGIST", "GARGOYLE", "SASQUATCH", "SARCOPHAGUS", "MUMMY", "ANUBIS"],
        "mystery": ["CAT_BURGLAR"],
    },
    "M8": {
        "guests": ["GARGOYLE", "SARCOPHAGUS", "MAGIC_MIRROR", "PHANTOM", "DORIAN", "SASQUATCH", "MUMMY", "CAT_BURGLAR"],
        "mystery": ["ANUBIS"],
    },
}

PASS_ONLY = [{"type": "pass"}, {"type": "timeout"}]


def deal(fixture: str, first: int, **swap: Any) -> dict[str, Any]:
    out = copy.deepcopy(FIXTURES[fixture])
    return {"guests": out["guests"], "mystery": out["mystery"], "first": first}


class Table:
    """One game driven only through the spec's deal format and action dicts."""

    def __init__(self, fixture: str | dict[str, Any], first: int = 0, **options: Any) -> None:
        d = deal(fixture, first) if isinstance(fixture, str) else fixture
        self.state: State = ENGINE.setup(len(d["guests"]), {"deal": d, **options}, 0)

    # -- reading --
    @property
    def public(self) -> dict[str, Any]:
        return self.state["public"]

    @property
    def awaiting(self) -> set[int]:
        return ENGINE.awaiting(self.state)

    def legal(self, seat: int) -> list[dict[str, Any]]:
        return ENGINE.legal_actions(self.state, seat)

    def view(self, seat: int | None) -> dict[str, Any]:
        return ENGINE.view(self.state, seat)

    def kinds(self, seat: int) -> list[str]:
        return [a["kind"] for a in self.legal(seat) if a["type"] == "act"]

    def last(self, kind: str) -> dict[str, Any]:
        return next(e for e in reversed(self.state["log"]) if e["kind"] == kind)

    # -- moves --
    def do(self, seat: int, action: dict[str, Any]) -> Table:
        self.state = ENGINE.apply(self.state, seat, action)
        return self

    def timeout(self, seat: int) -> Table:
        return self.do(seat, {"type": "timeout"})

    skip = timeout

    def act(self, seat: int, kind: str) -> Table:
        return self.do(seat, {"type": "act", "kind": kind})

    def ask(self, seat: int, target: int, guest: str) -> Table:
        return self.do(seat, {"type": "ask", "target": target, "guest": guest})

    def inquire(self, seat: int, target: int, guest: str) -> Table:
        return self.act(seat, "inquire").ask(seat, target, guest)

    def invite(self, seat: int, target: int) -> Table:
        return self.act(seat, "dance").do(seat, {"type": "invite", "target": target})

    def accept(self, seat: int) -> Table:
        return self.do(seat, {"type": "accept"})

    def decline(self, seat: int) -> Table:
        return self.do(seat, {"type": "decline"})

    def accuse(self, seat: int) -> Table:
        return self.act(seat, "accuse")

    def names(self, seat: int, *placed: tuple[int, str]) -> Table:
        for target, guest in placed:
            acc = self.public["accusation"]
            assert acc["targets"][len(acc["names"])] == target, (acc, target)
            self.do(seat, {"type": "name", "guest": guest})
        return self

    def name(self, seat: int, guest: str) -> Table:
        return self.do(seat, {"type": "name", "guest": guest})

    def target(self, seat: int, target: int) -> Table:
        return self.do(seat, {"type": "target", "target": target})

    def flip(self, seat: int, slot: int) -> Table:
        return self.do(seat, {"type": "flip", "slot": slot})

    def join(self, seat: int) -> Table:
        return self.do(seat, {"type": "join"})

    def peek(self, seat: int, slot: int) -> Table:
        return self.do(seat, {"type": "peek", "slot": slot})

    def swap(self, seat: int, slot: int) -> Table:
        return self.do(seat, {"type": "swap", "slot": slot})

    def burgle(self, seat: int, target: int) -> Table:
        return self.do(seat, {"type": "burgle", "target": target})

    def anubis(self, seat: int) -> Table:
        return self.do(seat, {"type": "anubis"})

    def phantom(self, seat: int) -> Table:
        return self.do(seat, {"type": "phantom"})

    def window(self) -> str | None:
        w = self.public["window"]
        return None if w is None else str(w["kind"])

    def close(self) -> Table:
        """Every awaited seat times out, in ascending seat order, until the window resolves."""
        assert self.public["phase"] == "window", self.public["phase"]
        decision = self.public["decision"]
        while self.public["phase"] == "window" and self.public["decision"] == decision:
            self.timeout(min(self.awaiting))
        return self

    # -- what a seat learnt --
    def answers(self, seat: int) -> list[str]:
        return [a["answer"] for a in self.view(seat)["answers_received"]]

    def saw(self, seat: int) -> dict[int, str | None]:
        dance = self.view(seat)["dances"][-1]
        return {s["seat"]: s["guest"] for s in dance["saw"]}

    def result_counts(self) -> tuple[int, int]:
        e = self.last("accusation")
        return e["yes"], e["no"]

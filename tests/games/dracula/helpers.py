"""Shared helpers for the Dracula scenario tests: the spec's deal format and action shorthand."""

from __future__ import annotations

from typing import Any

from games import registry
from games.base import State

ENGINE = registry.get("dracula")
D, V = 0, 1  # §10.0: dracula_seat = 0


def deal_state(
    dracula: list[str],
    van_helsing: list[str],
    deck: list[str] | None = None,
    discard: list[str] | None = None,
    *,
    revealed: dict[str, list[int]] | None = None,
    rest: str = "deck",
    ranking: list[str] | None = None,
    more_rounds: list[dict[str, Any]] | None = None,
    starting_lives: int = 12,
    **puzzle: Any,
) -> State:
    entry: dict[str, Any] = {"dracula": dracula, "van_helsing": van_helsing, "rest": rest}
    if deck is not None:
        entry["deck"] = deck
    if discard is not None:
        entry["discard"] = discard
    if revealed is not None:
        entry["revealed"] = revealed
    deal = {"ranking": ranking or ["Y", "R", "P", "G"], "rounds": [entry, *(more_rounds or [])], **puzzle}
    return ENGINE.setup(2, {"dracula_seat": 0, "starting_lives": starting_lives, "deal": deal}, seed=0)


def act(state: State, seat: int, kind: str, *args: Any) -> State:
    """``act(s, D, "replace", 2)``, ``act(s, D, "swap_own", 1, 4)``: the spec's shorthand."""
    action: dict[str, Any] = {"type": kind}
    if kind in ("replace", "reveal_own", "reveal_opponent"):
        action["slot"] = args[0]
    elif kind == "swap_own":
        action["slots"] = [args[0], args[1]]
    elif kind == "swap_district":
        action["district"] = args[0]
    elif kind == "trump":
        action["colour"] = args[0]
    return ENGINE.apply(state, seat, action)


def play(state: State, *moves: tuple[Any, ...]) -> State:
    for seat, kind, *args in moves:
        state = act(state, seat, kind, *args)
    return state


def types(state: State, seat: int) -> list[str]:
    return [a["type"] for a in ENGINE.legal_actions(state, seat)]


def quick_round(state: State) -> State:
    """§10.0: ``D call; V draw; V discard``."""
    return play(state, (D, "call_end"), (V, "draw"), (V, "discard"))


def rack_cards(view: dict[str, Any], side: str) -> list[str | None]:
    return [entry["card"] for entry in view["racks"][side]]

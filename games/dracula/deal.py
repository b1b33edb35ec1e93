"""Validation of the explicit deal ``options["deal"]`` (spec §10.0).

A deal fixes chance for tests and puzzles: the colour ranking, a puzzle start (lives, vampires,
round) and the holders, deck and discard pile of the first rounds played. Anything malformed
raises ``ValueError``.
"""

from __future__ import annotations

from typing import Any

from games.dracula.cards import ALL_CARDS, COLOURS, is_card
from games.dracula.model import DISTRICTS, MAX_LIVES, ROUNDS, SIDES

DEAL_KEYS = frozenset({"ranking", "lives", "vampires", "round", "rounds"})
ROUND_KEYS = frozenset({"dracula", "van_helsing", "deck", "discard", "revealed", "rest"})


def _int(value: Any, low: int, high: int, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"deal: {what} must be an integer {low}..{high}, not {value!r}")
    return value


def _cards(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(is_card(c) for c in value):
        raise ValueError(f"deal: {what} must be a list of cards such as 'R5', not {value!r}")
    return list(value)


def check_ranking(value: Any) -> list[str]:
    if not isinstance(value, list) or sorted(value) != sorted(COLOURS):
        raise ValueError(f"deal: ranking must list the four colours R, G, Y, P once each, not {value!r}")
    return list(value)


def check_round(entry: Any) -> dict[str, Any]:
    """One entry of ``deal.rounds``, completed: returns holders, deck, discard and revealed slots."""
    if not isinstance(entry, dict) or not set(entry) <= ROUND_KEYS:
        raise ValueError(f"deal: a round entry takes the keys {sorted(ROUND_KEYS)}")
    holders = {}
    for side in SIDES:
        if side not in entry:
            raise ValueError(f"deal: a round entry needs {side!r}")
        holders[side] = _cards(entry[side], side)
        if len(holders[side]) != DISTRICTS:
            raise ValueError(f"deal: {side} needs exactly 5 cards")
    deck = _cards(entry.get("deck", []), "deck")
    discard = _cards(entry.get("discard", []), "discard")
    used = holders["dracula"] + holders["van_helsing"] + deck + discard
    if len(set(used)) != len(used):
        raise ValueError("deal: a round entry uses a card more than once")
    rest = entry.get("rest", "deck")
    if rest not in ("deck", "discard"):
        raise ValueError("deal: rest must be 'deck' or 'discard'")
    unlisted = [c for c in ALL_CARDS if c not in set(used)]
    if rest == "deck":
        deck += unlisted
    else:
        discard += unlisted
    revealed_in = entry.get("revealed", {})
    if not isinstance(revealed_in, dict) or not set(revealed_in) <= set(SIDES):
        raise ValueError("deal: revealed maps 'dracula'/'van_helsing' to lists of slots")
    revealed = {}
    for side in SIDES:
        slots = revealed_in.get(side, [])
        if not isinstance(slots, list):
            raise ValueError("deal: revealed slots must be a list")
        revealed[side] = sorted({_int(k, 1, DISTRICTS, "a revealed slot") for k in slots})
    return {"holders": holders, "deck": deck, "discard": discard, "revealed": revealed}


def check_deal(deal: Any) -> dict[str, Any]:
    """The deal, checked and completed; keys absent from the deal are absent from the result."""
    if not isinstance(deal, dict) or not set(deal) <= DEAL_KEYS:
        raise ValueError(f"deal must be an object with keys among {sorted(DEAL_KEYS)}")
    out: dict[str, Any] = {}
    if "ranking" in deal:
        out["ranking"] = check_ranking(deal["ranking"])
    if "lives" in deal:
        out["lives"] = _int(deal["lives"], 1, MAX_LIVES, "lives")
    if "vampires" in deal:
        vampires = deal["vampires"]
        if not isinstance(vampires, list) or len(vampires) != DISTRICTS:
            raise ValueError("deal: vampires must list 5 districts")
        # A district with 4 vampires would be a finished game.
        out["vampires"] = [_int(v, 0, 3, "a district's vampires") for v in vampires]
    if "round" in deal:
        out["round"] = _int(deal["round"], 1, ROUNDS, "round")
    rounds = deal.get("rounds", [])
    if not isinstance(rounds, list) or len(rounds) > ROUNDS:
        raise ValueError("deal: rounds must be a list of at most 5 round entries")
    out["rounds"] = [check_round(entry) for entry in rounds]
    return out

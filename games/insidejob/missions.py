"""The mission cards as data (§7): one table of conditions, judged by a small predicate vocabulary.

Each entry: ``id``, ``kind`` (normal | risky), ``trump``, ``test`` (a predicate name and its
parameters), ``needs_wagers``, ``confirmed`` (False for our placeholder P/R cards, §7.3, §7.4) and
an English ``label`` marked for translation. When a printed card's text is found, replace its entry
here; the trick logic never names a mission.

A predicate reads the finished trick: the ordered plays ``p1..pn`` (printed suit, value, wager,
effective suit), the trump suit and the winning place ``w`` (0-based here, ``w == 0`` is the lead).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.base import gettext_noop
from games.insidejob.cards import value_of
from games.insidejob.tricks import Play, effective_suit

Test = tuple[str, dict[str, Any]]


@dataclass(frozen=True)
class Mission:
    id: str
    kind: str  # "normal" | "risky"
    trump: str
    label: str
    test: Test
    needs_wagers: bool = False
    confirmed: bool = False
    note: str = field(default="", compare=False)


def _m(mid: str, trump: str, label: str, name: str, confirmed: bool, **params: Any) -> Mission:
    kind = "risky" if mid.startswith("R") else "normal"
    return Mission(mid, kind, trump, label, (name, params), needs_wagers=(name == "wager_at"), confirmed=confirmed)


# §7.2 attested (A), §7.3 placeholders (P), §7.4 risky placeholders (R). Trumps per §7.1 [O].
MISSIONS: tuple[Mission, ...] = (
    _m("A01", "B", gettext_noop("Only even cards"), "all_values_parity", True, parity=0),
    _m("A02", "G", gettext_noop("Only odd cards"), "all_values_parity", True, parity=1),
    _m("A03", "Y", gettext_noop("The last card wins"), "winner_place", True, place=-1),
    _m("A04", "R", gettext_noop("The first card wins"), "winner_place", True, place=0),
    _m("A05", "B", gettext_noop("The second card wins"), "winner_place", True, place=1),
    _m("A06", "G", gettext_noop("The middle card is odd"), "middle_odd", True),
    _m("A07", "Y", gettext_noop("Cards go strictly down"), "strict_order", True, direction=-1),
    _m("A08", "R", gettext_noop("Cards go strictly up"), "strict_order", True, direction=1),
    _m("A09", "B", gettext_noop("All cards one suit"), "one_suit", True),
    _m("A10", "G", gettext_noop("All cards below 7"), "all_values_between", True, low=1, high=6),
    _m("A11", "Y", gettext_noop("The third card carries a wager"), "wager_at", True, place=2),
    _m("A12", "R", gettext_noop("The last card is the lowest"), "last_is_lowest", True),
    _m("A13", "B", gettext_noop("Leader and last player play the same suit"), "first_last_same_suit", True),
    _m("P01", "G", gettext_noop("No trump is played"), "trump_count", False, count=0),
    _m("P02", "Y", gettext_noop("Exactly one trump is played"), "trump_count", False, count=1),
    _m("P03", "R", gettext_noop("The winning card is odd"), "winner_parity", False, parity=1),
    _m("P04", "B", gettext_noop("The winning card is even"), "winner_parity", False, parity=0),
    _m("P05", "G", gettext_noop("All cards above 7"), "all_values_between", False, low=8, high=13),
    _m("P06", "Y", gettext_noop("The leader does not win"), "winner_not_place", False, place=0),
    _m("P07", "R", gettext_noop("The lowest card wins"), "lowest_wins", False),
    _m("P08", "B", gettext_noop("The winning card is 9 or less"), "winner_at_most", False, high=9),
    _m("P09", "G", gettext_noop("No two cards share a value"), "distinct_values", False),
    _m("P10", "Y", gettext_noop("The last card does not win"), "winner_not_place", False, place=-1),
    _m("P11", "R", gettext_noop("No 1 and no 13 is played"), "no_values", False, values=[1, 13]),
    _m(
        "R01",
        "B",
        gettext_noop("Only even cards and the first card wins"),
        "all_of",
        False,
        tests=[("all_values_parity", {"parity": 0}), ("winner_place", {"place": 0})],
    ),
    _m(
        "R02",
        "G",
        gettext_noop("Only odd cards and the last card wins"),
        "all_of",
        False,
        tests=[("all_values_parity", {"parity": 1}), ("winner_place", {"place": -1})],
    ),
    _m(
        "R03",
        "Y",
        gettext_noop("No trump and all cards below 7"),
        "all_of",
        False,
        tests=[("trump_count", {"count": 0}), ("all_values_between", {"low": 1, "high": 6})],
    ),
    _m("R04", "R", gettext_noop("The winning card is 3 or less"), "winner_at_most", False, high=3),
)
BY_ID: dict[str, Mission] = {m.id: m for m in MISSIONS}


def in_play(wagers: bool, risky: bool) -> list[str]:
    """Mission ids of the deck for these modules, in id order (§3.5, §7.4, ruling 16)."""
    return [m.id for m in MISSIONS if (m.kind == "normal" or risky) and (wagers or not m.needs_wagers)]


def public_info(mission_id: str) -> dict[str, Any]:
    """What a player sees on a face-up mission card."""
    m = BY_ID[mission_id]
    return {"id": m.id, "kind": m.kind, "trump": m.trump, "label": m.label, "confirmed": m.confirmed}


# --- the predicate vocabulary --------------------------------------------------------------------

Predicate = Callable[[Sequence[Play], str, int, dict[str, Any]], bool]


def _values(plays: Sequence[Play]) -> list[int]:
    return [value_of(p["card"]) for p in plays]


def _place(place: int, n: int) -> int:
    return place % n


def _middle_odd(plays: Sequence[Play], trump: str, w: int, prm: dict[str, Any]) -> bool:
    v = _values(plays)
    n = len(v)
    middle = [v[n // 2]] if n % 2 else [v[n // 2 - 1], v[n // 2]]  # ruling 13: n = 4 → 2nd and 3rd
    return all(x % 2 == 1 for x in middle)


def _strict_order(plays: Sequence[Play], trump: str, w: int, prm: dict[str, Any]) -> bool:
    v = _values(plays)
    d = prm["direction"]
    return all((b - a) * d > 0 for a, b in zip(v, v[1:], strict=False))


def _all_of(plays: Sequence[Play], trump: str, w: int, prm: dict[str, Any]) -> bool:
    return all(PREDICATES[name](plays, trump, w, sub) for name, sub in prm["tests"])


PREDICATES: dict[str, Predicate] = {
    "all_values_parity": lambda p, t, w, prm: all(x % 2 == prm["parity"] for x in _values(p)),
    "all_values_between": lambda p, t, w, prm: all(prm["low"] <= x <= prm["high"] for x in _values(p)),
    "winner_place": lambda p, t, w, prm: w == _place(prm["place"], len(p)),
    "winner_not_place": lambda p, t, w, prm: w != _place(prm["place"], len(p)),
    "middle_odd": _middle_odd,
    "strict_order": _strict_order,
    "one_suit": lambda p, t, w, prm: len({effective_suit(x, t) for x in p}) == 1,
    "wager_at": lambda p, t, w, prm: bool(p[prm["place"]]["wager"]),
    "last_is_lowest": lambda p, t, w, prm: all(x > _values(p)[-1] for x in _values(p)[:-1]),
    "first_last_same_suit": lambda p, t, w, prm: effective_suit(p[0], t) == effective_suit(p[-1], t),
    "trump_count": lambda p, t, w, prm: sum(effective_suit(x, t) == t for x in p) == prm["count"],
    "winner_parity": lambda p, t, w, prm: value_of(p[w]["card"]) % 2 == prm["parity"],
    "winner_at_most": lambda p, t, w, prm: value_of(p[w]["card"]) <= prm["high"],
    "lowest_wins": lambda p, t, w, prm: all(
        value_of(p[w]["card"]) < value_of(x["card"]) for i, x in enumerate(p) if i != w
    ),
    "distinct_values": lambda p, t, w, prm: len(set(_values(p))) == len(p),
    "no_values": lambda p, t, w, prm: not set(_values(p)) & set(prm["values"]),
    "all_of": _all_of,
}


def succeeds(mission_id: str, plays: Sequence[Play], trump: str, winner_place: int) -> bool:
    """§7.1: judge a finished trick against a mission card."""
    name, params = BY_ID[mission_id].test
    return PREDICATES[name](plays, trump, winner_place, params)

"""A practice bot for Monster (spec §13.4), deciding from its own seat's view alone.

Greedy with a little foresight: a victim is worth its marginal night points to whoever gets it
(Engineer pairs and Teenager icons estimated); a pick weighs the victim it can expect against the
opponents' known remaining hands, minus a spending cost that grows with strength and with the
hands still to come, and minus the Beast's +3 when keeping it is still possible. Gifts and burns
go against the leader.
"""

from __future__ import annotations

import random
from typing import Any

from games.base import Action, View
from games.monster.cards import VICTIMS, Kind, Monster

SPEND = 0.35  # points a strength step is worth in a later hand
TEEN_ICON = 2.5  # rough worth of one Teenager icon in the majority race


def victim_value(victim: str, pile: list[str]) -> float:
    """The rough marginal worth of ``victim`` added to ``pile`` at the end of the night."""
    card = VICTIMS[victim]
    if card["kind"] == Kind.PLAIN:
        return float(card["points"])
    if card["kind"] == Kind.TEEN:
        return TEEN_ICON * card["teens"]
    engineers = sum(1 for v in pile if VICTIMS[v]["kind"] == Kind.ENGINEER)
    return 8.0 if engineers % 2 else -0.5  # completes a pair (-2 -> +6), or opens one


def _standing(player: dict[str, Any]) -> float:
    return float((player["total"] or 0) + (player["tokens"] or 0) * 20 + player["night_so_far"])


def _hands_left(view: View) -> int:
    n = len(view["players"])
    return int(view["deck_size"]) // n + 1


def _spend_cost(view: View, hand: list[int], k: int) -> float:
    """What playing (or discarding) ``k`` now costs the rest of the night."""
    later = _hands_left(view) - 1
    cost = SPEND * k * later / 5
    if k == Monster.BEAST and len(hand) - 1 >= later + 1:
        cost += 3.0  # the Beast could have stayed in hand for +3
    return cost


def _expected_at(values: list[float], ahead: float) -> float:
    """The value of the victim left for someone with ``ahead`` hunters before them."""
    if not values:
        return 0.0
    lo = min(int(ahead), len(values) - 1)
    hi = min(lo + 1, len(values) - 1)
    frac = ahead - int(ahead)
    return values[lo] * (1 - frac) + values[hi] * frac if ahead < len(values) else min(values[-1], 0.0)


def _pick_value(view: View, me: int, k: int) -> float:
    players = view["players"]
    my_pile = players[me]["captured"]
    values = sorted((victim_value(v, my_pile) for v in view["table"]), reverse=True)
    my_tile = players[me]["tile"]
    ahead = 0.0
    kaiju_chance = 1.0
    for p in players:
        if p["seat"] == me or not p["hand"]:
            continue
        hand = p["hand"]
        above = sum(1 for c in hand if c > k) + sum(0.5 if p["tile"] < my_tile else 0 for c in hand if c == k)
        ahead += above / len(hand)
        if Monster.KAIJU in hand:
            kaiju_chance *= 1 - 1 / len(hand)
    kaiju_chance = 1 - kaiju_chance
    gain = _expected_at(values, ahead)
    if k == Monster.MUMMY:
        gain = kaiju_chance * (values[0] if values else 0.0) + (1 - kaiju_chance) * gain
    elif k == Monster.INVADER and len(values) > 1:
        gain += _expected_at(values, ahead + 1)
    elif k == Monster.SWAMP_CREATURE:
        gain = -0.5 * min(values, default=0.0)
    elif k == Monster.INVISIBLE_MAN:
        gain = max(gain, 1.0)
    elif k == Monster.BLOB:
        gain += 0.5
    elif k in (Monster.WEREWOLF, Monster.VAMPIRE):
        gain += 0.5
    return gain


def _leader(view: View, me: int) -> int:
    others = [p for p in view["players"] if p["seat"] != me]
    return int(max(others, key=_standing)["seat"])


def _choose_select(view: View, legal: list[Action], me: int) -> Action:
    hand = view["me"]["hand"]

    def score(a: Action) -> float:
        k = a["monster"]
        return _pick_value(view, me, k) - _spend_cost(view, hand, k)

    return max(legal, key=score)


def _choose_absorb(view: View, legal: list[Action], me: int) -> Action:
    players = view["players"]
    hand = view["me"]["hand"]
    values = sorted((victim_value(v, players[me]["captured"]) for v in view["table"]), reverse=True)
    my_tile = players[me]["tile"]

    def score(a: Action) -> float:
        k = a["monster"] or 0
        ahead = len([s for s in view["front"] if s != me])
        for p in players:
            s, st = p["seat"], p["strength"]
            if s == me or st is None or s in view["front"]:
                continue
            if st > k or (st == k and p["tile"] < my_tile):
                ahead += 1
        gain = _expected_at(values, ahead)
        return gain - (_spend_cost(view, hand, k) if a["monster"] is not None else 0.0)

    return max(legal, key=score)


def _choose_discard(view: View, legal: list[Action], me: int) -> Action:
    hand = view["me"]["hand"]
    return min(legal, key=lambda a: _spend_cost(view, hand, a["monster"]) + 0.1 * a["monster"])


def _choose_take(view: View, legal: list[Action], me: int) -> Action:
    players = view["players"]
    mine = players[me]
    swamp = mine["revealed"] == Monster.SWAMP_CREATURE and not mine["cancelled"]
    pile = players[_leader(view, me)]["captured"] if swamp else mine["captured"]

    def score(a: Action) -> float:
        if a.get("type") == "burn":
            return _burn_value(view, me, a)
        if a["victim"] is None:
            return 0.0
        value = victim_value(a["victim"], pile)
        return -value if swamp else value

    return max(legal, key=score)


def _burn_value(view: View, me: int, a: Action) -> float:
    victim, owner = a["victim"], a["from"]
    pile = [v for v in view["players"][owner]["captured"] if v != victim]
    worth = victim_value(victim, pile)
    if owner == me:
        return -worth
    return worth * (1.0 if owner == _leader(view, me) else 0.6)


def _choose_give(view: View, legal: list[Action], me: int) -> Action:
    victim = view["pending"]["victim"]
    players = view["players"]

    def score(a: Action) -> float:
        to = a["to"]
        worth = victim_value(victim, players[to]["captured"])
        return -worth * (_standing(players[to]) + 100)

    return max(legal, key=score)


def choose(view: View, legal_actions: list[Action], rng: random.Random) -> Action:
    """The bot's action: one of ``legal_actions`` (never the timeout)."""
    legal = [a for a in legal_actions if a["type"] != "timeout"]
    if not legal:
        return legal_actions[-1]
    if len(legal) == 1:
        return legal[0]
    me = int(view["seat"])
    phase = view["phase"]
    if phase == "select":
        return _choose_select(view, legal, me)
    if phase == "absorb":
        return _choose_absorb(view, legal, me)
    if phase == "discard":
        return _choose_discard(view, legal, me)
    if phase == "give":
        return _choose_give(view, legal, me)
    if phase in ("take", "invisible"):
        return _choose_take(view, legal, me)
    return legal[int(rng.random() * len(legal)) % len(legal)]

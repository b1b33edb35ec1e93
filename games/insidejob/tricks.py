"""Who wins a trick (§5.3, §6.2–6.3), shared by the engine, the mission judge and the bot.

A play is ``{"pos": position, "card": "R8", "wager": bool}``; plays are listed in play order, the
lead first. A wagered card's *effective suit* is the trump suit; it keeps its printed value.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.insidejob.cards import suit_of, value_of

Play = dict[str, Any]


def effective_suit(play: Play, trump: str) -> str:
    return trump if play["wager"] else suit_of(play["card"])


def winning_place(plays: Sequence[Play], trump: str) -> int:
    """Index (in play order) of the card that wins ``plays`` so far.

    §5.3.1 highest effective trump; §6.3 equal values among trumps go to a wagered card over a
    natural one and, among wagered cards, to the later one. §5.3.2 otherwise the highest card of
    the led suit (the lead card's printed suit; no wager can exist then).
    """
    best: int | None = None
    best_key: tuple[int, int, int] = (-1, -1, -1)
    for i, play in enumerate(plays):
        if effective_suit(play, trump) != trump:
            continue
        key = (value_of(play["card"]), 1 if play["wager"] else 0, i if play["wager"] else -1)
        if key > best_key:
            best, best_key = i, key
    if best is not None:
        return best
    led = suit_of(plays[0]["card"])
    return max(
        (i for i, p in enumerate(plays) if suit_of(p["card"]) == led),
        key=lambda i: value_of(plays[i]["card"]),
    )

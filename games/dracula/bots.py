"""Practice bot for Dracula vs Van Helsing: decides from its own seat's view only.

It values a line-up of holder cards as the weighted chance of winning each district, where the
opponent's hidden card is any card the bot has not seen yet (not in its holder, not on the discard
pile, not revealed, not its drawn card). Districts near four vampires weigh more for both sides:
Dracula wants to finish one, Van Helsing to hold it. Every decision picks the action whose
resulting line-up (plus a rough value for the discarded card's effect) is best.
"""

from __future__ import annotations

import random
from typing import Any

from games.base import Action
from games.dracula.cards import ALL_CARDS, beats, value, with_trump
from games.dracula.model import DRACULA, VAN_HELSING, Phase

# Weight of a district by its vampires: a fourth vampire ends the game.
WEIGHTS = (1.0, 1.3, 2.0, 6.0)
CALL_WHEN = 0.62  # call the end when the expected share of the weighted districts reaches this
EFFECT_BONUS = {1: -0.05, 2: 0.02, 3: 0.1, 5: 0.35}


class _Table:
    """The bot's reading of its view."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.side: str = view["role"]
        other = VAN_HELSING if self.side == DRACULA else DRACULA
        self.mine: list[str] = [e["card"] for e in view["racks"][self.side]]
        self.theirs: list[str | None] = [e["card"] for e in view["racks"][other]]
        self.ranking: list[str] = list(view["ranking"])
        self.weights: list[float] = [WEIGHTS[min(d["vampires"], 3)] for d in view["districts"]]
        drawn = view["drawn"]["card"] if view["drawn"] else None
        self.drawn: str | None = drawn
        seen = set(self.mine) | {c for c in self.theirs if c} | set(view["discard"])
        seen |= {c for c in (view["deck_top"], drawn) if c}
        self.pool = [c for c in ALL_CARDS if c not in seen]

    def chance(self, card: str, opposite: str | None, ranking: list[str]) -> float:
        """Chance that ``card`` wins its district against ``opposite`` (``None``: unknown)."""
        if opposite is not None:
            return 1.0 if beats(card, opposite, ranking) else 0.0
        if not self.pool:
            return 0.5
        return sum(beats(card, c, ranking) for c in self.pool) / len(self.pool)

    def worth(self, hand: list[str], ranking: list[str] | None = None, theirs: list[str | None] | None = None) -> float:
        ranking = ranking or self.ranking
        theirs = theirs or self.theirs
        return sum(w * self.chance(c, t, ranking) for w, c, t in zip(self.weights, hand, theirs, strict=True))

    def share(self) -> float:
        return self.worth(self.mine) / sum(self.weights)

    # -- the best choice of each effect, as (gain, action)

    def best_swap_own(self, hand: list[str]) -> tuple[float, Action]:
        base = self.worth(hand)
        best: tuple[float, Action] = (-1e9, {"type": "swap_own", "slots": [1, 2]})
        for a in range(1, 6):
            for b in range(a + 1, 6):
                swapped = list(hand)
                swapped[a - 1], swapped[b - 1] = swapped[b - 1], swapped[a - 1]
                gain = self.worth(swapped) - base
                if gain > best[0]:
                    best = (gain, {"type": "swap_own", "slots": [a, b]})
        return best

    def best_swap_district(self, hand: list[str]) -> tuple[float, Action]:
        best: tuple[float, Action] = (-1e9, {"type": "swap_district", "district": 1})
        for d in range(1, 6):
            now = self.chance(hand[d - 1], self.theirs[d - 1], self.ranking)
            opposite = self.theirs[d - 1]
            # After the trade I hold their card against mine: the complement of today's chance.
            after = 1.0 - now if opposite is None else (1.0 if beats(opposite, hand[d - 1], self.ranking) else 0.0)
            gain = self.weights[d - 1] * (after - now)
            if gain > best[0]:
                best = (gain, {"type": "swap_district", "district": d})
        return best

    def best_trump(self, hand: list[str]) -> tuple[float, Action]:
        base = self.worth(hand)
        best: tuple[float, Action] = (-1e9, {"type": "trump", "colour": self.ranking[1]})
        for colour in self.ranking[1:]:
            gain = self.worth(hand, with_trump(self.ranking, colour)) - base
            if gain > best[0]:
                best = (gain, {"type": "trump", "colour": colour})
        return best

    def effect_gain(self, card: str, hand: list[str]) -> float:
        v = value(card)
        if v == 4:
            return max(0.0, self.best_swap_own(hand)[0])
        if v == 6:
            return max(0.0, self.best_swap_district(hand)[0])
        if v == 7:
            return max(0.0, self.best_trump(hand)[0])
        if v == 8:  # the round ends now: good when ahead
            return (self.worth(hand) / sum(self.weights) - 0.55) * sum(self.weights)
        return EFFECT_BONUS.get(v, 0.0)


def choose(view: dict[str, Any], legal_actions: list[Action], rng: random.Random) -> Action:
    options = [a for a in legal_actions if a["type"] != "timeout"]
    if len(options) == 1:
        return options[0]
    table = _Table(view)
    phase = view["phase"]
    if phase == Phase.TURN_START:
        call = {"type": "call_end"}
        return call if call in options and table.share() >= CALL_WHEN else {"type": "draw"}
    if phase == Phase.PLACING and table.drawn is not None:
        drawn = table.drawn
        scored = []
        for action in options:
            hand = list(table.mine)
            thrown = drawn
            if action["type"] == "replace":
                thrown = hand[action["slot"] - 1]
                hand[action["slot"] - 1] = drawn
            score = table.worth(hand) + table.effect_gain(thrown, hand)
            scored.append((score, rng.random(), action))
        return max(scored, key=lambda s: (s[0], s[1]))[2]
    if phase == Phase.SWAP_OWN:
        return table.best_swap_own(table.mine)[1]
    if phase == Phase.SWAP_DISTRICT:
        return table.best_swap_district(table.mine)[1]
    if phase == Phase.TRUMP:
        return table.best_trump(table.mine)[1]
    if phase == Phase.REVEAL_OWN:
        # Show the weakest card: it tempts no trade (effect 6) and tells little.
        return min(
            options,
            key=lambda a: table.chance(table.mine[a["slot"] - 1], table.theirs[a["slot"] - 1], table.ranking),
        )
    if phase == Phase.REVEAL_OPPONENT:
        # Look where the outcome is most uncertain and matters most.
        def doubt(a: Action) -> float:
            p = table.chance(table.mine[a["slot"] - 1], None, table.ranking)
            weight: float = table.weights[a["slot"] - 1]
            return weight * p * (1 - p)

        return max(options, key=doubt)
    return options[int(rng.random() * len(options))]

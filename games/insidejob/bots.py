"""A practice bot for Inside Job: decides from its own seat's view and its legal actions only.

Cards and missions: every candidate play is judged by a few random completions of the trick
(unseen cards dealt at random to the players still to play, who follow suit when they can), using
the same mission judge and trick rule as the engine. An Agent (or the controller of LARRY) wants the
mission to succeed and likes winning tricks itself; the Insider wants it to fail, wants tokens, and
avoids breaking suit where it can be seen. The vote follows suspicion read from the public history
(§14.5): a player who did not follow a suit and later played it is certainly the Insider; winning
failed missions and holding many tokens is suspicious.
"""

from __future__ import annotations

import random
from typing import Any

from games.base import pick, randbelow, sample
from games.insidejob import missions as M
from games.insidejob.cards import ALL_CARDS, suit_of, value_of
from games.insidejob.roles import ROLES
from games.insidejob.tricks import winning_place

SAMPLES = 6


def choose(view: dict[str, Any], legal_actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    actions = [a for a in legal_actions if a["type"] != "timeout"]
    if not actions:
        return legal_actions[-1]
    kind = actions[0]["type"]
    if kind == "play":
        return _choose_play(view, actions, rng)
    if kind == "mission":
        return _choose_mission(view, actions, rng)
    if kind == "vote":
        return _choose_vote(view, actions, rng)
    if kind == "pick":
        return dict(pick(rng, actions))
    return dict(actions[0])  # ready


# --- helpers -------------------------------------------------------------------------------------


def _is_insider(view: dict[str, Any]) -> bool:
    me = view["me"]
    return bool(ROLES[me["role"]].is_insider or me["side"] == "INSIDER")


def _unseen(view: dict[str, Any]) -> list[str]:
    public = view["public"]
    known = set(view["me"]["hand"])
    for trick in public["history"]:
        known |= {p["card"] for p in trick["plays"]}
    known |= {p["card"] for p in public["trick"]}
    if public["larry_hand"]:
        known |= set(public["larry_hand"])
    return [c for c in ALL_CARDS if c not in known]


def _follow(hand: list[str], led: str | None, rng: random.Random) -> str:
    same = [c for c in hand if led is not None and suit_of(c) == led]
    options = same or hand
    return str(options[randbelow(rng, len(options))])


def _simulate(
    view: dict[str, Any], mission: str, trump: str, start: list[dict[str, Any]], first: int, rng: random.Random
) -> list[tuple[bool, int]]:
    """Random completions of a trick whose plays so far are ``start``, the next to play ``first``."""
    public = view["public"]
    positions = public["positions"]
    me = view["me"]["position"]
    unseen = _unseen(view)
    out: list[tuple[bool, int]] = []
    for _ in range(SAMPLES):
        pool = list(unseen)
        plays = list(start)
        pos = first
        while len(plays) < positions:
            played = {p["card"] for p in plays}
            if pos == public["larry"]:
                hand = [c for c in public["larry_hand"] if c not in played]
            elif pos == me:
                hand = [c for c in view["me"]["hand"] if c not in played]
            else:
                hand = sample(rng, pool, min(max(public["hand_sizes"][pos], 1), len(pool)))
            led = suit_of(plays[0]["card"]) if plays else None
            card = _follow(hand, led, rng)
            if card in pool:
                pool.remove(card)
            plays.append({"pos": pos, "card": card, "wager": False})
            pos = (pos + 1) % positions
        place = winning_place(plays, trump)
        out.append((M.succeeds(mission, plays, trump, place), plays[place]["pos"]))
    return out


def _score(view: dict[str, Any], outcomes: list[tuple[bool, int]], pos: int, wager: bool) -> float:
    public = view["public"]
    n = len(outcomes)
    success = sum(1 for ok, _ in outcomes if ok) / n
    mine = sum(1 for _, w in outcomes if w == pos) / n
    if pos == public["larry"] or not _is_insider(view):
        return success + 0.25 * mine - (0.1 if wager else 0.0)
    goal = view["me"]["intel_goal"]
    gain = 1 + public["pot"] + (1 if wager else 0)
    tokens = public["tokens"][pos] - (1 if wager else 0)
    finish = 3.0 * mine if tokens + gain >= goal else 0.0
    return (1 - success) + 0.6 * mine + finish - (0.15 if wager else 0.0)


# --- decisions -----------------------------------------------------------------------------------


def _choose_play(view: dict[str, Any], actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    public = view["public"]
    pos = public["turn"]
    trick = public["trick"]
    led = suit_of(trick[0]["card"]) if trick else None
    hand = public["larry_hand"] if pos == public["larry"] else view["me"]["hand"]
    holds_led = led is not None and any(suit_of(c) == led for c in hand)
    best: tuple[float, float] | None = None
    choice = actions[0]
    for action in actions:
        play = {"pos": pos, "card": action["card"], "wager": action["wager"]}
        outcomes = _simulate(
            view, public["mission"], public["trump"], [*trick, play], (pos + 1) % public["positions"], rng
        )
        score = _score(view, outcomes, pos, action["wager"])
        if holds_led and suit_of(action["card"]) != led:
            score -= 0.45  # breaking suit in plain sight is how Insiders are caught
        key = (score, -value_of(action["card"]) / 100 + rng.random() / 1000)
        if best is None or key > best:
            best, choice = key, action
    return dict(choice)


def _choose_mission(view: dict[str, Any], actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    public = view["public"]
    leader = public["leader"]
    hand = public["larry_hand"] if leader == public["larry"] else view["me"]["hand"]
    wants_success = leader == public["larry"] or not _is_insider(view)
    rates = []
    for action in actions:
        mission = view["me"]["drawn"][action["index"]]
        best = 0.0
        for card in hand:
            play = {"pos": leader, "card": card, "wager": False}
            outcomes = _simulate(view, mission["id"], mission["trump"], [play], (leader + 1) % public["positions"], rng)
            best = max(best, sum(1 for ok, _ in outcomes if ok) / len(outcomes))
        rates.append(best)
    index = max(range(len(rates)), key=lambda i: rates[i] if wants_success else -rates[i])
    return dict(actions[index])


def suspicion(view: dict[str, Any]) -> dict[int, float]:
    """How likely each position seems to be the Insider, from public history alone."""
    public = view["public"]
    scores = {p: 0.0 for p in range(public["positions"])}
    voids: dict[int, set[str]] = {p: set() for p in scores}
    for trick in public["history"]:
        led = suit_of(trick["plays"][0]["card"])
        for play in trick["plays"]:
            suit = suit_of(play["card"])
            if suit in voids[play["pos"]]:
                scores[play["pos"]] += 100.0  # showed a void, then played that suit: proven
            if suit != led:
                voids[play["pos"]].add(led)
        if not trick["success"]:
            scores[trick["winner"]] += 1.0
    for p in scores:
        scores[p] += 0.4 * public["tokens"][p]
        if public["larry"] == p:
            scores[p] -= 0.2
    return scores


def _choose_vote(view: dict[str, Any], actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    targets = [a for a in actions if a["target"] is not None]
    if not targets:
        return dict(actions[-1])
    me = view["me"]
    scores = suspicion(view)
    if me.get("hint") is not None:
        scores[me["hint"]] -= 50.0
    seen = me.get("seen")
    if seen:
        scores[seen["target"]] += 200.0 if ROLES[seen["role"]].is_insider else -50.0
    ranked = sorted(targets, key=lambda a: (scores[a["target"]], rng.random()), reverse=True)
    return dict(ranked[0])

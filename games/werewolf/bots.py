"""Werewolf practice bot: decides from its own seat's view and legal actions only.

Plan, by role:

- Wolves strike together: at night a wolf follows the first pick a fellow wolf made tonight
  (a split vote kills nobody, §3.2); the first wolf, and every wolf at the day vote, picks the
  same target by one rule every wolf computes alike from public facts: the non-wolf who most
  often voted for wolves (the likeliest seer), lowest seat first.
- The seer inquires players he has not checked yet, the most suspicious first, and votes for a
  wolf he found; he never votes for a player he cleared.
- The doctor protects himself whenever the restriction allows (§8.5), else the player he would
  least suspect.
- Villagers (and seer and doctor by day) suspect whoever voted for them and whoever helped to
  eliminate a player who turned out to be village; they all vote the most suspicious player, ties
  to the lowest seat, so village votes pile up instead of scattering. Without any clue they
  abstain: a blind elimination costs the village more than it costs the wolves, and a seer's
  lone vote for a wolf then decides.

Chat (``READS_CHAT``): ``choose`` also takes the public chat as ``games/werewolf/talk.py`` reads
it. Everyone but the wolves weighs seer claims as weak evidence (a claim a reveal confirmed makes
its speaker trusted, a contradicted one a liar); the wolves kill first the claimant who named one
of them (he is the real seer), and the doctor guards a claimant whose claims held up. The seer who
has no wolf to vote for votes among the players he has not cleared rather than abstain.

The night close and every clock run out through the platform: ``choose`` is never asked for
``timeout`` and raises ``ValueError`` when nothing else is legal.
"""

from __future__ import annotations

import random
from typing import Any

from games.base import Action, pick
from games.werewolf import talk
from games.werewolf.roles import WOLVES_FOR

WOLF = "WOLF"
READS_CHAT = True
Chat = list[dict[str, Any]]


def _suspicion(view: dict[str, Any], chat: Chat | None = None) -> dict[int, float]:
    """How suspicious each living other seat looks to this seat, from public votes, the public
    chat and its own facts."""
    me = view.get("seat")
    alive = [s for s in view["alive"] if s != me]
    dead_roles = view["dead_roles"]
    score = {s: 0.0 for s in alive}
    for reveal in view["votes"]:
        out, out_role = reveal["eliminated"], reveal["role"]
        for vote in reveal["votes"]:
            voter, target = vote["voter"], vote["target"]
            if voter not in score:
                continue
            if target is not None and target == me:
                score[voter] += 1.0
            if target is not None and dead_roles[target] == WOLF:
                score[voter] -= 1.0
            if out is not None and target == out and out_role != WOLF:
                score[voter] += 0.5
    for seat, amount in talk.chat_suspicion(view, list(chat or [])).items():
        if seat in score:
            score[seat] += amount
    for result in view["seer_results"]:
        if result["target"] in score:
            score[result["target"]] = 100.0 if result["result"] == WOLF else -100.0
    return score


def _danger_to_wolves(view: dict[str, Any], wolves: list[int], chat: Chat | None = None) -> dict[int, float]:
    """For wolves: how often each living non-wolf voted for a wolf (the seer hunts wolves), and
    above all whoever claimed seer and named one of them."""
    danger = {s: 0.0 for s in view["alive"] if s not in wolves}
    for reveal in view["votes"]:
        for vote in reveal["votes"]:
            if vote["voter"] in danger and vote["target"] in wolves:
                danger[vote["voter"]] += 1.0
    for claimant, claim in talk.seer_claims(view, list(chat or [])).items():
        if claimant in danger and set(claim["wolves"]) & set(wolves):
            danger[claimant] += 10.0
    return danger


def _top(scores: dict[int, float], allowed: set[int]) -> int | None:
    """The highest-scoring allowed seat, lowest seat on ties (so bots sharing facts agree)."""
    best = [s for s in sorted(scores) if s in allowed]
    if not best:
        return None
    return max(best, key=lambda s: (scores[s], -s))


def _night(view: dict[str, Any], options: list[int], rng: random.Random, chat: Chat) -> int:
    role, me = view["my_role"], view["seat"]
    allowed = set(options)
    if role == WOLF:
        for fellow in view["wolf_picks"]:
            if fellow["seat"] != me and fellow["target"] in allowed:
                return int(fellow["target"])
        danger = _danger_to_wolves(view, view["my_wolves"], chat)
        choice = _top(danger, allowed)
        if choice is not None and danger[choice] > 0:
            return choice
        return int(pick(rng, options))
    if role == "SEER":
        checked = {r["target"] for r in view["seer_results"]}
        fresh = {t for t in allowed if t not in checked}
        if fresh:
            suspicion = _suspicion(view, chat)
            ranked = sorted(fresh, key=lambda t: (-suspicion.get(t, 0.0), rng.random()))
            return int(ranked[0])
    if role == "DOCTOR":
        trusted = [s for s, c in talk.seer_claims(view, chat).items() if c["proven"] and s in allowed and s != me]
        if trusted:
            return int(trusted[0])
        if me in allowed:
            return int(me)
        suspicion = _suspicion(view, chat)
        return int(min(options, key=lambda t: (suspicion.get(t, 0.0), rng.random())))
    return int(pick(rng, options))


def _vote(view: dict[str, Any], options: list[int], rng: random.Random, chat: Chat) -> int | None:
    allowed = set(options)
    if view["my_role"] == WOLF:
        wolves = view["my_wolves"]
        return _top(_danger_to_wolves(view, wolves, chat), allowed - set(wolves))
    suspicion = _suspicion(view, chat)
    candidates = {t for t in allowed if suspicion.get(t, 0.0) > -100.0}
    choice = _top(suspicion, candidates)
    if choice is not None and suspicion[choice] <= 0:
        if candidates and (view["my_role"] == "SEER" or _last_chance(view)):
            # The seer's blind vote, among players he has not cleared, is likelier to hit a wolf;
            # and when the next night would end the game, a blind elimination is the only hope.
            return int(pick(rng, sorted(candidates)))
        return None  # no clue: a random elimination helps the wolves more than the village
    return choice


def _last_chance(view: dict[str, Any]) -> bool:
    """Whether the village loses at the next dawn unless a wolf goes today: after one more night
    kill the wolves would be as many as the rest (the count of living wolves is public: the deal's
    wolves minus the dead ones)."""
    n = len(view["dead_roles"])
    wolves = WOLVES_FOR[n] - sum(1 for role in view["dead_roles"] if role == WOLF)
    others = len(view["alive"]) - wolves
    return wolves >= others - 1


def choose(view: dict[str, Any], legal_actions: list[Action], rng: random.Random, chat: Chat | None = None) -> Action:
    """A sensible legal action for the seat whose ``view`` this is (never ``timeout``), reading
    the public ``chat`` (entries as in ``talk``) when given."""
    chat = list(chat or [])
    actions = [a for a in legal_actions if a["type"] != "timeout"]
    if not actions:
        raise ValueError("only the clock can move now (a night close or no decision)")
    kinds = {a["type"] for a in actions}
    if "ready" in kinds:
        return {"type": "ready"}
    if "pick" in kinds:
        targets = [a["target"] for a in actions if a["type"] == "pick"]
        return {"type": "pick", "target": _night(view, targets, rng, chat)}
    if "vote" in kinds:
        targets = [a["target"] for a in actions if a["type"] == "vote" and a["target"] is not None]
        return {"type": "vote", "target": _vote(view, targets, rng, chat)}
    return actions[0]

"""Werewolf practice bot: decides from its own seat's view, legal actions and the public chat.

Plan, by role:

- Wolves strike together: at night a wolf follows the first pick a fellow wolf made tonight
  (a split vote kills nobody, §3.2); the first wolf attacks again the player every wolf attacked
  last night when nobody died (the doctor saved him, so he cannot save him twice running, §8.5),
  else the most dangerous non-wolf: the claimant who named one of them, then whoever hinted at one
  of them (a shy seer), then whoever voted for wolves. By day a wolf runs with the village when
  the public evidence (votes and chat, read as a village bot reads them) points at a non-wolf;
  when the village holds its votes, each wolf votes alone at random (two wolves voting together
  would eliminate a villager, but the reveal would mark them both); else every wolf votes the
  same non-wolf by the danger rule, lowest seat first.
- The seer inquires players he has not checked yet, the most suspicious first, and votes for a
  wolf he found; he never votes for a player he cleared.
- The doctor guards a seer claimant whose claims held up, else a claimant who named a wolf or a
  player who hinted at one (the wolves hunt him first), else himself whenever the restriction
  allows (§8.5), else the player he would least suspect. A player he guarded on a quiet night
  with a lone wolf alive was (unless that wolf made no pick) the one attacked, so no wolf.
- Villagers (and seer and doctor by day) suspect whoever voted for them and whoever helped to
  eliminate a player who turned out to be village; they all vote the most suspicious player, ties
  to the lowest seat, so village votes pile up instead of scattering. When everyone they have not
  cleared is a wolf (the count of living wolves is public), they vote one of them.
- Without any clue a village bot votes blind among the players it has not cleared (abstaining
  leaves the elimination to the others, and may let it fall on itself), unless another living
  player asked in the chat to hold the votes: then it abstains, and a seer's lone vote decides.
  On the last day before a night kill would give the wolves parity it never holds: every clueless
  village bot votes the same blind target, drawn from public facts alone (the round and who
  lives), so that somebody goes out; a wolf joins that vote when it falls on a villager.

Chat (``READS_CHAT``): ``choose`` also takes the public chat as ``games/werewolf/talk.py`` reads
it. Everyone but the wolves weighs seer claims as weak evidence (a claim a reveal confirmed makes
its speaker trusted, a contradicted one a liar); the wolves kill first the claimant who named one
of them (he is the real seer).

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
    if view.get("my_role") == "DOCTOR":
        for seat in _saved_by_the_doctor(view):
            if seat in score:
                score[seat] -= 50.0
    for result in view["seer_results"]:
        if result["target"] in score:
            score[result["target"]] = 100.0 if result["result"] == WOLF else -100.0
    return score


def _danger_to_wolves(view: dict[str, Any], wolves: list[int], chat: Chat | None = None) -> dict[int, float]:
    """For wolves: how often each living non-wolf voted for a wolf (the seer hunts wolves), and
    above all whoever claimed seer and named one of them, or hinted at one of them."""
    danger = {s: 0.0 for s in view["alive"] if s not in wolves}
    for reveal in view["votes"]:
        for vote in reveal["votes"]:
            if vote["voter"] in danger and vote["target"] in wolves:
                danger[vote["voter"]] += 1.0
    for claimant, claim in talk.seer_claims(view, list(chat or [])).items():
        if claimant in danger and set(claim["wolves"]) & set(wolves):
            danger[claimant] += 10.0
    for hinter, targets in talk.hints(list(chat or [])).items():
        if hinter in danger and set(targets) & set(wolves):
            danger[hinter] += 5.0  # who hints at one of us knows it: a shy seer
    return danger


def _top(scores: dict[int, float], allowed: set[int]) -> int | None:
    """The highest-scoring allowed seat, lowest seat on ties (so bots sharing facts agree)."""
    best = [s for s in sorted(scores) if s in allowed]
    if not best:
        return None
    return max(best, key=lambda s: (scores[s], -s))


def _wolves_alive_at_night(view: dict[str, Any], rnd: int) -> int:
    """Living wolves during night ``rnd``: the deal's wolves minus those voted out before it
    (a night kill never hits a wolf)."""
    out = sum(1 for r in view["votes"] if r["round"] < rnd and r["role"] == WOLF)
    return WOLVES_FOR[len(view["dead_roles"])] - out


def _quiet_nights(view: dict[str, Any]) -> set[int]:
    return {a["round"] for a in view["announcements"] if a["died"] is None}


def _saved_by_the_doctor(view: dict[str, Any]) -> set[int]:
    """For the doctor: players I protected on a night when nobody died and a lone wolf was
    alive. A lone wolf's pick is the attack, so (unless he made no pick) I saved that player,
    and a player the wolf attacked is no wolf: strong evidence, not proof."""
    me, quiet = view["seat"], _quiet_nights(view)
    saved = set()
    for entry in view["log"]:
        if entry.get("kind") == "night_pick" and entry.get("seat") == me and entry["target"] != me:
            rnd = entry["round"]
            if rnd in quiet and _wolves_alive_at_night(view, rnd) == 1:
                saved.add(int(entry["target"]))
    return saved


def _unprotectable(view: dict[str, Any]) -> int | None:
    """For a wolf: the player every living wolf attacked last night when nobody died. The doctor
    (if that was no tie) protected him, so he cannot protect him again tonight (§8.5)."""
    last = view["round"] - 1
    if last not in _quiet_nights(view):
        return None
    picks = {e["seat"]: e["target"] for e in view["log"] if e.get("kind") == "wolf_pick" and e["round"] == last}
    targets = set(picks.values())
    if len(picks) == _wolves_alive_at_night(view, last) and len(targets) == 1:
        return int(targets.pop())
    return None


def _night(view: dict[str, Any], options: list[int], rng: random.Random, chat: Chat) -> int:
    role, me = view["my_role"], view["seat"]
    allowed = set(options)
    if role == WOLF:
        for fellow in view["wolf_picks"]:
            if fellow["seat"] != me and fellow["target"] in allowed:
                return int(fellow["target"])
        again = _unprotectable(view)
        if again in allowed:
            return int(again)
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
        claims = talk.seer_claims(view, chat)
        trusted = [s for s, c in claims.items() if c["proven"] and s in allowed and s != me]
        if trusted:
            return int(trusted[0])
        # The wolves hunt first the claimant (or the hinter: a shy seer) who named one of them.
        exposer = [s for s, c in claims.items() if c["wolves"] and not c["liar"] and s in allowed and s != me]
        exposer += [s for s in talk.hints(chat) if s in allowed and s != me and s not in claims]
        if exposer:
            return int(exposer[0])
        if me in allowed:
            return int(me)
        suspicion = _suspicion(view, chat)
        return int(min(options, key=lambda t: (suspicion.get(t, 0.0), rng.random())))
    return int(pick(rng, options))


def _vote(view: dict[str, Any], options: list[int], rng: random.Random, chat: Chat) -> int | None:
    allowed = set(options)
    if view["my_role"] == WOLF:
        wolves = view["my_wolves"]
        # Run with the village: the player the public evidence points at, if he is no wolf (the
        # elimination is then sure, and it marks no wolf as the odd voter).
        public = _suspicion({**view, "seat": None, "my_role": None, "seer_results": []}, chat)
        crowd = _top(public, allowed | set(wolves) - {view["seat"]})
        if crowd is not None and crowd in allowed and crowd not in wolves and public[crowd] > 0:
            return crowd
        alive = set(view["alive"])
        living_wolves = len(alive & set(wolves))
        if living_wolves >= len(alive) - living_wolves - 1:
            blind = _table_pick(view, alive - {view["seat"]})
            if blind in allowed and blind not in wolves:
                return blind  # the village's last-chance blind vote fell on a villager: join it
        if _others_hold_votes(view, chat) and living_wolves < len(alive) - living_wolves - 1:
            # The village holds its votes. Wolves voting together would eliminate a villager but
            # mark both voters; each votes alone at random, as a clueless player might.
            return int(pick(rng, sorted(allowed - set(wolves))))
        return _top(_danger_to_wolves(view, wolves, chat), allowed - set(wolves))
    suspicion = _suspicion(view, chat)
    candidates = {t for t in allowed if suspicion.get(t, 0.0) > -100.0}
    if candidates and len(candidates) <= _living_wolves(view):
        return min(candidates)  # everyone I have not cleared is a wolf
    choice = _top(suspicion, candidates)
    if choice is not None and suspicion[choice] <= 0:
        wolves = _living_wolves(view)
        if wolves >= len(view["alive"]) - wolves - 1:
            # Last chance: the next night kill gives the wolves parity. Every clueless village bot
            # votes the same blind target, drawn from public facts, so that somebody goes out;
            # not one that some evidence clears (a seer's clear claim, a vote against a wolf).
            blind = _table_pick(view, {t for t in candidates if suspicion[t] >= suspicion[choice]})
            if blind is not None:
                return blind
        if _others_hold_votes(view, chat):
            return None  # the table agreed to hold its votes: a seer's lone vote then decides
        # No clue, and nobody asks to hold the votes: a blind vote among the players I have not
        # cleared. Abstaining leaves the elimination to the others' votes, which may hit me.
        return int(pick(rng, sorted(candidates)))
    return choice


def _table_pick(view: dict[str, Any], allowed: set[int]) -> int | None:
    """A blind vote that every village bot without a clue agrees on: a seat drawn from public facts
    alone (the round and who lives), or the next living one when that one is not allowed."""
    alive = sorted(view["alive"])
    start = (view["round"] * 7 + sum(alive)) % len(alive)
    for k in range(len(alive)):
        seat = alive[(start + k) % len(alive)]
        if seat in allowed:
            return int(seat)
    return None


def _others_hold_votes(view: dict[str, Any], chat: Chat) -> bool:
    """Whether another living player asked in the chat to hold the votes without a clue."""
    alive, me = set(view["alive"]), view["seat"]
    return any(e.get("key") == talk.UNSURE and e.get("seat") != me and e.get("seat") in alive for e in chat)


def _living_wolves(view: dict[str, Any]) -> int:
    """The count of living wolves is public: the deal's wolves minus the dead ones."""
    n = len(view["dead_roles"])
    return WOLVES_FOR[n] - sum(1 for role in view["dead_roles"] if role == WOLF)


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

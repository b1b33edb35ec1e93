"""A practice bot for Night of the Mummy: it deduces from its own view only.

It keeps, for every other unrevealed player, the set of guests that player could hold (from what
it saw in dances, the answers it received, public declines and invitations, and accusations that
got no YES at all), enumerates the consistent ways to give every such player a different guest,
and accuses once only one way is left (or nobody is left to accuse). Otherwise it asks the most
uncertain player about a likely guest, or dances with him.
"""

from __future__ import annotations

import random
from typing import Any

from games.base import Action, pick
from games.mummy import guests as g

SOLUTION_CAP = 3000


def _knowledge(view: dict[str, Any]) -> tuple[list[int], dict[int, set[str]]]:
    """The other unrevealed seats and, for each, the guests it may hold."""
    me = view["me"]
    seat = me["seat"]
    players = view["players"]
    n = len(players)
    face_up = {m["guest"] for m in view["mystery"] if m["face_up"]}
    revealed = {p["guest"] for p in players if p["revealed"]}
    pool = set(view["guests"]) - revealed - face_up - {me["guest"]}
    others = [s for s in ((seat + i) % n for i in range(1, n)) if not players[s]["revealed"]]
    cands = {s: set(pool) for s in others}
    swapped: set[int] = set()
    for dance in view["dances"]:
        for event in dance["events"]:
            if event["kind"] == "swapped":
                swapped.add(event["seat"])
    for dance in view["dances"]:
        for seen in dance["saw"]:
            s = seen["seat"]
            if s not in cands or s in swapped:
                continue
            if seen["guest"] is None:
                cands[s] &= g.HIDERS
            else:
                cands[s] &= {seen["guest"]}
    for answer in view["answers_received"]:
        s, asked = answer["target"], answer["guest"]
        if s not in cands or s in swapped:
            continue
        if answer["answer"] == g.YES:
            cands[s] &= {g.SARCOPHAGUS} if asked == g.MUMMY else {asked, g.SARCOPHAGUS}
        else:
            cands[s] -= {g.SARCOPHAGUS} if asked == g.MUMMY else {asked, g.SARCOPHAGUS}
    for entry in view["log"]:
        kind = entry.get("kind")
        if kind == "invite_answer" and not entry["accepted"] and entry["invitee"] in cands:
            cands[entry["invitee"]] -= g.MUST_ACCEPT
        elif kind == "invite" and entry["inviter"] in cands:
            cands[entry["inviter"]] -= g.CANNOT_INVITE
        elif kind == "accusation" and entry["yes"] == 0:
            for s, name in zip(entry["seats"], entry["names"], strict=True):
                if s in cands and s not in swapped:
                    cands[s].discard(name)
    for s in others:
        if not cands[s]:
            cands[s] = set(pool)  # contradictory notes (a swap we did not see): start afresh
    return others, cands


def _solve(others: list[int], cands: dict[int, set[str]]) -> tuple[int, dict[int, dict[str, int]]]:
    """How many consistent assignments (capped), and how often each guest appears per seat."""
    order = sorted(others, key=lambda s: len(cands[s]))
    counts: dict[int, dict[str, int]] = {s: {} for s in others}
    chosen: dict[int, str] = {}
    total = 0

    def search(i: int) -> None:
        nonlocal total
        if total >= SOLUTION_CAP:
            return
        if i == len(order):
            total += 1
            for s, guest in chosen.items():
                counts[s][guest] = counts[s].get(guest, 0) + 1
            return
        s = order[i]
        used = set(chosen.values())
        for guest in sorted(cands[s] - used):
            chosen[s] = guest
            search(i + 1)
            del chosen[s]

    search(0)
    return total, counts


def _pick(rng: random.Random, actions: list[Action]) -> Action:
    chosen: Action = pick(rng, actions)
    return chosen


def _best(counts: dict[str, int], allowed: list[str]) -> str:
    return max(allowed, key=lambda guest: (counts.get(guest, 0), -allowed.index(guest)))


def choose(view: dict[str, Any], legal_actions: list[Action], rng: random.Random) -> Action:
    actions = [a for a in legal_actions if a["type"] != "timeout"]
    if not actions:
        return legal_actions[-1]
    if view["me"] is None:
        return _pick(rng, actions)
    others, cands = _knowledge(view)
    total, counts = _solve(others, cands)
    sure = total == 1
    types = {a["type"] for a in actions}

    if "name" in types:
        acc = view["accusation"]
        target = acc["targets"][len(acc["names"])]
        allowed = [a["guest"] for a in actions if a["type"] == "name"]
        guest = _best(counts.get(target, {}), allowed)
        return {"type": "name", "guest": guest}
    if "target" in types:
        targets = [a["target"] for a in actions if a["type"] == "target"]
        return {"type": "target", "target": max(targets, key=lambda t: counts.get(t, {}).get(g.MUMMY, 0))}
    if "flip" in types:
        return _pick(rng, actions)
    if "act" in types:
        kinds = [a["kind"] for a in actions if a["type"] == "act"]
        if not others or sure:
            return {"type": "act", "kind": "accuse"}
        if "dance" in kinds and rng.random() < 0.4:
            return {"type": "act", "kind": "dance"}
        return {"type": "act", "kind": "inquire" if "inquire" in kinds else "accuse"}
    if "invite" in types:
        targets = [a["target"] for a in actions]
        return {"type": "invite", "target": max(targets, key=lambda t: (len(cands.get(t, ())), rng.random()))}
    if "ask" in types:
        targets = sorted({a["target"] for a in actions})
        target = max(targets, key=lambda t: (len(cands.get(t, ())), rng.random()))
        options = [x for x in sorted(cands.get(target, ())) if x not in (g.MUMMY, g.SARCOPHAGUS)]
        guess = _best(counts.get(target, {}), options) if options else g.MUMMY
        return {"type": "ask", "target": target, "guest": guess}
    if "accept" in types:
        return {"type": "accept"}
    # Windows: a seat with nothing to do passes; abilities are used when they pay.
    for a in actions:
        if a["type"] == "peek":
            unknown = [b for b in actions if b["type"] == "peek" and view["mystery"][b["slot"]]["known"] is None]
            return _pick(rng, unknown or [a])
        if a["type"] == "join":
            return a
        if a["type"] == "swap" and rng.random() < 0.5:
            return _pick(rng, [b for b in actions if b["type"] == "swap"])
        if a["type"] == "burgle" and len(cands.get(a["target"], ())) == 1:
            return a
        if a["type"] in ("anubis", "phantom") and sure:
            return a
        if a["type"] == "phantom":
            inquirer = view["public"]["window"].get("inquirer")
            if len(cands.get(inquirer, ())) == 1:
                return a
    return {"type": "pass"}

"""What a werewolf practice bot says in the day discussion, and what it reads in the chat.

Everything here is a function of one seat's view, the public chat and a random source made from
the match's seed and the seat (``rng_for_seat``): the chat is public, so a bot may read it, and it
reads nothing else. No Django: the platform (``platform/tables/bot_chat.py``) renders a line's
``key`` as translated text with its ``params`` (seat numbers, shown as names) and posts it.

A chat entry, as the bots read it, is ``{"seat": s, "key": KEY, "params": {"target": t}}``: a line a
bot said, or a human's message in one of these templated forms (the platform recognises them).

Lines, by role (at most ``MAX_LINES`` per discussion; temperament from the seed and seat):

- The seer who has found a living wolf says so («I am the seer: X is a wolf») when *bold*, or
  only hints («I do not trust X») when *shy*. A bold seer with no wolf found vouches for a player
  it cleared when someone accuses that player, and calls out a rival seer claim as a lie.
- A wolf accuses a villager: the seer claimant who named a wolf first, then whoever voted for
  wolves. A bold wolf that a seer claim exposed counter-claims to be the seer and names that
  claimant. (A false claim without that need is soon contradicted by a reveal and marks the wolf a
  liar: in all-bot duels wolves that claimed freely won half as often as wolves that only
  accused.)
- Villagers and the doctor echo the suspicion they draw from public votes and claims.

Reading (``chat_suspicion``): a seer claim is weak evidence against the player it names; a claim
that a later reveal confirmed makes its speaker trusted (their next claims weigh much more), one a
reveal contradicted marks the speaker a liar; a claim naming oneself as a wolf proves the speaker
lies; against a rival claim the first claimant is believed more (a counter-claim is what a
named wolf says next); a dead claimant's revealed role settles his claims (true if he was the seer, lies
otherwise). A hint («I do not trust X») weighs less than a claim; a bare suspicion nothing: a
villager's only repeats what the public votes say, and a wolf's always names a villager (when
villagers followed those lines, the wolves' accusations decided the first vote).
"""

from __future__ import annotations

import random
from typing import Any

from games.base import gettext_noop, rng_for

View = dict[str, Any]
Line = dict[str, Any]

CLAIM_WOLF = "claim_seer_wolf"
CLAIM_CLEAR = "claim_seer_clear"
HINT = "hint_wolf"
SUSPECT = "suspect"
LIAR = "liar"
UNSURE = "unsure"

# msgids; ``%(target)s`` is the named player (the platform fills in the name).
MESSAGES: dict[str, str] = {
    CLAIM_WOLF: gettext_noop("I am the seer: %(target)s is a wolf."),
    CLAIM_CLEAR: gettext_noop("I am the seer: %(target)s is not a wolf."),
    HINT: gettext_noop("I do not trust %(target)s."),
    SUSPECT: gettext_noop("%(target)s looks suspicious to me."),
    LIAR: gettext_noop("%(target)s is lying: do not believe that claim."),
    UNSURE: gettext_noop("I have no clue yet. Let us not throw our votes away."),
}
SEER_CLAIMS = (CLAIM_WOLF, CLAIM_CLEAR)
MAX_LINES = 2
# How much a line weighs against the player it names. A bare suspicion carries no evidence: a
# villager's echoes what the public votes already say, and a wolf's is aimed at a villager.
WEIGHT = {HINT: 1.0, LIAR: 0.5, SUSPECT: 0.0}
WOLF = "WOLF"


def rng_for_seat(seed: int | str, seat: int) -> random.Random:
    """The bot's own random source for talking: the same for the whole match (its temperament)."""
    return rng_for(f"talk:{seed}", seat)


def may_talk(view: View) -> bool:
    """Only in the day discussion, and only the living (a spectator's view: whether anyone may)."""
    seat = view.get("seat")
    return view.get("phase") == "day_discussion" and (seat is None or seat in view.get("alive", []))


def _target(entry: dict[str, Any]) -> int | None:
    target = (entry.get("params") or {}).get("target")
    return target if isinstance(target, int) and not isinstance(target, bool) else None


def seer_claims(view: View, chat: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Per claimant: the players it named (``wolves``, ``clear``) and whether reveals so far
    confirmed (``proven``) or contradicted (``liar``) them."""
    dead_roles = view["dead_roles"]
    out: dict[int, dict[str, Any]] = {}
    for entry in chat:
        target, seat = _target(entry), entry.get("seat")
        if entry.get("key") not in SEER_CLAIMS or target is None or not isinstance(seat, int):
            continue
        claim = out.setdefault(seat, {"wolves": [], "clear": [], "proven": False, "liar": False})
        says_wolf = entry["key"] == CLAIM_WOLF
        claim["wolves" if says_wolf else "clear"].append(target)
        if 0 <= target < len(dead_roles) and dead_roles[target] is not None:
            if (dead_roles[target] == WOLF) == says_wolf:
                claim["proven"] = True
            else:
                claim["liar"] = True
        if target == view.get("seat") and says_wolf and view.get("my_role") not in (None, WOLF):
            claim["liar"] = True  # I know I am not a wolf
    for seat, claim in out.items():
        # A dead claimant's revealed role settles his claim: the seer's are true, anyone else lied.
        if 0 <= seat < len(dead_roles) and dead_roles[seat] is not None:
            if dead_roles[seat] == "SEER":
                claim["proven"] = not claim["liar"]
            else:
                claim["liar"] = True
        claim["proven"] = claim["proven"] and not claim["liar"]
    return out


def hints(chat: list[dict[str, Any]]) -> dict[int, list[int]]:
    """Per speaker: the players he said he does not trust (a shy seer's hint at a wolf)."""
    out: dict[int, list[int]] = {}
    for entry in chat:
        target, seat = _target(entry), entry.get("seat")
        if entry.get("key") == HINT and target is not None and isinstance(seat, int):
            out.setdefault(seat, []).append(target)
    return out


def chat_suspicion(view: View, chat: list[dict[str, Any]]) -> dict[int, float]:
    """Weak evidence from the public chat, per seat (positive: looks like a wolf)."""
    me = view.get("seat")
    score: dict[int, float] = {}

    def add(seat: int | None, amount: float) -> None:
        if seat is not None and seat != me:
            score[seat] = score.get(seat, 0.0) + amount

    claims = seer_claims(view, chat)
    rivals = len(claims) > 1
    first = next(iter(claims), None)
    for claimant, claim in claims.items():
        if claim["liar"] or (view.get("my_role") == "SEER" and claimant != me):
            add(claimant, 5.0)  # a seer claim I know is false: only a wolf gains by it
            continue
        # Against a rival, the first claimant is believed more: a counter-claim is what a wolf
        # the seer named says next.
        weight = 4.0 if claim["proven"] else (1.5 if claimant == first else 0.5) if rivals else 1.5
        for target in claim["wolves"]:
            add(target, weight)
        for target in claim["clear"]:
            add(target, -weight)
        if claim["proven"]:
            add(claimant, -3.0)
    for entry in chat:
        if entry.get("key") in (HINT, LIAR):
            add(_target(entry), WEIGHT[entry["key"]])
    return score


def _vote_suspicion(view: View) -> dict[int, float]:
    """What the public votes say to this seat (votes for me, votes that helped to eliminate a
    villager, votes against revealed wolves)."""
    me = view.get("seat")
    score: dict[int, float] = {}
    for reveal in view["votes"]:
        for vote in reveal["votes"]:
            voter, target = vote["voter"], vote["target"]
            if voter == me or target is None:
                continue
            if target == me:
                score[voter] = score.get(voter, 0.0) + 1.0
            if view["dead_roles"][target] == WOLF:
                score[voter] = score.get(voter, 0.0) - 1.0
            elif reveal["eliminated"] == target and reveal["role"] is not None:
                score[voter] = score.get(voter, 0.0) + 0.5
    return score


def _line(key: str, target: int | None = None) -> Line:
    return {"key": key, "params": {} if target is None else {"target": target}}


def _seer_lines(view: View, chat: list[dict[str, Any]], bold: bool) -> list[Line]:
    alive, me = set(view["alive"]), view["seat"]
    found = [r["target"] for r in view["seer_results"] if r["result"] == WOLF and r["target"] in alive]
    cleared = [r["target"] for r in view["seer_results"] if r["result"] != WOLF and r["target"] in alive]
    out: list[Line] = []
    if found:
        out.append(_line(CLAIM_WOLF if bold else HINT, found[0]))
    rivals = [s for s in seer_claims(view, chat) if s != me and s in alive]
    if rivals:
        out.append(_line(LIAR, rivals[0]))
    if bold and not found:
        accused = {_target(e) for e in chat if e.get("seat") != me and e.get("key") in (CLAIM_WOLF, SUSPECT)}
        vouch = [t for t in cleared if t in accused]
        if vouch:
            out.append(_line(CLAIM_CLEAR, vouch[0]))
    return out


def _wolf_lines(view: View, chat: list[dict[str, Any]], bold: bool) -> list[Line]:
    pack = set(view["my_wolves"])
    villagers = [s for s in view["alive"] if s not in pack]
    if not villagers:
        return []
    claims = seer_claims(view, chat)
    # The claimant who named one of us is the real seer: accuse him first.
    exposers = [s for s, c in claims.items() if s in villagers and set(c["wolves"]) & pack]
    danger = {s: 0.0 for s in villagers}
    for reveal in view["votes"]:
        for vote in reveal["votes"]:
            if vote["voter"] in danger and vote["target"] in pack:
                danger[vote["voter"]] += 1.0
    ranked = sorted(villagers, key=lambda s: (-(s in exposers), -danger.get(s, 0.0), s))
    target = ranked[0]
    if bold and target in exposers:
        return [_line(CLAIM_WOLF, target)]  # a counter-claim: the exposed wolf's last chance
    return [_line(SUSPECT, target)]


def _village_lines(view: View, chat: list[dict[str, Any]], chatty: bool) -> list[Line]:
    alive, me = set(view["alive"]), view["seat"]
    score = _vote_suspicion(view)
    for seat, amount in chat_suspicion(view, chat).items():
        score[seat] = score.get(seat, 0.0) + amount
    ranked = sorted((s for s in alive if s != me), key=lambda s: (-score.get(s, 0.0), s))
    if ranked and score.get(ranked[0], 0.0) > 0:
        return [_line(SUSPECT, ranked[0])]
    return [_line(UNSURE)] if chatty else []


def lines(view: View, public_chat: list[dict[str, Any]], rng: random.Random) -> list[Line]:
    """What this seat's bot says now, in order (``[]`` at night, in the vote, or when dead).

    ``rng`` must come from ``rng_for_seat(seed, seat)``: its first draws are the temperament.
    """
    if view.get("seat") is None or not may_talk(view):
        return []
    bold = rng.random() < 0.5
    chatty = rng.random() < 0.5
    role = view["my_role"]
    if role == "SEER":
        out = _seer_lines(view, public_chat, bold)
    elif role == WOLF:
        out = _wolf_lines(view, public_chat, bold)
    else:
        out = _village_lines(view, public_chat, chatty)
    return out[:MAX_LINES]

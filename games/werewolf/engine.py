"""Werewolf / Mafia without a moderator: the rules engine (spec ``shared/rules/werewolf.md``).

Players: 5-10 seats in a circle, clockwise = increasing seat number. Roles (§1.1): one or two
WOLVES (team wolves), one SEER, one DOCTOR and VILLAGERS (team village).

Secrets (§6): each seat's own role (its slot); the wolf list (every wolf's slot); the seer's
inquiry results (seer's slot and log entries to the seer); the doctor's ``last_protected``; every
seat's own night pick and own day vote until the reveal (its slot). ``hidden`` stays empty: nobody
knows anything the seats do not. ``public`` holds the phase, round, order, turn, who is alive,
the roles of the dead, readiness, who has voted, the revealed votes and the morning news.

Chance: only the deal (a uniform permutation of the §1.1 roles at setup). Nothing else is random.

Phase cycle (§3): NIGHT(r) -> [dawn] -> DAY_DISCUSSION(r) -> DAY_VOTE(r) -> [reveal] -> NIGHT(r+1).
Dawn and the vote reveal run inside the ``apply`` that completes the phase before them. A night
turn is two moves by the seat on turn (§3.1): a pick (or ``timeout`` = no pick), then the close
(``timeout`` only, applied by the platform's clock ``night_turn_min_s`` after the turn began).

Log kinds (``to`` is ``None`` for public entries):

- ``role_dealt`` to the seat: ``seat``, ``role``, and ``wolves`` (the wolf list) for a wolf.
- ``night_began``: ``round`` (the order is ``public["order"]``).
- ``night_pick`` to the seat: ``round``, ``seat``, ``target`` (the doctor's protection or a
  villager's pick).
- ``wolf_pick`` to every living wolf: ``round``, ``seat``, ``target``.
- ``no_pick`` to the seat: ``round``, ``seat`` (night pick timed out).
- ``seer_result`` to the seer (his pick and its answer): ``round``, ``seat``, ``target``,
  ``result`` (``WOLF`` / ``NOT_WOLF``).
- ``night_death``: ``round``, ``seat``, ``role``; or ``nobody_died``: ``round``.
- ``votes_revealed``: ``round``, ``votes`` (list of ``[voter, target]`` pairs in voting order,
  target ``None`` = abstain), ``eliminated`` (a seat or ``None``), ``role`` (the eliminated
  seat's role or ``None``).
- ``game_over``: ``winner`` (``village`` / ``wolves``), ``winners`` (seats), ``roles`` (per seat).

Rulings where the spec is silent (also in the report):

- Chat (``can_chat``) is open only to living seats during DAY_DISCUSSION. It is closed during
  DAY_VOTE too, so that nobody can announce a vote before the "simultaneous-looking" reveal
  (§3.4), and closed to everybody at night, to the dead and to spectators. After the game ends
  every seated player (alive or dead) may chat: nothing is secret any more.
- During DAY_DISCUSSION ``order`` is empty and ``turn`` is 0 (nobody is on turn).
- Readiness (§3.3) is a list of ready seats; the discussion ends when every living seat is ready.
- A night "no pick" is told only to the seat itself (fellow wolves are not told that a wolf made
  no pick); the wolves' tally simply lacks that vote.
- The doctor's ``last_protected`` also holds for a self-protection (§8.5) and is cleared by a
  night without a pick.
- A dead seat keeps its slot (its own role and old results) and its log entries; it receives no
  new private entries (§5).
- Chat after death, post-game chat and the platform's use of readiness are view conveniences, not
  rules: the engine has no chat action.
"""

from __future__ import annotations

import random
from collections import Counter
from enum import StrEnum
from typing import Any

from games.base import Action, Engine, Result, State, View, gettext_noop, shuffled
from games.werewolf.roles import WOLVES_FOR, Inquiry, Role, Team, role_multiset, team_of


class Phase(StrEnum):
    NIGHT = "night"
    DAY_DISCUSSION = "day_discussion"
    DAY_VOTE = "day_vote"
    OVER = "over"


TIMERS: dict[str, float] = {
    "night_turn_max_s": 30,
    "night_turn_min_s": 5,
    "discussion_s": 180,
    "vote_turn_s": 30,
}


def living(public: dict[str, Any]) -> list[int]:
    return [s for s, alive in enumerate(public["alive"]) if alive]


def round_order(public: dict[str, Any]) -> list[int]:
    """§3 order of round r: the living seats clockwise from the first living seat at or after
    seat ``(r - 1) mod N``."""
    n = len(public["alive"])
    first = (public["round"] - 1) % n
    return [s for s in ((first + k) % n for k in range(n)) if public["alive"][s]]


def turn_seat(public: dict[str, Any]) -> int | None:
    if public["phase"] in (Phase.NIGHT, Phase.DAY_VOTE) and public["turn"] < len(public["order"]):
        seat: int = public["order"][public["turn"]]
        return seat
    return None


def night_targets(public: dict[str, Any], slot: dict[str, Any], seat: int) -> list[int]:
    """§3.1 legal night picks, from ``public`` and the seat's own slot only."""
    alive = living(public)
    role = slot["role"]
    if role == Role.WOLF:
        return [t for t in alive if t not in slot["wolves"]]
    if role == Role.DOCTOR:
        return [t for t in alive if t != slot["last_protected"]]
    return [t for t in alive if t != seat]


def unique_top(choices: list[int | None]) -> int | None:
    """The single most-chosen seat (``None`` choices ignored), or ``None`` if nobody was chosen
    or several seats share the highest count (§3.2 step 1, §3.5 step 2)."""
    tally = Counter(c for c in choices if c is not None).most_common(2)
    if not tally or (len(tally) == 2 and tally[0][1] == tally[1][1]):
        return None
    return tally[0][0]


class WerewolfEngine(Engine):
    slug = "werewolf"
    name = gettext_noop("Werewolf")
    min_players = 5
    max_players = 10
    options = ()
    timers = TIMERS

    # -- §2 setup --------------------------------------------------------------------------------

    def _setup(self, n_players: int, options: dict[str, Any], seed: int, rng: random.Random) -> State:
        roles = self._deal(n_players, options.get("deal"), rng)
        wolves = [s for s, r in enumerate(roles) if r == Role.WOLF]
        seats: list[dict[str, Any]] = []
        log: list[dict[str, Any]] = []
        for seat, role in enumerate(roles):
            slot: dict[str, Any] = {"role": role, "closing": False, "pick": None, "vote": None}
            entry: dict[str, Any] = {"to": [seat], "kind": "role_dealt", "seat": seat, "role": role}
            if role == Role.WOLF:
                slot["wolves"] = list(wolves)
                entry["wolves"] = list(wolves)
            elif role == Role.SEER:
                slot["seer_results"] = []
            elif role == Role.DOCTOR:
                slot["last_protected"] = None
            seats.append(slot)
            log.append(entry)
        public: dict[str, Any] = {
            "phase": Phase.NIGHT.value,
            "round": 1,
            "order": [],
            "turn": 0,
            "alive": [True] * n_players,
            "dead_roles": [None] * n_players,
            "ready": [],
            "voted": [],
            "winner": None,
            "over": False,
        }
        state: State = {"public": public, "seats": seats, "hidden": {}, "log": log}
        self._begin_night(state)
        return state

    @staticmethod
    def _deal(n_players: int, deal: Any, rng: random.Random) -> list[str]:
        roles = role_multiset(n_players)
        if deal is None:
            return shuffled(rng, roles)
        # §10.0 / §8.11: the deal is exactly {"roles": [...]}, a permutation of the §1.1 multiset.
        if not isinstance(deal, dict) or set(deal) != {"roles"}:
            raise ValueError('a werewolf deal is {"roles": [one role per seat]}')
        dealt = deal["roles"]
        if not isinstance(dealt, list) or not all(isinstance(r, str) for r in dealt):
            raise ValueError("deal roles must be a list of role names")
        if sorted(dealt) != sorted(roles):
            raise ValueError(
                f"{n_players} players take exactly {WOLVES_FOR[n_players]} WOLF, 1 SEER, 1 DOCTOR and "
                f"{n_players - WOLVES_FOR[n_players] - 2} VILLAGER, not {dealt!r}"
            )
        return [Role(r).value for r in dealt]

    # -- whose decision, and which --------------------------------------------------------------

    def _awaiting(self, public: dict[str, Any]) -> list[int]:
        if public["phase"] == Phase.DAY_DISCUSSION:
            return [s for s in living(public) if s not in public["ready"]]
        seat = turn_seat(public)
        return [] if seat is None else [seat]

    def _legal(self, public: dict[str, Any], slot: dict[str, Any], seat: int) -> list[Action]:
        phase = public["phase"]
        if phase == Phase.NIGHT:
            if slot["closing"]:
                return []  # §3.1 step 2: only the close (timeout) remains
            return [{"type": "pick", "target": t} for t in night_targets(public, slot, seat)]
        if phase == Phase.DAY_DISCUSSION:
            return [{"type": "ready"}]
        if phase == Phase.DAY_VOTE:
            votes: list[Action] = [{"type": "vote", "target": t} for t in living(public) if t != seat]
            return [*votes, {"type": "vote", "target": None}]
        return []

    # -- moves ----------------------------------------------------------------------------------

    def _apply(self, state: State, seat: int, action: Action, rng: random.Random) -> None:
        phase = state["public"]["phase"]
        if phase == Phase.NIGHT:
            self._night_move(state, seat, action)
        elif phase == Phase.DAY_DISCUSSION:
            self._ready(state, seat)
        elif phase == Phase.DAY_VOTE:
            self._vote(state, seat, None if action["type"] == "timeout" else action["target"])

    def _night_move(self, state: State, seat: int, action: Action) -> None:
        public, slot = state["public"], state["seats"][seat]
        rnd = public["round"]
        if slot["closing"]:
            # §3.1 step 2: the close ends the turn; the pick stands.
            slot["closing"] = False
            public["turn"] += 1
            if public["turn"] == len(public["order"]):
                self._dawn(state)
            return
        slot["closing"] = True
        target = action.get("target") if action["type"] == "pick" else None
        slot["pick"] = target
        if target is None:
            state["log"].append({"to": [seat], "kind": "no_pick", "round": rnd, "seat": seat})
            return
        role = slot["role"]
        if role == Role.WOLF:
            # §3.1 [RULING]: a wolf's pick is told to every living wolf.
            pack = [w for w in slot["wolves"] if public["alive"][w]]
            state["log"].append({"to": pack, "kind": "wolf_pick", "round": rnd, "seat": seat, "target": target})
            return
        if role == Role.SEER:
            # §3.1: the inquiry's result is written at once to the seer's slot and log.
            target_role = state["seats"][target]["role"]
            result = (Inquiry.WOLF if target_role == Role.WOLF else Inquiry.NOT_WOLF).value
            slot["seer_results"].append({"round": rnd, "target": target, "result": result})
            state["log"].append(
                {"to": [seat], "kind": "seer_result", "round": rnd, "seat": seat, "target": target, "result": result}
            )
            return
        state["log"].append({"to": [seat], "kind": "night_pick", "round": rnd, "seat": seat, "target": target})

    def _dawn(self, state: State) -> None:
        """§3.2: tally the wolves, apply the doctor, announce, move the doctor's restriction."""
        public, seats = state["public"], state["seats"]
        rnd = public["round"]
        alive = living(public)
        wolf_picks = [seats[s]["pick"] for s in alive if seats[s]["role"] == Role.WOLF]
        attacked = unique_top(wolf_picks)
        protected = {seats[s]["pick"] for s in alive if seats[s]["role"] == Role.DOCTOR}
        for s in alive:
            if seats[s]["role"] == Role.DOCTOR:
                seats[s]["last_protected"] = seats[s]["pick"]
        if attacked is not None and attacked not in protected:
            role = self._kill(state, attacked)
            state["log"].append({"to": None, "kind": "night_death", "round": rnd, "seat": attacked, "role": role})
        else:
            # §3.2.4: never says why (tie, no picks or a save).
            state["log"].append({"to": None, "kind": "nobody_died", "round": rnd})
        if not self._check_win(state):
            public["phase"] = Phase.DAY_DISCUSSION.value
            public["order"] = []
            public["turn"] = 0
            public["ready"] = []

    def _ready(self, state: State, seat: int) -> None:
        """§3.3: ``ready`` (or its timeout); the vote begins when every living seat is ready."""
        public = state["public"]
        public["ready"] = sorted([*public["ready"], seat])
        if all(s in public["ready"] for s in living(public)):
            self._begin_vote(state)

    def _vote(self, state: State, seat: int, target: int | None) -> None:
        """§3.4: a secret vote, kept in the voter's slot until the last vote reveals them all."""
        public = state["public"]
        state["seats"][seat]["vote"] = target
        public["voted"] = [*public["voted"], seat]
        public["turn"] += 1
        if public["turn"] == len(public["order"]):
            self._reveal(state)

    def _reveal(self, state: State) -> None:
        """§3.5: publish every vote, eliminate a unique plurality, check the win."""
        public, seats = state["public"], state["seats"]
        rnd = public["round"]
        votes = [[v, seats[v]["vote"]] for v in public["order"]]
        out = unique_top([target for _, target in votes])
        role = None if out is None else self._kill(state, out)
        state["log"].append(
            {"to": None, "kind": "votes_revealed", "round": rnd, "votes": votes, "eliminated": out, "role": role}
        )
        if not self._check_win(state):
            public["round"] = rnd + 1
            self._begin_night(state)

    # -- phase starts, deaths, the win ----------------------------------------------------------

    def _begin_night(self, state: State) -> None:
        public = state["public"]
        public["phase"] = Phase.NIGHT.value
        public["order"] = round_order(public)
        public["turn"] = 0
        public["ready"] = []
        public["voted"] = []
        for slot in state["seats"]:
            slot["pick"] = None
            slot["closing"] = False
            slot["vote"] = None
        state["log"].append({"to": None, "kind": "night_began", "round": public["round"]})

    def _begin_vote(self, state: State) -> None:
        public = state["public"]
        public["phase"] = Phase.DAY_VOTE.value
        public["order"] = round_order(public)
        public["turn"] = 0
        public["voted"] = []

    @staticmethod
    def _kill(state: State, seat: int) -> str:
        role: str = state["seats"][seat]["role"]
        state["public"]["alive"][seat] = False
        state["public"]["dead_roles"][seat] = role
        return role

    @staticmethod
    def _check_win(state: State) -> bool:
        """§4: village wins with no wolf alive, wolves at parity; the game then ends at once."""
        public, seats = state["public"], state["seats"]
        alive = living(public)
        wolves = sum(1 for s in alive if seats[s]["role"] == Role.WOLF)
        others = len(alive) - wolves
        if wolves == 0:
            winner = Team.VILLAGE
        elif wolves >= others:
            winner = Team.WOLVES
        else:
            return False
        public.update(phase=Phase.OVER.value, order=[], turn=0, ready=[], winner=winner.value, over=True)
        winners = [s for s, slot in enumerate(seats) if team_of(slot["role"]) == winner]
        roles = [slot["role"] for slot in seats]
        state["log"].append(
            {"to": None, "kind": "game_over", "winner": winner.value, "winners": winners, "roles": roles}
        )
        return True

    # -- what a seat sees -----------------------------------------------------------------------

    def _seat_view(
        self, public: dict[str, Any], slot: dict[str, Any] | None, log: list[dict[str, Any]], seat: int | None
    ) -> View:
        phase = public["phase"]
        on_turn = turn_seat(public)
        alive_me = seat is not None and public["alive"][seat]
        if phase == Phase.OVER:
            can_chat = seat is not None
        else:
            can_chat = bool(alive_me) and phase == Phase.DAY_DISCUSSION
        me = slot or {}
        rnd = public["round"]
        wolf_picks = []
        announcements = []
        votes = []
        for e in log:
            kind = e.get("kind")
            if kind == "wolf_pick" and phase == Phase.NIGHT and e["round"] == rnd:
                wolf_picks.append({"seat": e["seat"], "target": e["target"]})
            elif kind == "night_death":
                announcements.append({"round": e["round"], "died": e["seat"], "role": e["role"]})
            elif kind == "nobody_died":
                announcements.append({"round": e["round"], "died": None, "role": None})
            elif kind == "votes_revealed":
                votes.append(
                    {
                        "round": e["round"],
                        "votes": [{"voter": v, "target": t} for v, t in e["votes"]],
                        "eliminated": e["eliminated"],
                        "role": e["role"],
                    }
                )
        voted = seat is not None and seat in public["voted"]
        return {
            "phase": phase,
            "round": rnd,
            "order": public["order"],
            "turn": public["turn"],
            "turn_seat": on_turn,
            "my_turn": seat is not None and on_turn == seat,
            "alive": living(public),
            "dead_roles": public["dead_roles"],
            "ready": public["ready"],
            "voted": public["voted"],
            "votes": votes,
            "announcements": announcements,
            "winner": public["winner"],
            "can_chat": can_chat,
            "chatters": living(public) if phase == Phase.DAY_DISCUSSION else [],
            "my_role": me.get("role"),
            "my_wolves": me.get("wolves", []),
            "wolf_picks": wolf_picks,
            "seer_results": me.get("seer_results", []),
            "last_protected": me.get("last_protected"),
            "my_pick": me.get("pick") if phase == Phase.NIGHT else None,
            "night_step": ("close" if me.get("closing") else "pick")
            if on_turn == seat and phase == Phase.NIGHT
            else None,
            "has_voted": voted,
            "my_vote": me.get("vote") if voted else None,
            "me": slot,
            "log": log,
        }

    def _result(self, state: State) -> Result:
        public, seats = state["public"], state["seats"]
        winner = public["winner"]
        rows = []
        winners = []
        for s, slot in enumerate(seats):
            side = team_of(slot["role"]).value
            won = side == winner
            if won:
                winners.append(s)
            rows.append({"side": side, "role": slot["role"], "score": 1 if won else 0, "alive": public["alive"][s]})
        summary = (
            "The village wins: every wolf is dead."
            if winner == Team.VILLAGE
            else "The wolves win: they are as many as the rest."
        )
        return Result(winners=winners, seats=rows, summary=summary)

    def is_out(self, state: State, seat: int) -> bool:
        """§3.5: the dead make no decision for the rest of the game."""
        return not state["public"]["alive"][seat]

    # -- clocks (§12) ---------------------------------------------------------------------------

    def time_limit(self, state: State, seat: int, timers: dict[str, float]) -> float:
        def get(key: str) -> float:
            return float(timers.get(key, TIMERS[key]))

        public = state["public"]
        if public["phase"] == Phase.NIGHT:
            closing = state["seats"][seat]["closing"]
            return get("night_turn_min_s") if closing else get("night_turn_max_s")
        if public["phase"] == Phase.DAY_DISCUSSION:
            return get("discussion_s")
        return get("vote_turn_s")

    def opens_new_window(self, before: State, after: State) -> bool:
        """A window is one night turn (pick and close share it), one discussion (readiness does
        not restart it) or one vote turn."""
        b, a = before["public"], after["public"]
        if (b["phase"], b["round"], b["turn"]) != (a["phase"], a["round"], a["turn"]):
            return bool(self.awaiting(after))
        return not self.awaiting(after) <= self.awaiting(before)


ENGINE = WerewolfEngine()

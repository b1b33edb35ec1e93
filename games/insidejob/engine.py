"""Inside Job (KOSMOS 2022), "سایه سرخ": the rules engine (spec: shared/rules/inside-job.md).

Players: 3-5 seats, clockwise positions ``0..P-1`` (the player after ``i`` is ``i+1``). With 2
seats a dummy third position, LARRY (position 2), plays face up (§11): the *controller* of each
trick (the humans alternate, starting with ``controller_first``) decides for him.

Sides: the Agents complete missions; the Insider (or the Sleeper, S6) collects intel tokens. The
Insider alone need not follow suit (§5.2.2). Special roles S1-S8 as ruled in §9.2 (data in
``roles.py``); mission cards as data in ``missions.py``; the trick winner in ``tricks.py``.

Secrets: a seat's role card, hand, the two missions it drew while choosing, the Turncoat's flip,
the Shadow's look, the Informant's hint, its role-setup pick and its ballot (``seats[i]``). Nobody
sees the mission deck, the unchosen missions, the cards set aside, LARRY's role or which special
roles a random draw put in play (``hidden``). Public: hand sizes, LARRY's hand, tokens, supply, the
chosen mission, every played card and wager, trick history, completed/failed missions, revealed
roles, who is ready/has picked/has voted, and the ballots once the last one is in.

Chance: dealer (hence first leader), role cards, the deal, the mission deck order, a random
special-role draw, the Informant's hint, LARRY's first controller; all from ``setup``'s rng, or
fixed by ``options["deal"]`` (§14.6). Nothing random happens after setup, except reshuffling the
unchosen missions into an empty deck (unreachable with 23+ cards, §5.1.4).

Actions (§5, §9.3, §10.2): ``{"type": "pick", "target": t}``, ``{"type": "mission", "index": i}``,
``{"type": "play", "card": "R8", "wager": false}`` (``wager`` always present), ``{"type": "ready"}``,
``{"type": "vote", "target": t | null}``, plus base's ``{"type": "timeout"}`` (§16, role-blind).

Log kinds (``to`` is None unless stated): ``deal`` {dealer, leader, hand_size, aside},
``role_dealt`` [seat] {role}, ``informant_hint`` [seat] {not_insider},
``role_setup_done``, ``shadow_saw`` [seat] {target, role},
``missions_drawn`` [chooser] {leader, missions}, ``mission_chosen`` {leader, chooser, mission,
trump}, ``card_played`` {position, card, wager}, ``trick_won`` {winner, mission, success, tokens},
``mission_lost`` {mission} (risky penalty; ``mission`` None for a puzzle-start mission),
``turncoat_flipped`` [seat], ``role_revealed`` {position, role}, ``discussion_started``,
``vote_started``, ``ballots_revealed`` {ballots, counts, accused, accused_role},
``timeout`` {seat, phase}, ``game_over`` {side, reason}.

Rulings of ours where the spec is silent (also in the report):
- R1 ``special_roles`` takes every list §9.3 allows (distinct roles among S1-S8, at most n - 1 of
  them besides S6, not S2 with S8 at three players; the order does not matter) and
  ``{"random": k}``; anything else raises ``OptionsRefused`` with the spec's reason. The form
  offers a menu of lists (``SPECIAL_CHOICES``). ``house_roles`` only widens the pool of a random
  draw (S5-S8); an explicit list naming S5-S8 needs no flag. A random draw never yields an
  impossible deck, and a ``k`` no deck of this table can hold is refused (§9.3).
- R2 With 2 players, ``special_roles``, ``house_roles`` are ignored (§9.3: no special roles).
- R3 ``handicap`` (§12.24) offers one change at a time: mission goal -1/+1 or intel goal -1/+1. The
  force-reveal threshold (§8.2) follows the (handicapped) table intel goal.
- R4 A deal may leave out any key; missing parts are random. ``hands`` lengths must be equal,
  above the leftover count and at most the §2 deal size; ``sum(tokens) + tricks <= 14``.
- R5 The deck can only run short through an explicit deal; then the unchosen missions are
  reshuffled under it (§5.1.4), and a single card left is still offered as ``index 0``.
- R6 After a trick resolves, ``mission``/``trump``/``trick`` are cleared; the finished trick is the
  last entry of ``history`` (every card stays public).
- R7 A force-revealed Turncoat shows the S2 card, not whether it flipped.
- R8 A vote with weights (S1) publishes the weighted counts together with the ballots.
- R9 Result ``side`` per seat: AGENTS / INSIDER (a flipped Turncoat: INSIDER; a Shadow: its
  target's side); RIVAL and SCAPEGOAT for S3 and S7.
- R10 2 players: LARRY may be named in the accusation; when LARRY is the Insider and wins on
  tokens, ``winners`` is empty.
- R11 The chooser keeps a private ``missions_drawn`` log entry, so its own view still names the
  card it put back (§14.6 scenario 18 asks only that no *other* view holds it).
- R12 An explicit ``special_roles`` list is public (``public["modules"]``); a random draw shows
  only ``"random"`` and always runs ROLE_SETUP (§9.3), so its contents stay secret.
- R13 The Turncoat's flip is judged after the mission and before the victory checks; a flipped
  Turncoat still follows suit, cannot win on tokens and is force-revealed like any non-Insider.

View keys for the UI (``_seat_view``): ``phase``, ``my_turn``, ``can_chat``, ``me`` (position,
role, role_name, side, follows_suit, intel_goal, hand sorted by suit, drawn missions, flipped,
seen, hint, pick, ballot; None for a spectator), ``players`` (per position: hand_size, tokens,
revealed, on_turn, done, ballot, larry), ``goals``, ``mission`` (id, kind, trump, label,
confirmed), ``trump``, ``led``, ``trick``, ``last_trick``, ``missions_done``, ``completed``,
``failed``, ``playable`` and ``wager_cards`` (only on one's own turn), ``playing_for_larry``,
``larry`` (hand, controller), ``vote`` (voted, ballots, result), plus ``public`` and ``log``.
"""

from __future__ import annotations

import random
from enum import StrEnum
from itertools import combinations
from typing import Any, ClassVar

from games.base import Engine, IllegalAction, Option, OptionsRefused, Result, State, View, gettext_noop, pick, shuffled
from games.insidejob import missions as M
from games.insidejob.cards import ALL_CARDS, is_card, lowest, sorted_hand, suit_of
from games.insidejob.roles import (
    AGENTS,
    BASIC_SPECIALS,
    INSIDER_CARDS,
    INSIDER_SIDE,
    NO_RANDOM_DECK,
    ROLES,
    SPECIAL_IDS,
    check_special_roles,
    role_deck,
)
from games.insidejob.tricks import winning_place


class Phase(StrEnum):
    ROLE_SETUP = "role_setup"
    MISSION_CHOICE = "mission_choice"
    PLAY = "play"
    DISCUSSION = "discussion"
    VOTE = "vote"
    GAME_OVER = "game_over"


TOTAL_TOKENS = 14
LARRY = 2  # LARRY's position in the 2-player game (§11.1)


# §2: positions -> (cards per position, mission goal, intel goal, leftover). 2 players use column 3.
TABLE: dict[int, tuple[int, int, int, int]] = {3: (13, 9, 6, 2), 4: (12, 7, 5, 2), 5: (10, 6, 4, 1)}

HANDICAPS: tuple[str, ...] = ("none", "missions-1", "missions+1", "intel-1", "intel+1")

SPECIAL_CHOICES: tuple[Any, ...] = (
    [],
    ["S1"],
    ["S2"],
    ["S3"],
    ["S4"],
    ["S1", "S4"],
    ["S2", "S3"],
    ["S8"],
    ["S3", "S7"],
    ["S5", "S6"],
    {"random": 1},
    {"random": 2},
)
SPECIAL_LABELS: tuple[str, ...] = (
    gettext_noop("None"),
    gettext_noop("Chief"),
    gettext_noop("Turncoat"),
    gettext_noop("Rival"),
    gettext_noop("Shadow"),
    gettext_noop("Chief and Shadow"),
    gettext_noop("Turncoat and Rival"),
    gettext_noop("Accomplice (house role)"),
    gettext_noop("Rival and Scapegoat (house role)"),
    gettext_noop("Informant and Sleeper (house roles)"),
    gettext_noop("One at random (secret)"),
    gettext_noop("Two at random (secret)"),
)

DEAL_KEYS = frozenset(
    {"dealer", "roles", "larry_role", "hands", "missions", "tokens", "completed", "controller_first", "informant_hint"}
)


def _side_label(role: str) -> str | None:
    return ROLES[role].side


class InsideJobEngine(Engine):
    slug: ClassVar[str] = "insidejob"
    name: ClassVar[str] = gettext_noop("Inside Job")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "wagers",
            gettext_noop("Wagering intel"),
            (False, True),
            False,
            help=gettext_noop(
                "A player may put an intel token on a card to make it trump; the trick's winner takes the tokens."
            ),
        ),
        Option(
            "risky",
            gettext_noop("Risky missions"),
            (False, True),
            False,
            help=gettext_noop("Adds four risky missions: failing one also costs the agents their last completed one."),
        ),
        Option(
            "special_roles",
            gettext_noop("Special roles"),
            SPECIAL_CHOICES,
            [],
            SPECIAL_LABELS,
            check_special_roles,
            help=gettext_noop(
                "Roles that replace plain agents, named to all (a random draw stays secret); not with two players."
            ),
        ),
        Option(
            "house_roles",
            gettext_noop("House roles in a random draw"),
            (False, True),
            False,
            help=gettext_noop(
                "Lets a random draw also deal this site's own roles: Informant, Sleeper, Scapegoat and Accomplice."
            ),
        ),
        Option(
            "handicap",
            gettext_noop("Handicap"),
            HANDICAPS,
            "none",
            (
                gettext_noop("None"),
                gettext_noop("Mission goal -1"),
                gettext_noop("Mission goal +1"),
                gettext_noop("Intel goal -1"),
                gettext_noop("Intel goal +1"),
            ),
            help=gettext_noop(
                "Moves one goal by one: fewer missions help the agents, a lower intel goal helps the Insider."
            ),
        ),
    )
    # §16 default clocks.
    timers: ClassVar[dict[str, float]] = {
        "pick_s": 30,
        "mission_s": 45,
        "play_s": 45,
        "discussion_s": 120,
        "vote_s": 60,
    }

    # --- setup (§2, §3, §9.3, §11, §14.6) --------------------------------------------------------

    def _setup(self, n_players: int, options: dict[str, Any], seed: int, rng: random.Random) -> State:
        deal = options.get("deal")
        if deal is None:
            deal = {}
        if not isinstance(deal, dict) or not set(deal) <= DEAL_KEYS:
            raise ValueError(f"deal must be an object with keys among {sorted(DEAL_KEYS)}")
        larry = n_players == 2
        positions = 3 if larry else n_players
        hand_size, mission_goal, intel_goal, leftover = TABLE[positions]
        handicap = options["handicap"]
        mission_goal += {"missions-1": -1, "missions+1": 1}.get(handicap, 0)
        intel_goal += {"intel-1": -1, "intel+1": 1}.get(handicap, 0)
        wagers, risky = bool(options["wagers"]), bool(options["risky"])

        # §3.1 dealer, §3.6 first leader to the dealer's right.
        dealer = deal.get("dealer", None)
        if dealer is None:
            dealer = pick(rng, list(range(positions)))
        if not _is_int(dealer) or not 0 <= dealer < positions:
            raise ValueError(f"dealer must be a position 0..{positions - 1}")

        # §3.2 / §9.3 roles.
        listed, random_k = self._special_choice(options, larry)
        roles, larry_role = self._roles(deal, n_players, larry, listed, random_k, options["house_roles"], rng)
        specials = [r for r in roles if r in SPECIAL_IDS]

        # §3.3 the deal.
        hands = self._hands(deal, positions, hand_size, leftover, rng)
        dealt = {c for h in hands for c in h}
        aside = [c for c in ALL_CARDS if c not in dealt]
        if "hands" not in deal:
            aside = shuffled(rng, aside)

        # §3.4 tokens (puzzle starts may change them).
        tokens = deal.get("tokens", [1] * positions)
        if not (isinstance(tokens, list) and len(tokens) == positions and all(_is_int(t) and t >= 0 for t in tokens)):
            raise ValueError(f"tokens must list {positions} non-negative counts")
        tricks = len(hands[0]) - leftover
        if sum(tokens) + tricks > TOTAL_TOKENS:
            raise ValueError("the intel supply cannot cover every trick with these tokens")
        completed = deal.get("completed", 0)
        if not _is_int(completed) or not 0 <= completed < mission_goal:
            raise ValueError(f"completed must be 0..{mission_goal - 1}")

        # §3.5 mission deck.
        deck = self._mission_deck(deal, wagers, risky, rng)

        # §11.4 controller.
        controller_first = deal.get("controller_first", None)
        if larry:
            if controller_first is None:
                controller_first = pick(rng, [0, 1])
            if controller_first not in (0, 1) or isinstance(controller_first, bool):
                raise ValueError("controller_first must be 0 or 1")
        elif controller_first is not None:
            raise ValueError("controller_first belongs to the 2-player game")

        seats: list[dict[str, Any]] = [
            {
                "role": role,
                "side": _side_label(role),
                "hand": sorted_hand(hands[i]),
                "drawn": [],
                "flipped": False,
                "pick": None,
                "seen": None,
                "hint": None,
                "ballot": None,
            }
            for i, role in enumerate(roles)
        ]
        log: list[dict[str, Any]] = []

        # §9.3 Informant's hint.
        hint = deal.get("informant_hint", None)
        if "S5" in roles:
            informant = roles.index("S5")
            candidates = [s for s in range(n_players) if s != informant and not ROLES[roles[s]].is_insider]
            if hint is None:
                hint = pick(rng, candidates)
            if hint not in candidates or isinstance(hint, bool):
                raise ValueError(f"informant_hint must be one of {candidates}")
            seats[informant]["hint"] = hint
        elif hint is not None:
            raise ValueError("informant_hint needs the Informant (S5) in play")

        leader = (dealer - 1) % positions
        role_setup = not larry and ("S4" in listed or random_k > 0)
        public: dict[str, Any] = {
            "phase": Phase.ROLE_SETUP.value if role_setup else Phase.MISSION_CHOICE.value,
            "over": False,
            "players": n_players,
            "positions": positions,
            "larry": LARRY if larry else None,
            "modules": {
                "wagers": wagers,
                "risky": risky,
                "special_roles": "random" if random_k else list(listed),
                "handicap": handicap,
            },
            "goals": {"missions": mission_goal, "intel": intel_goal, "leftover": leftover},
            "dealer": dealer,
            "leader": leader,
            "turn": None,
            "controller_first": controller_first,
            "controller": None,
            "trick_no": 0,
            "hand_sizes": [len(h) for h in hands],
            "larry_hand": sorted_hand(hands[LARRY]) if larry else None,
            "tokens": list(tokens),
            "supply": TOTAL_TOKENS - sum(tokens),
            "pot": 0,
            "aside": len(aside),
            "deck_size": len(deck),
            "mission": None,
            "trump": None,
            "led": None,
            "trick": [],
            "history": [],
            "done": completed,
            "completed": [],
            "failed": [],
            "lost": [],
            "revealed": [None] * positions,
            "picked": [False] * n_players,
            "ready": [False] * n_players,
            "voted": [False] * n_players,
            "ballots": None,
            "vote": None,
            "winner_side": None,
            "end": None,
        }
        hidden: dict[str, Any] = {
            "deck": deck,
            "box": [],
            "aside": sorted_hand(aside) if "hands" in deal else aside,
            "larry_role": larry_role,
            "specials": specials,
        }
        state: State = {"public": public, "seats": seats, "hidden": hidden, "log": log}
        log.append(
            {
                "to": None,
                "kind": "deal",
                "dealer": dealer,
                "leader": leader,
                "hand_size": len(hands[0]),
                "aside": len(aside),
            }
        )
        for s, role in enumerate(roles):
            log.append({"to": [s], "kind": "role_dealt", "role": role})
        if hint is not None:
            log.append({"to": [roles.index("S5")], "kind": "informant_hint", "not_insider": hint})
        if not role_setup:
            self._start_trick(state, leader, rng)
        return state

    @staticmethod
    def _special_choice(options: dict[str, Any], larry: bool) -> tuple[list[str], int]:
        value = options["special_roles"]
        if larry:
            return [], 0  # ruling R2
        if isinstance(value, dict):
            return [], int(value["random"])
        return sorted(value, key=SPECIAL_IDS.index), 0

    @staticmethod
    def _roles(
        deal: dict[str, Any],
        n: int,
        larry: bool,
        listed: list[str],
        random_k: int,
        house: bool,
        rng: random.Random,
    ) -> tuple[list[str], str | None]:
        pool = list(SPECIAL_IDS if house else BASIC_SPECIALS)
        if larry:
            deck = ["INSIDER", "AGENT", "AGENT"]
        elif random_k:
            valid = []
            for combo in combinations(pool, random_k):
                try:
                    valid.append(role_deck(n, list(combo)))
                except ValueError:
                    continue
            if not valid:
                raise OptionsRefused(NO_RANDOM_DECK, players=n, count=random_k)
            deck = pick(rng, valid) if "roles" not in deal else []
        else:
            deck = role_deck(n, listed)
        if "roles" not in deal:
            dealt = shuffled(rng, deck)
            if larry:
                return dealt[:2], dealt[2]
            return dealt, None
        roles = deal["roles"]
        if not (isinstance(roles, list) and len(roles) == n and all(r in ROLES for r in roles)):
            raise ValueError(f"roles must list {n} role ids")
        if larry:
            larry_role = deal.get("larry_role")
            if sorted([*roles, larry_role]) != sorted(deck):
                raise ValueError("2 players: roles and larry_role must be one Insider and two Agents")
            return list(roles), larry_role
        if "larry_role" in deal:
            raise ValueError("larry_role belongs to the 2-player game")
        if random_k:
            chosen = [r for r in roles if r in SPECIAL_IDS]
            if len(chosen) != random_k or not set(chosen) <= set(pool):
                raise ValueError(f"roles must hold {random_k} special roles from {pool}")
            deck = role_deck(n, chosen)
        if sorted(roles) != sorted(deck):
            raise ValueError(f"roles must be a deal of {sorted(deck)}")
        return list(roles), None

    @staticmethod
    def _hands(
        deal: dict[str, Any], positions: int, hand_size: int, leftover: int, rng: random.Random
    ) -> list[list[str]]:
        if "hands" not in deal:
            cards = shuffled(rng, list(ALL_CARDS))
            return [cards[i * hand_size : (i + 1) * hand_size] for i in range(positions)]
        hands = deal["hands"]
        if not (isinstance(hands, list) and len(hands) == positions and all(isinstance(h, list) for h in hands)):
            raise ValueError(f"hands must list {positions} card lists")
        flat = [c for h in hands for c in h]
        if not all(is_card(c) for c in flat) or len(set(flat)) != len(flat):
            raise ValueError("hands must hold distinct cards such as 'B7'")
        sizes = {len(h) for h in hands}
        if len(sizes) != 1 or not leftover < sizes.pop() <= hand_size:
            raise ValueError(f"hands must have equal lengths in {leftover + 1}..{hand_size}")
        return [list(h) for h in hands]

    @staticmethod
    def _mission_deck(deal: dict[str, Any], wagers: bool, risky: bool, rng: random.Random) -> list[str]:
        ids = M.in_play(wagers, risky)
        if "missions" not in deal:
            return shuffled(rng, ids)
        top = deal["missions"]
        if not (isinstance(top, list) and len(set(top)) == len(top) and all(m in ids for m in top)):
            raise ValueError(f"missions must be distinct ids among {ids}")
        return [*top, *[m for m in ids if m not in top]]

    # --- whose decision (§14.1) --------------------------------------------------------------------

    @staticmethod
    def _decider(public: dict[str, Any], position: int) -> int:
        """The seat deciding for ``position``: itself, or the trick's controller for LARRY."""
        return int(public["controller"]) if position == public["larry"] else position

    def _awaiting(self, public: dict[str, Any]) -> list[int]:
        phase = public["phase"]
        n = public["players"]
        if phase == Phase.ROLE_SETUP:
            return [s for s in range(n) if not public["picked"][s]]
        if phase == Phase.MISSION_CHOICE:
            return [self._decider(public, public["leader"])]
        if phase == Phase.PLAY:
            return [self._decider(public, public["turn"])]
        if phase == Phase.DISCUSSION:
            return [s for s in range(n) if not public["ready"][s]]
        if phase == Phase.VOTE:
            return [s for s in range(n) if not public["voted"][s]]
        return []

    # --- legal actions ---------------------------------------------------------------------------

    def _legal(self, public: dict[str, Any], slot: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        phase = public["phase"]
        if phase == Phase.ROLE_SETUP:
            return [{"type": "pick", "target": t} for t in range(public["players"]) if t != seat]
        if phase == Phase.MISSION_CHOICE:
            return [{"type": "mission", "index": i} for i in range(len(slot["drawn"]))]
        if phase == Phase.PLAY:
            return self._legal_plays(public, slot)
        if phase == Phase.DISCUSSION:
            return [{"type": "ready"}]
        if phase == Phase.VOTE:
            targets = [t for t in range(public["positions"]) if t != seat and public["revealed"][t] is None]
            return [*({"type": "vote", "target": t} for t in targets), {"type": "vote", "target": None}]
        return []

    def _legal_plays(self, public: dict[str, Any], slot: dict[str, Any]) -> list[dict[str, Any]]:
        pos = public["turn"]
        is_larry = pos == public["larry"]
        hand: list[str] = public["larry_hand"] if is_larry else slot["hand"]
        follows = is_larry or ROLES[slot["role"]].follows_suit  # §5.2.2, §11.5
        cards = hand
        if public["trick"] and follows:
            led = [c for c in hand if suit_of(c) == public["led"]]
            cards = led or hand
        can_wager = (
            public["modules"]["wagers"]
            and not is_larry
            and public["tokens"][pos] >= 1
            and public["revealed"][pos] is None
        )  # §6.1
        wagers = (False, True) if can_wager else (False,)
        return [{"type": "play", "card": c, "wager": w} for c in cards for w in wagers]

    # --- apply -----------------------------------------------------------------------------------

    def _apply(self, state: State, seat: int, action: dict[str, Any], rng: random.Random) -> None:
        public = state["public"]
        if action["type"] == "timeout":
            state["log"].append({"to": None, "kind": "timeout", "seat": seat, "phase": public["phase"]})
            action = self._timeout_action(public, state["seats"][seat], seat)
        kind = action["type"]
        if kind == "pick":
            self._apply_pick(state, seat, action["target"], rng)
        elif kind == "mission":
            self._apply_mission(state, seat, action["index"])
        elif kind == "play":
            self._apply_play(state, seat, action["card"], bool(action["wager"]), rng)
        elif kind == "ready":
            public["ready"][seat] = True
            if all(public["ready"]):
                public["phase"] = Phase.VOTE.value
                state["log"].append({"to": None, "kind": "vote_started"})
        elif kind == "vote":
            state["seats"][seat]["ballot"] = action["target"]
            public["voted"][seat] = True
            if all(public["voted"]):
                self._count_votes(state)
        else:  # pragma: no cover - base only passes legal actions
            raise IllegalAction(f"unknown action {kind!r}", "unknown_action")

    def _timeout_action(self, public: dict[str, Any], slot: dict[str, Any], seat: int) -> dict[str, Any]:
        """§16: deterministic and identical for every role."""
        phase = public["phase"]
        if phase == Phase.ROLE_SETUP:
            return {"type": "pick", "target": (seat + 1) % public["players"]}
        if phase == Phase.MISSION_CHOICE:
            return {"type": "mission", "index": 0}
        if phase == Phase.PLAY:
            pos = public["turn"]
            hand = public["larry_hand"] if pos == public["larry"] else slot["hand"]
            led = [c for c in hand if public["trick"] and suit_of(c) == public["led"]]
            return {"type": "play", "card": lowest(led or hand), "wager": False}
        if phase == Phase.DISCUSSION:
            return {"type": "ready"}
        return {"type": "vote", "target": None}

    def _apply_pick(self, state: State, seat: int, target: int, rng: random.Random) -> None:
        """§9.3 ROLE_SETUP: only the Shadow's pick shows anything."""
        public, slot = state["public"], state["seats"][seat]
        slot["pick"] = target
        public["picked"][seat] = True
        if slot["role"] == "S4":
            seen = state["seats"][target]["role"]
            slot["seen"] = {"target": target, "role": seen}
            state["log"].append({"to": [seat], "kind": "shadow_saw", "target": target, "role": seen})
        if all(public["picked"]):
            state["log"].append({"to": None, "kind": "role_setup_done"})
            self._start_trick(state, public["leader"], rng)

    def _start_trick(self, state: State, leader: int, rng: random.Random) -> None:
        """§5.1.1: the leader (or LARRY's controller) draws two missions privately."""
        public, hidden = state["public"], state["hidden"]
        public["phase"] = Phase.MISSION_CHOICE.value
        public["leader"] = leader
        public["turn"] = leader
        if public["larry"] is not None:
            public["controller"] = (public["controller_first"] + public["trick_no"]) % 2
        if len(hidden["deck"]) < 2:  # ruling R5 (§5.1.4)
            hidden["deck"] += shuffled(rng, hidden["box"])
            hidden["box"] = []
        drawn, hidden["deck"] = hidden["deck"][:2], hidden["deck"][2:]
        chooser = self._decider(public, leader)
        state["seats"][chooser]["drawn"] = drawn
        public["deck_size"] = len(hidden["deck"])
        state["log"].append({"to": [chooser], "kind": "missions_drawn", "leader": leader, "missions": drawn})

    def _apply_mission(self, state: State, seat: int, index: int) -> None:
        """§5.1.2-3: the chosen card goes face up; the other to the box, unseen."""
        public, slot = state["public"], state["seats"][seat]
        drawn = slot["drawn"]
        chosen = drawn[index]
        state["hidden"]["box"] += [m for i, m in enumerate(drawn) if i != index]
        slot["drawn"] = []
        public["mission"] = chosen
        public["trump"] = M.BY_ID[chosen].trump
        public["phase"] = Phase.PLAY.value
        state["log"].append(
            {
                "to": None,
                "kind": "mission_chosen",
                "leader": public["leader"],
                "chooser": seat,
                "mission": chosen,
                "trump": public["trump"],
            }
        )

    def _apply_play(self, state: State, seat: int, card: str, wager: bool, rng: random.Random) -> None:
        """§5.2 one card, clockwise; §6.1 an optional wager; the last card resolves the trick."""
        public = state["public"]
        pos = public["turn"]
        if pos == public["larry"]:
            public["larry_hand"].remove(card)
        else:
            state["seats"][seat]["hand"].remove(card)
        public["hand_sizes"][pos] -= 1
        if wager:
            public["tokens"][pos] -= 1
            public["pot"] += 1
        if not public["trick"]:
            public["led"] = suit_of(card)
        public["trick"].append({"pos": pos, "card": card, "wager": wager})
        state["log"].append({"to": None, "kind": "card_played", "position": pos, "card": card, "wager": wager})
        if len(public["trick"]) < public["positions"]:
            public["turn"] = (pos + 1) % public["positions"]
        else:
            self._resolve_trick(state, rng)

    def _resolve_trick(self, state: State, rng: random.Random) -> None:
        """§5.4 tokens and mission, §8 victory and reveal checks, §10.1 end of the hands."""
        public, log = state["public"], state["log"]
        trick, trump, mission = public["trick"], public["trump"], public["mission"]
        place = winning_place(trick, trump)
        winner = trick[place]["pos"]
        gain = 1 + public["pot"]  # §5.4.1 and §6.3
        public["tokens"][winner] += gain
        public["supply"] -= 1
        public["pot"] = 0
        success = M.succeeds(mission, trick, trump, place)
        public["history"].append(
            {
                "leader": public["leader"],
                "mission": mission,
                "trump": trump,
                "plays": trick,
                "winner": winner,
                "success": success,
                "tokens": gain,
            }
        )
        log.append(
            {"to": None, "kind": "trick_won", "winner": winner, "mission": mission, "success": success, "tokens": gain}
        )
        if success:
            public["done"] += 1
            public["completed"].append(mission)
        else:
            public["failed"].append(mission)
            if M.BY_ID[mission].kind == "risky" and public["done"] > 0:  # §7.4 penalty
                public["done"] -= 1
                lost = public["completed"].pop() if public["completed"] else None
                public["lost"].append(lost)
                log.append({"to": None, "kind": "mission_lost", "mission": lost})
        public.update(mission=None, trump=None, led=None, trick=[], turn=None)
        if not success and winner < public["players"]:  # §9.2 S2 Turncoat
            slot = state["seats"][winner]
            if slot["role"] == "S2" and not slot["flipped"]:
                slot["flipped"] = True
                slot["side"] = INSIDER_SIDE
                log.append({"to": [winner], "kind": "turncoat_flipped"})

        # §8.1 victory: the Insider's tokens first, so a double goal goes to the Insider (ruling 7).
        insider = self._insider_position(state)
        insider_role = self._role_at(state, insider)
        if public["tokens"][insider] >= public["goals"]["intel"] + ROLES[insider_role].intel_goal_delta:
            self._finish(state, INSIDER_SIDE, "intel_goal")
            return
        if public["done"] >= public["goals"]["missions"]:
            self._finish(state, AGENTS, "mission_goal")
            return
        # §8.2 forced reveal of a non-Insider.
        for pos in range(public["positions"]):
            if pos != insider and public["revealed"][pos] is None and public["tokens"][pos] >= public["goals"]["intel"]:
                role = self._role_at(state, pos)
                public["revealed"][pos] = role
                log.append({"to": None, "kind": "role_revealed", "position": pos, "role": role})
        # §10.1 end of the tricks.
        if all(size == public["goals"]["leftover"] for size in public["hand_sizes"]):
            public["phase"] = Phase.DISCUSSION.value
            public["leader"] = None
            public["controller"] = None
            log.append({"to": None, "kind": "discussion_started"})
            return
        public["trick_no"] += 1
        self._start_trick(state, winner, rng)

    @staticmethod
    def _role_at(state: State, pos: int) -> str:
        if pos == state["public"]["larry"]:
            return str(state["hidden"]["larry_role"])
        return str(state["seats"][pos]["role"])

    def _insider_position(self, state: State) -> int:
        for pos in range(state["public"]["positions"]):
            if self._role_at(state, pos) in INSIDER_CARDS:
                return pos
        raise AssertionError("no Insider in play")  # pragma: no cover

    def _count_votes(self, state: State) -> None:
        """§10.2 (3-5 players) or §11.7 (2 players): publish all ballots at once and decide."""
        public, seats = state["public"], state["seats"]
        ballots = [s["ballot"] for s in seats]
        counts = [0] * public["positions"]
        for s, target in enumerate(ballots):
            if target is not None:
                counts[target] += ROLES[seats[s]["role"]].vote_weight
        insider = self._insider_position(state)
        accused: int | None = None
        accused_role: str | None = None
        if public["larry"] is not None:
            agents = [s for s in range(public["players"]) if seats[s]["role"] == "AGENT"]
            side = AGENTS if all(ballots[s] == insider for s in agents) else INSIDER_SIDE
        else:
            top = max(counts)
            leaders = [p for p, c in enumerate(counts) if c == top]
            if top > 0 and len(leaders) == 1:
                accused = leaders[0]
                accused_role = self._role_at(state, accused)
                public["revealed"][accused] = accused_role
            side = AGENTS if accused == insider else INSIDER_SIDE
        public["ballots"] = ballots
        public["vote"] = {"counts": counts, "accused": accused, "accused_role": accused_role}
        state["log"].append(
            {
                "to": None,
                "kind": "ballots_revealed",
                "ballots": ballots,
                "counts": counts,
                "accused": accused,
                "accused_role": accused_role,
            }
        )
        self._finish(state, side, "accusation" if public["larry"] is not None else "vote")

    def _finish(self, state: State, side: str, reason: str) -> None:
        public = state["public"]
        public.update(phase=Phase.GAME_OVER.value, over=True, winner_side=side, end=reason, turn=None)
        state["log"].append({"to": None, "kind": "game_over", "side": side, "reason": reason})

    # --- result (§10.3) ----------------------------------------------------------------------------

    def _result(self, state: State) -> Result:
        public, seats = state["public"], state["seats"]
        winning = public["winner_side"]
        positions = public["positions"]

        def plain_side(pos: int) -> str:
            """§9.2: the side of a position for another player's dependency."""
            role = self._role_at(state, pos)
            if pos < public["players"] and seats[pos]["flipped"]:
                return INSIDER_SIDE
            return ROLES[role].side or AGENTS

        rows: list[dict[str, Any]] = []
        winners: list[int] = []
        accused = (public["vote"] or {}).get("accused")
        for s, slot in enumerate(seats):
            role = slot["role"]
            if role == "S3":
                side, won = "RIVAL", winning != plain_side((s - 1) % positions)
            elif role == "S4":
                target = slot["pick"]
                side = plain_side(target) if target is not None else AGENTS
                won = winning == side
            elif role == "S7":
                side, won = "SCAPEGOAT", public["end"] == "vote" and accused == s
            else:
                side = plain_side(s)
                won = side == winning
            rows.append({"side": side, "role": role, "score": public["tokens"][s]})
            if won:
                winners.append(s)
        reason = {
            "intel_goal": "the Insider gathered enough intel",
            "mission_goal": "the agents completed their missions",
            "vote": "the vote",
            "accusation": "the accusation",
        }[public["end"]]
        who = "Agents" if winning == AGENTS else "Insider"
        summary = f"{who} win by {reason} ({public['done']} missions completed)."
        return Result(winners=winners, seats=rows, summary=summary)

    # --- clocks (§16) ----------------------------------------------------------------------------

    def time_limit(self, state: State, seat: int, timers: dict[str, float]) -> float:
        key = {
            Phase.ROLE_SETUP: "pick_s",
            Phase.MISSION_CHOICE: "mission_s",
            Phase.PLAY: "play_s",
            Phase.DISCUSSION: "discussion_s",
            Phase.VOTE: "vote_s",
        }.get(Phase(state["public"]["phase"]), "play_s")
        return float(timers.get(key, self.timers[key]))

    def opens_new_window(self, before: State, after: State) -> bool:
        """A new phase, or the next single decision of a trick (the leader's card after the
        mission, the controller's play for LARRY after his own); simultaneous phases keep theirs."""
        b, a = before["public"], after["public"]
        if a["phase"] != b["phase"]:
            return True
        if a["phase"] in (Phase.MISSION_CHOICE, Phase.PLAY):
            return (a["trick_no"], len(a["trick"])) != (b["trick_no"], len(b["trick"]))
        return False

    # --- views -------------------------------------------------------------------------------------

    def _seat_view(
        self, public: dict[str, Any], slot: dict[str, Any] | None, log: list[dict[str, Any]], seat: int | None
    ) -> View:
        awaiting = self._awaiting(public) if not public["over"] else []
        my_turn = seat is not None and seat in awaiting
        phase = public["phase"]
        positions = public["positions"]
        players = [
            {
                "position": p,
                "larry": p == public["larry"],
                "hand_size": public["hand_sizes"][p],
                "tokens": public["tokens"][p],
                "revealed": public["revealed"][p],
                "on_turn": phase in (Phase.MISSION_CHOICE, Phase.PLAY) and public["turn"] == p,
                "done": self._is_done(public, p),
                "ballot": public["ballots"][p] if public["ballots"] is not None and p < public["players"] else None,
            }
            for p in range(positions)
        ]
        me: dict[str, Any] | None = None
        playable: list[str] = []
        wager_cards: list[str] = []
        if slot is not None and seat is not None:
            role = ROLES[slot["role"]]
            me = {
                "position": seat,
                "role": slot["role"],
                "role_name": role.name,
                "side": slot["side"],
                "follows_suit": role.follows_suit,
                "intel_goal": public["goals"]["intel"] + role.intel_goal_delta,
                "hand": list(slot["hand"]),
                "drawn": [M.public_info(m) for m in slot["drawn"]],
                "flipped": slot["flipped"],
                "seen": slot["seen"],
                "hint": slot["hint"],
                "pick": slot["pick"],
                "ballot": slot["ballot"],
            }
            if my_turn and phase == Phase.PLAY:
                legal = self._legal_plays(public, slot)
                playable = [a["card"] for a in legal if not a["wager"]]
                wager_cards = [a["card"] for a in legal if a["wager"]]
        history = public["history"]
        return {
            "phase": phase,
            "my_turn": my_turn,
            "can_chat": not public["over"],
            "me": me,
            "public": public,
            "log": log,
            "players": players,
            "goals": public["goals"],
            "mission": M.public_info(public["mission"]) if public["mission"] else None,
            "trump": public["trump"],
            "led": public["led"],
            "trick": public["trick"],
            "last_trick": history[-1] if history else None,
            "missions_done": public["done"],
            "completed": [M.public_info(m) for m in public["completed"]],
            "failed": [M.public_info(m) for m in public["failed"]],
            "playable": playable,
            "wager_cards": wager_cards,
            "playing_for_larry": my_turn and phase == Phase.PLAY and public["turn"] == public["larry"],
            "larry": None
            if public["larry"] is None
            else {
                "position": public["larry"],
                "hand": public["larry_hand"],
                "controller": public["controller"],
            },
            "vote": {"voted": public["voted"], "ballots": public["ballots"], "result": public["vote"]},
        }

    @staticmethod
    def _is_done(public: dict[str, Any], pos: int) -> bool:
        if pos >= public["players"]:
            return False
        phase = public["phase"]
        if phase == Phase.ROLE_SETUP:
            return bool(public["picked"][pos])
        if phase == Phase.DISCUSSION:
            return bool(public["ready"][pos])
        if phase == Phase.VOTE:
            return bool(public["voted"][pos])
        return False


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


ENGINE = InsideJobEngine()

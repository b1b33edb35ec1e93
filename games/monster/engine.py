"""Monster («هیولا»): mad scientists send monsters to hunt victims (spec shared/rules/monster.md).

Players: 2-5 mad scientists, seats ``0..n-1`` sitting clockwise; the left neighbour of ``s`` is
``s+1``, the right neighbour ``s-1`` (§5.0). Each holds the same nine monsters, strengths 0-8
(``cards.Monster``). A game is 3 nights (§2); with 2 players a match of nights, first to 2 (or 3)
night tokens (§10). A night is hands of one victim per player until the deck runs short (§5).

Secrets (§13.2):
* each seat's face-down pick of the hand lives in its own slot, ``seats[s]["selection"]``, until
  every seat has picked; the public record only says who has picked (``public.chosen``);
* the order of the victim deck lives in ``hidden["deck"]`` (and ``hidden["decks"]``, explicit
  decks of later nights from a deal). Everything else is public: hands are deducible from the
  face-up played and discarded monsters, so they live in ``public.hands`` (§14 #24).

Chance: the turn-order track at setup and each night's deck shuffle (setup rng, then the rng of
the ``apply`` that ends the previous night). ``options["deal"]`` (§9.0) fixes both.

Flow (§13.1): SELECT (all seats without a pick) -> reveal (inside the last pick's ``apply``) ->
one-dot abilities high to low, ties by tile (§5.4: Vampire, Werewolf, Mummy, Blob) -> hunting
order (§5.5) -> hunting turns (§5.6) -> leftovers burned, track rotated (§5.7) -> next hand, or
night scoring (§7) -> next night or the end (§8, §10). A decision with exactly one legal option
is applied automatically (§14 #23), and logged like a chosen one.

Decisions (``public.phase``) and their actions (§5, §16 timeouts in brackets):
* ``select``: ``{"type": "select", "monster": k}`` [lowest monster in hand];
* ``absorb`` (Blob's owner): ``{"type": "absorb", "monster": k | None}`` [decline; absorb the
  lowest when ``blob_optional`` is off];
* ``discard`` (Werewolf's target): ``{"type": "discard", "monster": k}`` [lowest];
* ``take`` (a hunting turn, the Invader's second take): ``{"type": "take", "victim": id}``, plus
  ``{"type": "take", "victim": None}`` for an optional second Invader take [first victim];
* ``give`` (Swamp Creature): ``{"type": "give", "to": seat}`` [left neighbour];
* ``invisible`` (Invisible Man): ``take`` a victim (``None`` on an empty table) or
  ``{"type": "burn", "from": seat, "victim": id}`` [first victim, or nothing].

Rulings of ours where the spec is silent (also in the report):
1. A seat with one monster left in hand picks it automatically (single option, §14 #23); a seat
   whose hand is empty (only possible with a dealt ``hands`` puzzle start) sits the hand out:
   it reveals nothing and does not hunt.
2. A Vampire cancels its left neighbour only if that monster still has an ability to lose (an
   unresolved one-dot ability or a two-dot ability); otherwise the drain is logged with
   ``effect: false`` and ``public.cancelled`` stays false (scenario 6: an already-resolved
   Vampire is unaffected).
3. Variant V1 (``winner_to_bottom``): a "tie winner" is a seat placed ahead of an equal-strength
   rival by tile order within the same group, i.e. among the front Mummies, or among the
   strength-ordered seats. A front Mummy is not a tie winner over a strength-3 seat behind it:
   its ability, not its tile, put it there.
4. Explicit deal: all keys optional; ``track`` must be a permutation of the seats; ``victims``
   decks hold in-play ids, each at most once; the first deck and ``captured`` share no id;
   without a first deck, night 1 shuffles the in-play victims not in ``captured``; ``totals``
   only with 3+ players, ``tokens`` only with 2 (each below the target); ``night`` 1..3 with 3+
   players, any positive number with 2; ``hands`` lists of distinct strengths 0-8.
5. Nights with 2 players are not capped: the match ends when a seat reaches the target; every
   night gives exactly one token, so it ends by night 3 (or 5) from the usual start.
6. A Werewolf whose target has an empty hand, and a Blob whose owner has an empty hand, resolve
   with no effect (logged with ``monster: None``).
7. The view's ``log`` holds the current night's entries only (earlier nights are summed up in
   ``night_scores``), which keeps each view small; the state's log is complete.

Log kinds (all public, ``to: None``), with their parameters:

* ``night_started {night, deck_size}``; ``victims_revealed {night, hand, victims}``;
* ``monster_chosen {seat}`` (never which); ``timed_out {seat, decision}`` (decision = phase);
* ``monsters_revealed {monsters}`` (per seat: strength, or None for a seat sitting out);
* ``vampire_drains {seat, target, monster, effect}``; ``werewolf_mauls {seat, target, monster}``;
  ``mummy_checked {seat, first}``; ``blob_absorbs {seat, monster, strength}``;
* ``hunt_order {order, ties}`` (front Mummies first; ``ties``: pairs [ahead, behind] of equal
  strength, settled by tile);
* ``victim_taken {seat, victim}``; ``victim_given {seat, recipient, victim}``;
  ``victim_burned {seat, from, victim}``; ``hunt_nothing {seat}``; ``invader_stops {seat}``;
* ``leftovers_burned {victims}``; ``victims_escaped {victims}``; ``track_rotated {track}``;
* ``night_scored {night, scores, winner, totals | tokens}`` (``scores``: per seat ``plain,
  engineers, engineer_points, teen_icons, teen_points, beast, total``; ``winner`` with 2 players);
* ``game_over {winners, totals | tokens, tie_break}``.
"""

from __future__ import annotations

import random
from enum import StrEnum
from typing import Any, ClassVar, Final

from games.base import Action, Engine, Option, Result, State, View, gettext_noop, shuffled
from games.monster.cards import ALL_MONSTERS, HUNT_STEP, MONSTER_KEYS, REVEAL_STEP, VICTIMS, Monster, victims_in_play
from games.monster.scoring import score_night

NIGHTS: Final = 3  # §2, 3+ players
DEAL_KEYS: Final = frozenset({"track", "victims", "night", "totals", "tokens", "hands", "captured"})


class Phase(StrEnum):
    SELECT = "select"
    ABSORB = "absorb"
    DISCARD = "discard"
    TAKE = "take"
    GIVE = "give"
    INVISIBLE = "invisible"
    RESOLVING = "resolving"  # transient, inside one apply; never seen at rest
    NIGHT_OVER = "night_over"  # transient: scored, the next night is due
    OVER = "over"


class Rotation(StrEnum):
    EVERY_HAND = "every_hand"
    WINNER_TO_BOTTOM = "winner_to_bottom"


def _tile(public: dict[str, Any], seat: int) -> int:
    """The seat's slot on the turn-order track, 0 = top (§5.0)."""
    return int(public["track"].index(seat))


def _is_int(x: Any) -> bool:
    return type(x) is int


class MonsterEngine(Engine):
    slug: ClassVar[str] = "monster"
    name: ClassVar[str] = gettext_noop("Monster")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "tiebreak_rotation",
            gettext_noop("Turn-order tiles"),
            (Rotation.EVERY_HAND.value, Rotation.WINNER_TO_BOTTOM.value),
            Rotation.EVERY_HAND.value,
            (gettext_noop("Top tile to the bottom after every hand"), gettext_noop("Only tie winners move down")),
            help=gettext_noop(
                "Ties go to the higher tile; this sets how the tiles move after each hand."
            ),
        ),
        Option(
            "invisible_man_scope",
            gettext_noop("Invisible Man burns from"),
            ("any", "own"),
            "any",
            (gettext_noop("Any player's pile"), gettext_noop("His own pile only")),
            help=gettext_noop(
                "Instead of hunting, the Invisible Man may burn a captured victim: anyone's, or only his owner's."
            ),
        ),
        Option(
            "blob_optional",
            gettext_noop("The Blob may decline to absorb"),
            (True, False),
            True,
            (gettext_noop("Yes"), gettext_noop("No")),
            help=gettext_noop(
                "Whether the Blob's owner may keep it at strength 0 rather than discard a monster to take its strength."
            ),
        ),
        Option(
            "invader_mandatory_second",
            gettext_noop("The Invader must take a second victim"),
            (True, False),
            True,
            (gettext_noop("Yes"), gettext_noop("No")),
            help=gettext_noop("Whether the Invader must take a second victim even when it costs him points."),
        ),
        Option(
            "two_player_target",
            gettext_noop("Two players: night tokens to win"),
            (2, 3),
            2,
            (gettext_noop("2 (best of 3)"), gettext_noop("3 (best of 5)")),
            help=gettext_noop("With two players, whoever first wins this many nights wins the match."),
        ),
        Option(
            "show_opponent_hands",
            gettext_noop("Show opponents' remaining monsters"),
            (True, False),
            True,
            (gettext_noop("Yes"), gettext_noop("No")),
            help=gettext_noop(
                "Show which monsters each opponent still holds (anyone could work it out from the cards played)."
            ),
        ),
    )
    # §16: 60 s for the selection from the hand's start, 30 s for every other decision.
    timers: ClassVar[dict[str, float]] = {"select_s": 60, "decision_s": 30}

    # ------------------------------------------------------------------ setup (§4, §9.0)

    def _setup(self, n_players: int, options: dict[str, Any], seed: int, rng: random.Random) -> State:
        n = n_players
        flags = {o.key: options[o.key] for o in self.options}
        deal = self._check_deal(n, options.get("deal"), flags)
        in_play = victims_in_play(n)
        track = list(deal["track"]) if "track" in deal else shuffled(rng, list(range(n)))
        captured = [list(p) for p in deal.get("captured", [[] for _ in range(n)])]
        decks = [list(d) for d in deal.get("victims", [])]
        if decks:
            first = decks.pop(0)
        else:
            taken = {v for pile in captured for v in pile}
            first = shuffled(rng, [v for v in in_play if v not in taken])
        two = n == 2
        public: dict[str, Any] = {
            "n": n,
            "flags": flags,
            "phase": Phase.RESOLVING.value,
            "night": deal.get("night", 1),
            "hand": 0,
            "decision": 0,
            "track": track,
            "table": [],
            "deck_size": 0,
            "hands": [sorted(h) for h in deal.get("hands", [ALL_MONSTERS for _ in range(n)])],
            "played": [[] for _ in range(n)],
            "discarded": [[] for _ in range(n)],
            "captured": captured,
            "burned": [],
            "chosen": [False] * n,
            "revealed": [None] * n,
            "strength": [None] * n,
            "cancelled": [False] * n,
            "queue": [],
            "front": [],
            "hunt_order": None,
            "tie_winners": [],
            "hunter": 0,
            "pending": None,
            "totals": None if two else list(deal.get("totals", [0] * n)),
            "tokens": list(deal.get("tokens", [0, 0])) if two else None,
            "night_scores": [],
            "over": False,
            "winners": [],
        }
        state: State = {
            "public": public,
            "seats": [{"selection": None} for _ in range(n)],
            "hidden": {"deck": [], "decks": decks},
            "log": [],
        }
        self._begin_night(state, first)
        self._run(state, rng)
        return state

    def _check_deal(self, n: int, deal: Any, flags: dict[str, Any]) -> dict[str, Any]:
        if deal is None:
            return {}
        if not isinstance(deal, dict) or not set(deal) <= DEAL_KEYS:
            raise ValueError(f"deal takes the keys {sorted(DEAL_KEYS)}")
        in_play = set(victims_in_play(n))

        def ids(pile: Any, what: str) -> list[str]:
            if not isinstance(pile, list) or not all(isinstance(v, str) and v in in_play for v in pile):
                raise ValueError(f"deal {what}: victims must be ids in play with {n} players")
            if len(set(pile)) != len(pile):
                raise ValueError(f"deal {what}: a victim appears twice")
            return pile

        def per_seat(key: str) -> list[Any]:
            value = deal[key]
            if not isinstance(value, list) or len(value) != n:
                raise ValueError(f"deal {key} needs one entry per seat")
            return value

        if "track" in deal and (
            not isinstance(deal["track"], list)
            or not all(_is_int(s) for s in deal["track"])
            or sorted(deal["track"]) != list(range(n))
        ):
            raise ValueError("deal track must list every seat once")
        decks = deal.get("victims", [])
        if not isinstance(decks, list):
            raise ValueError("deal victims is a list of decks")
        for i, deck in enumerate(decks):
            ids(deck, f"victims[{i}]")
        captured: list[str] = []
        if "captured" in deal:
            for pile in per_seat("captured"):
                captured += ids(pile, "captured")
        ids(captured + (decks[0] if decks else []), "first deck and captured")
        if "hands" in deal:
            for hand in per_seat("hands"):
                if (
                    not isinstance(hand, list)
                    or not all(_is_int(k) and 0 <= k <= 8 for k in hand)
                    or len(set(hand)) != len(hand)
                ):
                    raise ValueError("deal hands hold distinct strengths 0-8")
        night = deal.get("night", 1)
        if not _is_int(night) or night < 1 or (n > 2 and night > NIGHTS):
            raise ValueError("deal night is out of range")
        if "totals" in deal:
            if n == 2 or not all(_is_int(t) for t in per_seat("totals")):
                raise ValueError("deal totals: integers, 3+ players only")
        if "tokens" in deal:
            if n != 2 or not all(_is_int(t) and 0 <= t < flags["two_player_target"] for t in per_seat("tokens")):
                raise ValueError("deal tokens: 2 players only, each below the target")
        return deal

    # ------------------------------------------------------------------ decisions

    def _awaiting(self, public: dict[str, Any]) -> list[int]:
        phase = public["phase"]
        if phase == Phase.SELECT:
            return [s for s in range(public["n"]) if not public["chosen"][s]]
        if public["pending"] is not None:
            return [public["pending"]["seat"]]
        return []

    def _legal(self, public: dict[str, Any], slot: dict[str, Any], seat: int) -> list[Action]:
        return self._options(public, seat)

    def _options(self, public: dict[str, Any], seat: int) -> list[Action]:
        """Every legal action of the awaited ``seat`` (without the timeout): reads ``public`` only."""
        phase = public["phase"]
        hand: list[int] = public["hands"][seat]
        flags = public["flags"]
        if phase == Phase.SELECT:
            return [] if public["chosen"][seat] else [{"type": "select", "monster": k} for k in hand]
        pending = public["pending"]
        if pending is None or pending["seat"] != seat:
            return []
        table: list[str] = public["table"]
        if phase == Phase.ABSORB:
            out: list[Action] = [{"type": "absorb", "monster": k} for k in hand]
            return out + [{"type": "absorb", "monster": None}] if flags["blob_optional"] else out
        if phase == Phase.DISCARD:
            return [{"type": "discard", "monster": k} for k in hand]
        if phase == Phase.TAKE:
            out = [{"type": "take", "victim": v} for v in table]
            if pending["second"] and not flags["invader_mandatory_second"]:
                out.append({"type": "take", "victim": None})
            return out
        if phase == Phase.GIVE:
            return [{"type": "give", "to": t} for t in range(public["n"]) if t != seat]
        if phase == Phase.INVISIBLE:
            out = [{"type": "take", "victim": v} for v in table] if table else [{"type": "take", "victim": None}]
            piles = [seat] if flags["invisible_man_scope"] == "own" else list(range(public["n"]))
            out += [{"type": "burn", "from": t, "victim": v} for t in piles for v in public["captured"][t]]
            return out
        return []

    def _timeout_action(self, public: dict[str, Any], seat: int) -> Action:
        """§16: the deterministic default of the decision ``seat`` missed."""
        phase = public["phase"]
        hand = public["hands"][seat]
        table = public["table"]
        if phase == Phase.SELECT:
            return {"type": "select", "monster": min(hand)}
        if phase == Phase.ABSORB:
            return {"type": "absorb", "monster": None if public["flags"]["blob_optional"] else min(hand)}
        if phase == Phase.DISCARD:
            return {"type": "discard", "monster": min(hand)}
        if phase == Phase.GIVE:
            return {"type": "give", "to": (seat + 1) % public["n"]}
        return {"type": "take", "victim": table[0] if table else None}  # TAKE, INVISIBLE

    def _apply(self, state: State, seat: int, action: Action, rng: random.Random) -> None:
        public = state["public"]
        if action["type"] == "timeout":
            state["log"].append({"to": None, "kind": "timed_out", "seat": seat, "decision": public["phase"]})
            action = self._timeout_action(public, seat)
        self._resolve(state, seat, action)
        self._run(state, rng)

    def _resolve(self, state: State, seat: int, action: Action) -> None:
        """Carry out one decision (chosen, timed out or automatic)."""
        public = state["public"]
        log = state["log"]
        kind = action["type"]
        if kind == "select":
            state["seats"][seat]["selection"] = action["monster"]
            public["chosen"][seat] = True
            log.append({"to": None, "kind": "monster_chosen", "seat": seat})
            if all(public["chosen"]):
                self._reveal(state)
            return
        pending = public["pending"]
        public["pending"] = None
        public["phase"] = Phase.RESOLVING.value
        if kind == "absorb":  # §6.0
            k = action["monster"]
            if k is not None:
                public["hands"][seat].remove(k)
                public["discarded"][seat].append(k)
                public["strength"][seat] = k
            log.append({"to": None, "kind": "blob_absorbs", "seat": seat, "monster": k, "strength": k or 0})
        elif kind == "discard":  # §6.5
            k = action["monster"]
            public["hands"][seat].remove(k)
            public["discarded"][seat].append(k)
            log.append({"to": None, "kind": "werewolf_mauls", "seat": pending["by"], "target": seat, "monster": k})
        elif kind == "take":
            self._take(state, seat, action["victim"], pending)
        elif kind == "give":  # §6.1
            public["captured"][action["to"]].append(pending["victim"])
            log.append(
                {
                    "to": None,
                    "kind": "victim_given",
                    "seat": seat,
                    "recipient": action["to"],
                    "victim": pending["victim"],
                }
            )
            public["hunter"] += 1
        elif kind == "burn":  # §6.2 (b)
            public["captured"][action["from"]].remove(action["victim"])
            public["burned"].append(action["victim"])
            log.append(
                {"to": None, "kind": "victim_burned", "seat": seat, "from": action["from"], "victim": action["victim"]}
            )
            public["hunter"] += 1

    def _take(self, state: State, seat: int, victim: str | None, pending: dict[str, Any]) -> None:
        public = state["public"]
        log = state["log"]
        if victim is None:
            if pending.get("second"):
                log.append({"to": None, "kind": "invader_stops", "seat": seat})
            else:
                log.append({"to": None, "kind": "hunt_nothing", "seat": seat})
            public["hunter"] += 1
            return
        public["table"].remove(victim)
        log.append({"to": None, "kind": "victim_taken", "seat": seat, "victim": victim})
        monster = public["revealed"][seat]
        active = not public["cancelled"][seat]
        if monster == Monster.SWAMP_CREATURE and active:  # §6.1: must give it away
            self._decide(public, Phase.GIVE, {"seat": seat, "victim": victim})
            return
        public["captured"][seat].append(victim)
        if monster == Monster.INVADER and active and not pending.get("second") and public["table"]:  # §6.4
            self._decide(public, Phase.TAKE, {"seat": seat, "second": True})
            return
        public["hunter"] += 1

    def _decide(self, public: dict[str, Any], phase: Phase, pending: dict[str, Any]) -> None:
        public["phase"] = phase.value
        public["pending"] = pending
        public["decision"] += 1

    # ------------------------------------------------------------------ the automatic part

    def _run(self, state: State, rng: random.Random) -> None:
        """Advance until a seat must decide with a real choice, or the game ends."""
        public = state["public"]
        while True:
            phase = public["phase"]
            if phase == Phase.OVER:
                return
            if phase == Phase.SELECT:
                lone = [s for s in range(public["n"]) if not public["chosen"][s] and len(public["hands"][s]) == 1]
                if not lone:
                    return
                # ruling 1: a seat with a single monster left picks it automatically
                self._resolve(state, lone[0], {"type": "select", "monster": public["hands"][lone[0]][0]})
                continue
            if phase == Phase.NIGHT_OVER:
                self._next_night(state, rng)
                continue
            pending = public["pending"]
            if pending is not None:
                options = self._options(public, pending["seat"])
                if len(options) == 1:
                    self._resolve(state, pending["seat"], options[0])
                    continue
                return
            if public["queue"]:
                self._reveal_ability(state, public["queue"].pop(0))
            elif public["hunt_order"] is None:
                self._order_hunt(state)
            elif public["hunter"] < len(public["hunt_order"]):
                self._begin_hunt(state, public["hunt_order"][public["hunter"]])
            else:
                self._end_hand(state)

    # §5.1, §7.6
    def _begin_night(self, state: State, deck: list[str]) -> None:
        public = state["public"]
        state["hidden"]["deck"] = deck
        public["deck_size"] = len(deck)
        public["hand"] = 0
        state["log"].append({"to": None, "kind": "night_started", "night": public["night"], "deck_size": len(deck)})
        self._begin_hand(state)

    def _begin_hand(self, state: State) -> None:
        public = state["public"]
        n = public["n"]
        deck = state["hidden"]["deck"]
        if len(deck) < n:  # §5.7.4: a short deck ends the night; its cards escape
            if deck:
                public["burned"] += deck
                state["log"].append({"to": None, "kind": "victims_escaped", "victims": list(deck)})
            state["hidden"]["deck"] = []
            public["deck_size"] = 0
            self._end_night(state)
            return
        public["table"] = deck[:n]
        state["hidden"]["deck"] = deck[n:]
        public["deck_size"] = len(deck) - n
        public["hand"] += 1
        public["chosen"] = [not hand for hand in public["hands"]]  # ruling 1: an empty hand sits out
        public["revealed"] = [None] * n
        public["strength"] = [None] * n
        public["cancelled"] = [False] * n
        public["queue"] = []
        public["front"] = []
        public["hunt_order"] = None
        public["tie_winners"] = []
        public["hunter"] = 0
        public["pending"] = None
        public["phase"] = Phase.SELECT.value
        public["decision"] += 1
        state["log"].append(
            {
                "to": None,
                "kind": "victims_revealed",
                "night": public["night"],
                "hand": public["hand"],
                "victims": list(public["table"]),
            }
        )
        if all(public["chosen"]):
            self._reveal(state)

    # §5.3
    def _reveal(self, state: State) -> None:
        public = state["public"]
        for s, slot in enumerate(state["seats"]):
            k = slot["selection"]
            slot["selection"] = None
            public["revealed"][s] = k
            public["strength"][s] = k
            if k is not None:
                public["hands"][s].remove(k)
                public["played"][s].append(k)
        public["phase"] = Phase.RESOLVING.value
        state["log"].append({"to": None, "kind": "monsters_revealed", "monsters": list(public["revealed"])})
        # §5.4: one-dot abilities, printed strength high to low, ties by tile.
        dotted = [s for s, k in enumerate(public["revealed"]) if k in REVEAL_STEP]
        public["queue"] = sorted(dotted, key=lambda s: (-public["revealed"][s], _tile(public, s)))

    def _reveal_ability(self, state: State, seat: int) -> None:
        public = state["public"]
        n = public["n"]
        log = state["log"]
        if public["cancelled"][seat]:
            return  # drained before its turn (§5.4)
        k = public["revealed"][seat]
        if k == Monster.VAMPIRE:  # §6.6: the left neighbour's monster loses its ability
            target = (seat + 1) % n
            monster = public["revealed"][target]
            effect = monster is not None and (monster in HUNT_STEP or target in public["queue"])
            if effect:
                public["cancelled"][target] = True
            log.append(
                {
                    "to": None,
                    "kind": "vampire_drains",
                    "seat": seat,
                    "target": target,
                    "monster": monster,
                    "effect": effect,
                }
            )
        elif k == Monster.WEREWOLF:  # §6.5: the right neighbour discards a card of their choice
            target = (seat - 1) % n
            if public["hands"][target]:
                self._decide(public, Phase.DISCARD, {"seat": target, "by": seat})
            else:
                log.append({"to": None, "kind": "werewolf_mauls", "seat": seat, "target": target, "monster": None})
        elif k == Monster.MUMMY:  # §6.3: a revealed Kaiju sends it to the front
            first = Monster.KAIJU in public["revealed"]
            if first:
                public["front"].append(seat)
            log.append({"to": None, "kind": "mummy_checked", "seat": seat, "first": first})
        elif k == Monster.BLOB:  # §6.0
            if public["hands"][seat]:
                self._decide(public, Phase.ABSORB, {"seat": seat})
            else:
                log.append({"to": None, "kind": "blob_absorbs", "seat": seat, "monster": None, "strength": 0})

    # §5.5
    def _order_hunt(self, state: State) -> None:
        public = state["public"]
        front: list[int] = public["front"]  # already in tile order (the queue was)
        rest = sorted(
            (s for s, k in enumerate(public["revealed"]) if k is not None and s not in front),
            key=lambda s: (-public["strength"][s], _tile(public, s)),
        )
        ties: list[list[int]] = [[a, b] for a, b in zip(front, front[1:], strict=False)]
        ties += [[a, b] for a, b in zip(rest, rest[1:], strict=False) if public["strength"][a] == public["strength"][b]]
        public["hunt_order"] = front + rest
        public["tie_winners"] = sorted({a for a, _ in ties})
        public["hunter"] = 0
        state["log"].append({"to": None, "kind": "hunt_order", "order": front + rest, "ties": ties})

    # §5.6
    def _begin_hunt(self, state: State, seat: int) -> None:
        public = state["public"]
        if public["revealed"][seat] == Monster.INVISIBLE_MAN and not public["cancelled"][seat]:
            self._decide(public, Phase.INVISIBLE, {"seat": seat})
        elif public["table"]:
            self._decide(public, Phase.TAKE, {"seat": seat, "second": False})
        else:
            state["log"].append({"to": None, "kind": "hunt_nothing", "seat": seat})
            public["hunter"] += 1

    # §5.7
    def _end_hand(self, state: State) -> None:
        public = state["public"]
        log = state["log"]
        if public["table"]:
            public["burned"] += public["table"]
            log.append({"to": None, "kind": "leftovers_burned", "victims": list(public["table"])})
            public["table"] = []
        track: list[int] = public["track"]
        if public["flags"]["tiebreak_rotation"] == Rotation.WINNER_TO_BOTTOM:
            moved = [s for s in track if s in public["tie_winners"]]
        else:
            moved = track[:1]
        public["track"] = [s for s in track if s not in moved] + moved
        log.append({"to": None, "kind": "track_rotated", "track": list(public["track"])})
        public["hunt_order"] = None
        public["queue"] = []
        self._begin_hand(state)

    def _next_night(self, state: State, rng: random.Random) -> None:
        public = state["public"]
        n = public["n"]
        public["night"] += 1
        public["hands"] = [list(ALL_MONSTERS) for _ in range(n)]
        public["played"] = [[] for _ in range(n)]
        public["discarded"] = [[] for _ in range(n)]
        public["captured"] = [[] for _ in range(n)]
        public["burned"] = []
        decks = state["hidden"]["decks"]
        deck = decks.pop(0) if decks else shuffled(rng, victims_in_play(n))
        self._begin_night(state, deck)

    # §7, §8, §10
    def _end_night(self, state: State) -> None:
        public = state["public"]
        n = public["n"]
        scores = score_night(public["captured"], public["hands"])
        entry: dict[str, Any] = {"night": public["night"], "scores": scores, "winner": None}
        public["phase"] = Phase.RESOLVING.value
        public["table"] = []
        if n == 2:
            a, b = scores[0]["total"], scores[1]["total"]
            winner = 0 if a > b else 1 if b > a else min((0, 1), key=lambda s: _tile(public, s))
            public["tokens"][winner] += 1
            entry["winner"] = winner
            entry["tokens"] = list(public["tokens"])
            over = public["tokens"][winner] >= public["flags"]["two_player_target"]
        else:
            for s in range(n):
                public["totals"][s] += scores[s]["total"]
            entry["totals"] = list(public["totals"])
            over = public["night"] >= NIGHTS
        public["night_scores"].append(entry)
        state["log"].append({"to": None, "kind": "night_scored", **entry})
        if over:
            self._end_game(state)
        else:
            public["phase"] = Phase.NIGHT_OVER.value

    def _end_game(self, state: State) -> None:
        public = state["public"]
        if public["n"] == 2:
            best = max(public["tokens"])
            tied = [s for s in range(2) if public["tokens"][s] == best]
            standing = {"tokens": list(public["tokens"])}
        else:
            best = max(public["totals"])
            tied = [s for s in range(public["n"]) if public["totals"][s] == best]
            standing = {"totals": list(public["totals"])}
        winner = min(tied, key=lambda s: _tile(public, s))  # §8: ties by tile after the last rotation
        public["winners"] = [winner]
        public["over"] = True
        public["phase"] = Phase.OVER.value
        public["pending"] = None
        state["log"].append(
            {"to": None, "kind": "game_over", "winners": [winner], **standing, "tie_break": len(tied) > 1}
        )

    # ------------------------------------------------------------------ clocks

    def time_limit(self, state: State, seat: int, timers: dict[str, float]) -> float:
        if state["public"]["phase"] == Phase.SELECT:
            return float(timers.get("select_s", self.timers["select_s"]))
        return float(timers.get("decision_s", self.timers["decision_s"]))

    def opens_new_window(self, before: State, after: State) -> bool:
        """Every decision has its own clock, even for the seat that just acted (Invader's second
        take, the Swamp's gift, a Blob after its owner's own pick)."""
        return bool(before["public"]["decision"] != after["public"]["decision"]) or super().opens_new_window(
            before, after
        )

    # ------------------------------------------------------------------ views and result

    def _seat_view(
        self, public: dict[str, Any], slot: dict[str, Any] | None, log: list[dict[str, Any]], seat: int | None
    ) -> View:
        n = public["n"]
        phase = public["phase"]
        awaiting = self._awaiting(public) if not public["over"] else []
        start = max((i for i, e in enumerate(log) if e.get("kind") == "night_started"), default=0)
        in_play = victims_in_play(n)
        live = score_night(public["captured"], public["hands"])
        players = [
            {
                "seat": s,
                "tile": _tile(public, s),
                "hand": public["hands"][s],
                "hand_size": len(public["hands"][s]),
                "played": public["played"][s],
                "discarded": public["discarded"][s],
                "captured": public["captured"][s],
                "chosen": public["chosen"][s] if phase == Phase.SELECT else None,
                "revealed": public["revealed"][s],
                "strength": public["strength"][s],
                "cancelled": public["cancelled"][s],
                "total": public["totals"][s] if public["totals"] is not None else None,
                "tokens": public["tokens"][s] if public["tokens"] is not None else None,
                "night_so_far": live[s]["total"],
            }
            for s in range(n)
        ]
        me = None
        if seat is not None and slot is not None:
            me = {
                "seat": seat,
                "hand": public["hands"][seat],
                "selection": slot.get("selection"),
                "chosen": bool(public["chosen"][seat]) if phase == Phase.SELECT else None,
            }
        return {
            "phase": phase,
            "night": public["night"],
            "nights": NIGHTS if n > 2 else None,
            "hand": public["hand"],
            "hands_per_night": len(in_play) // n,
            "track": public["track"],
            "table": public["table"],
            "deck_size": public["deck_size"],
            "burned": public["burned"],
            "players": players,
            "me": me,
            "my_turn": seat is not None and seat in awaiting,
            "pending": public["pending"],
            "hunt_order": public["hunt_order"],
            "hunter": public["hunt_order"][public["hunter"]]
            if public["hunt_order"] and public["hunter"] < len(public["hunt_order"])
            else None,
            "front": public["front"],
            "night_scores": public["night_scores"],
            "totals": public["totals"],
            "tokens": public["tokens"],
            "target": public["flags"]["two_player_target"] if n == 2 else None,
            "flags": public["flags"],
            "show_opponent_hands": public["flags"]["show_opponent_hands"],
            "monster_keys": [MONSTER_KEYS[k] for k in ALL_MONSTERS],
            "table_cards": [dict(VICTIMS[v]) for v in public["table"]],
            "winners": public["winners"],
            "log": log[start:],
        }

    def _result(self, state: State) -> Result:
        public = state["public"]
        n = public["n"]
        winners = list(public["winners"])
        if n == 2:
            scores = list(public["tokens"])
            summary = f"Seat {winners[0]} wins the match {scores[winners[0]]}-{scores[1 - winners[0]]} in night tokens."
        else:
            scores = list(public["totals"])
            tied = scores.count(max(scores)) > 1
            summary = f"Seat {winners[0]} wins with {scores[winners[0]]} points after {public['night']} nights" + (
                ", the tie broken by turn-order tile." if tied else "."
            )
        return Result(
            winners=winners,
            seats=[{"side": None, "role": "scientist", "score": scores[s]} for s in range(n)],
            summary=summary,
        )


ENGINE = MonsterEngine()

"""Dracula vs Van Helsing: the rules engine (spec ``shared/rules/dracula-vs-van-helsing.md``).

Players: exactly two seats, one **Dracula** and one **Van Helsing** (option ``dracula_seat``:
``"random"`` by default, or seat ``0``/``1`` chosen by the host). At most five rounds; in each the
players draw from one 32-card deck and improve their five holder cards, slot k facing district k.
At round end the districts are compared 1 → 5: Dracula's win turns a human into a vampire (4 in one
district: Dracula wins), Van Helsing's win costs Dracula a life (0 lives: Van Helsing wins);
Dracula also wins by surviving round 5.

Secrets:
- ``seats[i]``: the seat's five holder cards, its drawn card while it decides, and
  ``known_opponent`` (the opponent's cards this seat knows because it gave them by effect 6).
- ``hidden``: the deck order (a revealed top is copied to ``public.deck_top``) and the rounds of
  an explicit deal not yet played.
- ``public``: revealed holder cards by slot, discard pile, deck count, ranking, lives, vampires,
  round, whose turn and which decision, a publicly known drawn card, every round's comparison.

Chance: the role draw (``dracula_seat: "random"``), the starting colour ranking and the shuffle of
each round's deck, all through ``games.base`` helpers on the apply's ``rng``.

Decisions (``public.phase``): ``turn_start`` (draw / call_end), ``placing`` (discard / replace),
and one phase per effect choice: ``reveal_own``, ``reveal_opponent``, ``swap_own``,
``swap_district``, ``trump``. An effect with one legal choice is applied at once, with none it is
skipped (§3.2, §8.11). ``{"type": "timeout"}`` plays the auto-move of §12.

Log kinds (params in braces; ``to`` is ``None`` unless stated):
- ``roles`` {dracula, van_helsing}: the seats of the two sides.
- ``round_started`` {round, ranking, lives, vampires}
- ``dealt`` {seat, cards} to [seat]: the five holder cards, slot 1 first.
- ``auto_move`` {seat, phase}: the clock ran out; the entries that follow are the auto-move.
- ``called_end`` {seat}
- ``drew`` {seat, card}: ``card`` is the drawn card when it was the revealed top, else ``None``.
- ``drew_card`` {seat, card} to [seat]: the drawer's private look at a hidden card.
- ``discarded`` {seat, card}: the drawn card went to the discard pile.
- ``replaced`` {seat, slot, card, placed}: the drawn card went into ``slot``; ``card`` (the old
  one) was discarded; ``placed`` is the placed card when it was public, else ``None``.
- ``effect_skipped`` {seat, value}: the discarded card's effect had no legal target.
- ``revealed_own`` {seat, slot, card} (effect 1)
- ``revealed_top`` {seat, card} (effect 2)
- ``revealed_opponent`` {seat, target, slot, card} (effect 3; ``target`` is the opponent's seat)
- ``swapped_own`` {seat, slots} (effect 4)
- ``extra_turn`` {seat} (effect 5)
- ``swapped_district`` {seat, district} (effect 6, public part)
- ``gave_card`` {seat, district, gave, received} to [seat]: each side's private part of effect 6.
- ``trump_changed`` {seat, colour, ranking} (effect 7)
- ``round_ended`` {round, reason}: reason ``call`` | ``eight`` | ``deck_empty``.
- ``round_resolved`` {round, dracula, van_helsing, winners, vampires, lives}: both holders
  (slot 1 first), the winning side of each district resolved (1, 2, ... in order; fewer than five
  when the game ended mid-way), and the board after it. The full comparison, with the ranking
  used, is ``public.comparisons[-1]``.
- ``game_over`` {winner, seat, reason}: winner ``dracula`` | ``van_helsing``; reason
  ``vampires`` (a district reached 4) | ``lives`` (lives reached 0) | ``survived`` (round 5 over).

Rulings of this engine (beyond the spec's own **[RULING]**s, which it follows):
- R1. ``dracula_seat`` choices are ``"random"`` (default), ``0`` and ``1``; ``starting_lives``
  choices are ``12`` (default) and ``11``; ``deal.lives`` overrides ``starting_lives``.
- R2. Explicit deal: every top-level key and every round-entry key is optional except a round
  entry's ``dracula`` and ``van_helsing``; ``deal.vampires`` values must be 0..3 and ``deal.lives``
  1..12 (anything else would be a finished game); an unknown key is a ``ValueError``. Rounds
  beyond the listed entries are shuffled. A listed deck may be empty (the round then ends at
  Dracula's first turn, §3.4).
- R3. Every decision is its own timer window (§7: "every decision has the same limit"), so the
  clock restarts after each accepted action while the game waits on somebody.
- R4. A seat that gave a card by effect 6 keeps knowing where it is (``known_opponent``) as the
  opponent moves it by effect 4 or 6; the knowledge ends when the card leaves the holder or the
  round ends. This is information the seat has at the table anyway.
- R5. When the game ends, every holder card of the last round is made public.
- R6. ``Result.seats[i].score``: Dracula's vampires on the board; Van Helsing's lives taken.
"""

from __future__ import annotations

import random
from typing import Any

from games.base import Action, Engine, Option, Result, State, View, gettext_noop, pick, shuffled
from games.dracula.cards import ALL_CARDS, COLOURS, beats, value, with_trump
from games.dracula.deal import check_deal
from games.dracula.model import (
    CALL_MIN_DISCARDS,
    DISTRICTS,
    DRACULA,
    HOLDER,
    ROUNDS,
    SLOTS,
    VAMPIRES_TO_WIN,
    VAN_HELSING,
    Phase,
    RoundEnd,
)
from games.dracula.view import seat_view

EIGHT = 8
SWAP_PAIRS = [[a, b] for a in SLOTS for b in SLOTS if a < b]


def _log(state: State, kind: str, to: list[int] | None = None, **params: Any) -> None:
    state["log"].append({"to": to, "kind": kind, **params})


def _may_discard(card: str, public: dict[str, Any]) -> bool:
    """§3.2 card 8 restriction: an 8 may be discarded only onto a pile of >= 6 cards."""
    return value(card) != EIGHT or len(public["discard"]) >= CALL_MIN_DISCARDS


class DraculaEngine(Engine):
    slug = "dracula"
    name = gettext_noop("Dracula vs Van Helsing")
    min_players = 2
    max_players = 2
    options = (
        Option(
            "starting_lives",
            gettext_noop("Dracula's starting lives"),
            (12, 11),
            12,
            (gettext_noop("12 (box rules)"), gettext_noop("11")),
            help=gettext_noop(
                "Van Helsing wins when Dracula has no lives left; 11 (an online version's count) helps him a little."
            ),
        ),
        Option(
            "dracula_seat",
            gettext_noop("Who plays Dracula"),
            ("random", 0, 1),
            "random",
            (gettext_noop("Random"), gettext_noop("First seat"), gettext_noop("Second seat")),
            help=gettext_noop("Which seat plays Dracula; the other seat plays Van Helsing."),
        ),
    )
    timers = {"turn_s": 60}

    # ---------------------------------------------------------------- setup (§2, §3.1)

    def _setup(self, n_players: int, options: dict[str, Any], seed: int, rng: random.Random) -> State:
        deal = check_deal(options["deal"]) if "deal" in options else {"rounds": []}
        chosen = options["dracula_seat"]
        if isinstance(chosen, bool):
            raise ValueError("dracula_seat takes 'random', 0 or 1")
        dracula = pick(rng, [0, 1]) if chosen == "random" else int(chosen)
        ranking = deal.get("ranking") or shuffled(rng, list(COLOURS))
        lives = deal.get("lives", options["starting_lives"])
        roles = [DRACULA if s == dracula else VAN_HELSING for s in range(2)]
        public: dict[str, Any] = {
            "phase": Phase.TURN_START.value,
            "over": False,
            "dracula": dracula,
            "van_helsing": 1 - dracula,
            "roles": roles,
            "turn": dracula,
            "round": deal.get("round", 1),
            "max_rounds": ROUNDS,
            "starting_lives": lives,
            "lives": lives,
            "vampires": list(deal.get("vampires", [0] * DISTRICTS)),
            "ranking": ranking,
            "deck_count": 0,
            "deck_top": None,
            "discard": [],
            "revealed": [[None] * HOLDER, [None] * HOLDER],
            "drawn": None,
            "end_called_by": None,
            "final_turn": False,
            "effect": None,
            "comparisons": [],
            "winner": None,
            "win_reason": None,
        }
        state: State = {
            "public": public,
            "seats": [
                {"role": roles[s], "holder": [], "drawn": None, "known_opponent": [None] * HOLDER} for s in range(2)
            ],
            "hidden": {"deck": [], "deal_rounds": deal["rounds"]},
            "log": [],
        }
        _log(state, "roles", dracula=dracula, van_helsing=1 - dracula)
        self._begin_round(state, rng)
        return state

    def _begin_round(self, state: State, rng: random.Random) -> None:
        """§3.1 round set-up, then Dracula's first turn (which may end the round at once, §3.4)."""
        public, hidden, seats = state["public"], state["hidden"], state["seats"]
        dracula, van_helsing = public["dracula"], public["van_helsing"]
        revealed: list[list[str | None]] = [[None] * HOLDER, [None] * HOLDER]
        if hidden["deal_rounds"]:
            entry = hidden["deal_rounds"].pop(0)
            seats[dracula]["holder"] = list(entry["holders"][DRACULA])
            seats[van_helsing]["holder"] = list(entry["holders"][VAN_HELSING])
            hidden["deck"] = list(entry["deck"])
            public["discard"] = list(entry["discard"])
            for side, seat in ((DRACULA, dracula), (VAN_HELSING, van_helsing)):
                for k in entry["revealed"][side]:
                    revealed[seat][k - 1] = seats[seat]["holder"][k - 1]
        else:
            deck = shuffled(rng, list(ALL_CARDS))
            seats[dracula]["holder"] = deck[:HOLDER]  # Dracula's five first (§8.10)
            seats[van_helsing]["holder"] = deck[HOLDER : 2 * HOLDER]
            hidden["deck"] = deck[2 * HOLDER :]
            public["discard"] = []
        for seat in seats:
            seat["drawn"] = None
            seat["known_opponent"] = [None] * HOLDER
        public.update(
            revealed=revealed,
            deck_count=len(hidden["deck"]),
            deck_top=None,
            drawn=None,
            end_called_by=None,
            final_turn=False,
            effect=None,
        )
        _log(
            state,
            "round_started",
            round=public["round"],
            ranking=list(public["ranking"]),
            lives=public["lives"],
            vampires=list(public["vampires"]),
        )
        for s in range(2):
            _log(state, "dealt", [s], seat=s, cards=list(seats[s]["holder"]))
        self._start_turn(state, dracula, rng)

    # ---------------------------------------------------------------- whose decision, which actions

    def _awaiting(self, public: dict[str, Any]) -> list[int]:
        return [] if public["over"] else [public["turn"]]

    def _legal(self, public: dict[str, Any], slot: dict[str, Any], seat: int) -> list[Action]:
        phase = public["phase"]
        other = 1 - seat
        if phase == Phase.TURN_START:
            actions: list[Action] = [{"type": "draw"}]
            if len(public["discard"]) >= CALL_MIN_DISCARDS and public["end_called_by"] is None:
                actions.append({"type": "call_end"})
            return actions
        if phase == Phase.PLACING:
            actions = [{"type": "discard"}] if _may_discard(slot["drawn"], public) else []
            actions += [{"type": "replace", "slot": k} for k in SLOTS if _may_discard(slot["holder"][k - 1], public)]
            return actions
        if phase == Phase.REVEAL_OWN:
            return [{"type": "reveal_own", "slot": k} for k in SLOTS if public["revealed"][seat][k - 1] is None]
        if phase == Phase.REVEAL_OPPONENT:
            return [{"type": "reveal_opponent", "slot": k} for k in SLOTS if public["revealed"][other][k - 1] is None]
        if phase == Phase.SWAP_OWN:
            return [{"type": "swap_own", "slots": list(pair)} for pair in SWAP_PAIRS]
        if phase == Phase.SWAP_DISTRICT:
            return [{"type": "swap_district", "district": d} for d in SLOTS]
        if phase == Phase.TRUMP:
            return [{"type": "trump", "colour": c} for c in public["ranking"][1:]]
        return []

    def _auto_move(self, public: dict[str, Any], slot: dict[str, Any], seat: int) -> Action:
        """§12: the deterministic move a timeout plays. Every choice below is legal by construction."""
        legal = self._legal(public, slot, seat)
        phase = public["phase"]
        if phase == Phase.TURN_START:
            return {"type": "draw"}
        if phase == Phase.SWAP_OWN:
            return {"type": "swap_own", "slots": [1, 2]}
        if phase == Phase.SWAP_DISTRICT:
            return {"type": "swap_district", "district": 1}
        if phase == Phase.TRUMP:
            return {"type": "trump", "colour": public["ranking"][1]}
        # placing: discard if legal, else the lowest replace; reveals: the lowest hidden slot.
        return legal[0]

    # ---------------------------------------------------------------- apply (§3.2, §4)

    def _apply(self, state: State, seat: int, action: Action, rng: random.Random) -> None:
        public = state["public"]
        if action["type"] == "timeout":
            _log(state, "auto_move", seat=seat, phase=public["phase"])
            action = self._auto_move(public, state["seats"][seat], seat)
        kind = action["type"]
        if kind == "draw":
            self._draw(state, seat)
        elif kind == "call_end":
            public["end_called_by"] = seat
            public["final_turn"] = True
            _log(state, "called_end", seat=seat)
            self._start_turn(state, 1 - seat, rng)
        elif kind == "discard":
            card = self._take_drawn(state, seat)
            _log(state, "discarded", seat=seat, card=card)
            self._discard(state, seat, card, rng)
        elif kind == "replace":
            self._replace(state, seat, action["slot"], rng)
        elif kind == "reveal_own":
            self._reveal_own(state, seat, action["slot"])
            self._end_turn(state, rng)
        elif kind == "reveal_opponent":
            self._reveal_opponent(state, seat, action["slot"])
            self._end_turn(state, rng)
        elif kind == "swap_own":
            self._swap_own(state, seat, action["slots"])
            self._end_turn(state, rng)
        elif kind == "swap_district":
            self._swap_district(state, seat, action["district"])
            self._end_turn(state, rng)
        elif kind == "trump":
            public["ranking"] = with_trump(public["ranking"], action["colour"])
            _log(state, "trump_changed", seat=seat, colour=action["colour"], ranking=list(public["ranking"]))
            self._end_turn(state, rng)
        else:  # pragma: no cover - base only passes actions found in _legal
            raise AssertionError(kind)

    def _draw(self, state: State, seat: int) -> None:
        public, hidden = state["public"], state["hidden"]
        card = hidden["deck"].pop(0)
        public["deck_count"] = len(hidden["deck"])
        known = public["deck_top"] == card
        public["deck_top"] = None
        public["drawn"] = card if known else None
        state["seats"][seat]["drawn"] = card
        public["phase"] = Phase.PLACING.value
        _log(state, "drew", seat=seat, card=card if known else None)
        if not known:
            _log(state, "drew_card", [seat], seat=seat, card=card)

    def _take_drawn(self, state: State, seat: int) -> str:
        card: str = state["seats"][seat]["drawn"]
        state["seats"][seat]["drawn"] = None
        state["public"]["drawn"] = None
        return card

    def _replace(self, state: State, seat: int, k: int, rng: random.Random) -> None:
        public, me = state["public"], state["seats"][seat]
        known = public["drawn"] is not None
        card = self._take_drawn(state, seat)
        old = me["holder"][k - 1]
        me["holder"][k - 1] = card
        # §8.6: the publicly revealed deck top stays revealed in the holder.
        public["revealed"][seat][k - 1] = card if known else None
        state["seats"][1 - seat]["known_opponent"][k - 1] = None
        _log(state, "replaced", seat=seat, slot=k, card=old, placed=card if known else None)
        self._discard(state, seat, old, rng)

    def _discard(self, state: State, seat: int, card: str, rng: random.Random) -> None:
        """Put ``card`` on the pile and apply its effect (§4), mandatory if possible."""
        public = state["public"]
        public["discard"].append(card)
        v = value(card)
        other = 1 - seat
        if v == 1:
            hidden_slots = [k for k in SLOTS if public["revealed"][seat][k - 1] is None]
            if self._choose(state, seat, v, Phase.REVEAL_OWN, len(hidden_slots)):
                return
            if len(hidden_slots) == 1:
                self._reveal_own(state, seat, hidden_slots[0])
        elif v == 2:
            if public["deck_count"] and public["deck_top"] is None:
                public["deck_top"] = state["hidden"]["deck"][0]
                _log(state, "revealed_top", seat=seat, card=public["deck_top"])
            else:
                _log(state, "effect_skipped", seat=seat, value=v)
        elif v == 3:
            hidden_slots = [k for k in SLOTS if public["revealed"][other][k - 1] is None]
            if self._choose(state, seat, v, Phase.REVEAL_OPPONENT, len(hidden_slots)):
                return
            if len(hidden_slots) == 1:
                self._reveal_opponent(state, seat, hidden_slots[0])
        elif v == 4:
            self._choose(state, seat, v, Phase.SWAP_OWN, len(SWAP_PAIRS))
            return
        elif v == 5:
            _log(state, "extra_turn", seat=seat)
            self._start_turn(state, seat, rng)
            return
        elif v == 6:
            self._choose(state, seat, v, Phase.SWAP_DISTRICT, DISTRICTS)
            return
        elif v == 7:
            self._choose(state, seat, v, Phase.TRUMP, len(COLOURS) - 1)
            return
        else:  # 8: the round ends at once, no final turn for anybody (§3.4)
            self._end_round(state, RoundEnd.EIGHT, rng)
            return
        self._end_turn(state, rng)

    def _choose(self, state: State, seat: int, v: int, phase: Phase, options: int) -> bool:
        """Ask ``seat`` for the effect's choice when it has two or more options (§8.11)."""
        if options >= 2:
            state["public"]["phase"] = phase.value
            state["public"]["effect"] = v
            return True
        if options == 0:
            _log(state, "effect_skipped", seat=seat, value=v)
        return False

    def _reveal_own(self, state: State, seat: int, k: int) -> None:
        card = state["seats"][seat]["holder"][k - 1]
        state["public"]["revealed"][seat][k - 1] = card
        _log(state, "revealed_own", seat=seat, slot=k, card=card)

    def _reveal_opponent(self, state: State, seat: int, k: int) -> None:
        other = 1 - seat
        card = state["seats"][other]["holder"][k - 1]
        state["public"]["revealed"][other][k - 1] = card
        _log(state, "revealed_opponent", seat=seat, target=other, slot=k, card=card)

    def _swap_own(self, state: State, seat: int, slots: list[int]) -> None:
        a, b = slots[0] - 1, slots[1] - 1
        for row in (
            state["seats"][seat]["holder"],
            state["public"]["revealed"][seat],
            state["seats"][1 - seat]["known_opponent"],
        ):
            row[a], row[b] = row[b], row[a]
        _log(state, "swapped_own", seat=seat, slots=list(slots))

    def _swap_district(self, state: State, seat: int, d: int) -> None:
        seats, revealed = state["seats"], state["public"]["revealed"]
        other, i = 1 - seat, d - 1
        mine, theirs = seats[seat]["holder"][i], seats[other]["holder"][i]
        seats[seat]["holder"][i], seats[other]["holder"][i] = theirs, mine
        revealed[seat][i], revealed[other][i] = revealed[other][i], revealed[seat][i]
        # Each side now knows both cards of the district (§6.2): the one it gave sits opposite.
        seats[seat]["known_opponent"][i] = mine
        seats[other]["known_opponent"][i] = theirs
        _log(state, "swapped_district", seat=seat, district=d)
        _log(state, "gave_card", [seat], seat=seat, district=d, gave=mine, received=theirs)
        _log(state, "gave_card", [other], seat=other, district=d, gave=theirs, received=mine)

    # ---------------------------------------------------------------- turns and rounds (§3.2-§3.5)

    def _end_turn(self, state: State, rng: random.Random) -> None:
        """Turn end without an extra turn: the opponent plays, or the final turn is over."""
        public = state["public"]
        if public["final_turn"]:
            self._end_round(state, RoundEnd.CALL, rng)
        else:
            self._start_turn(state, 1 - public["turn"], rng)

    def _start_turn(self, state: State, seat: int, rng: random.Random) -> None:
        public = state["public"]
        public["turn"] = seat
        public["effect"] = None
        if public["deck_count"] == 0:  # §3.4 / §8.4: a turn cannot start with an empty deck
            self._end_round(state, RoundEnd.DECK_EMPTY, rng)
            return
        public["phase"] = Phase.TURN_START.value

    def _end_round(self, state: State, reason: RoundEnd, rng: random.Random) -> None:
        """§3.5: reveal, resolve districts 1 → 5 with immediate wins, then the next round or the end."""
        public, seats = state["public"], state["seats"]
        public["effect"] = None
        _log(state, "round_ended", round=public["round"], reason=reason.value)
        ranking = public["ranking"]
        dracula_cards = list(seats[public["dracula"]]["holder"])
        helsing_cards = list(seats[public["van_helsing"]]["holder"])
        public["revealed"] = [list(seats[0]["holder"]), list(seats[1]["holder"])]
        districts = []
        winner = reason_won = None
        for i in range(DISTRICTS):
            d_card, v_card = dracula_cards[i], helsing_cards[i]
            if beats(d_card, v_card, ranking):
                side = DRACULA
                public["vampires"][i] += 1
            else:
                side = VAN_HELSING
                public["lives"] -= 1
            districts.append(
                {
                    "district": i + 1,
                    "dracula": d_card,
                    "van_helsing": v_card,
                    "winner": side,
                    "vampires": public["vampires"][i],
                    "lives": public["lives"],
                }
            )
            if public["vampires"][i] >= VAMPIRES_TO_WIN:
                winner, reason_won = DRACULA, "vampires"
                break
            if public["lives"] <= 0:
                winner, reason_won = VAN_HELSING, "lives"
                break
        if winner is None and public["round"] >= ROUNDS:
            winner, reason_won = DRACULA, "survived"
        comparison = {
            "round": public["round"],
            "ended_by": reason.value,
            "ranking": list(ranking),
            "dracula": dracula_cards,
            "van_helsing": helsing_cards,
            "districts": districts,
            "vampires": list(public["vampires"]),
            "lives": public["lives"],
        }
        public["comparisons"].append(comparison)
        _log(
            state,
            "round_resolved",
            round=public["round"],
            dracula=dracula_cards,
            van_helsing=helsing_cards,
            winners=[d["winner"] for d in districts],
            vampires=list(public["vampires"]),
            lives=public["lives"],
        )
        if winner is not None:
            public.update(over=True, phase=Phase.OVER.value, winner=winner, win_reason=reason_won)
            _log(state, "game_over", winner=winner, seat=public[winner], reason=reason_won)
            return
        public["round"] += 1
        self._begin_round(state, rng)

    # ---------------------------------------------------------------- views and result (§6)

    def _seat_view(
        self, public: dict[str, Any], slot: dict[str, Any] | None, log: list[dict[str, Any]], seat: int | None
    ) -> View:
        return seat_view(public, slot, log, seat)

    def _result(self, state: State) -> Result:
        public = state["public"]
        winner = public["winner"]
        winners = [public[winner]]
        taken = public["starting_lives"] - public["lives"]
        seats = []
        for s in range(2):
            role = public["roles"][s]
            score = sum(public["vampires"]) if role == DRACULA else taken
            seats.append({"side": role, "role": role, "score": score})
        how = {
            "vampires": "a district fell to the vampires",
            "lives": "Dracula lost his last life",
            "survived": "Dracula survived the fifth round",
        }[public["win_reason"]]
        who = "Dracula" if winner == DRACULA else "Van Helsing"
        summary = f"{who} (seat {public[winner] + 1}) wins in round {public['round']}: {how}."
        return Result(winners=winners, seats=seats, summary=summary)

    def opens_new_window(self, before: State, after: State) -> bool:
        """Ruling R3: every decision has its own limit, so each accepted action restarts the clock."""
        return bool(self.awaiting(after)) and after["step"] != before["step"]


ENGINE = DraculaEngine()

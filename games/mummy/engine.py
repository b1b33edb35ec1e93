"""Night of the Mummy, the rules engine (spec: shared/rules/night-of-the-mummy.md, cited as §n).

Players: 4–8 seats, each holding one guest card; 1 or 2 more guests lie face down in the middle
as mystery guests (§2.2). Everyone plays alone; the first accusation with no NO answer wins (§6).

Secrets: each seat's own guest (``seats[i]["guest"]``); the mystery guests (``hidden["mystery"]``,
copied into ``public["mystery"]`` only when Anubis flips one); inquiry answers (log entries to the
asker and the answerer only); what a dancer saw (log entries and ``seats[i]["dance"]`` for that
dancer only); Sasquatch peeks and Dorian swaps; window choices (``seats[i]["choice"]``); declared
post-dance abilities until they resolve (``hidden["pending"]``); which seat gave which accusation
answer (``hidden["accusations"]``, shown only after the game).

Chance: the guest list (when not picked in full by the host), the mystery guests, the deal, and the
first player (unless chosen) — all in ``setup``. Nothing random happens afterwards.

Turn (§4): the active player picks a kind (``act``: inquire / dance / accuse), then its steps.
Dances run through the windows JOIN, IN_DANCE, POST_DANCE; inquiries may open a PHANTOM window
(§4.0). A window awaits a publicly known set of seats; each seat makes exactly two moves (its
choice or a first ``timeout`` = ``pass``, then a ``timeout`` that marks it done), its choice is kept
in its own slot, so neither ``public`` nor anybody else's view changes with what it chose.

Options: ``advanced_guests`` (bool), ``guest_<id>`` for every guest but the Mummy (``"random"`` or
``"in"``: the host puts that guest in; the rest are drawn at random), ``first_player``
(``"random"`` or a seat), ``max_rounds`` (0 = off), and ``deal`` (spec §11.0: ``guests``,
``mystery``, ``first``).

Log kinds (every entry ``{"to": None | [seats], "kind": ..., ...}``):
  ``setup`` {guests, mystery, first} · ``round`` {round} (the first player's turn begins again) ·
  ``skip`` {seat} (kind timed out) · ``step_timeout`` {seat, step} (``ask`` or ``invite``) ·
  ``inquiry`` {asker, target, guest} · ``inquiry_answer`` to asker and target
  {asker, target, guest, answer} · ``invite`` {inviter, invitee} · ``invite_answer``
  {invitee, accepted} (accepted: inviter and invitee dance) · ``no_target`` {seat} ·
  ``dance_seen`` to one dancer {seat, face, seats, guests} (parallel lists; guest None = a card
  back) · ``peek`` to the Sasquatch {seat, slot, guest} · ``peeked`` to his co-dancers {seat} ·
  ``swap`` to Dorian {seat, slot, guest} ·
  ``swapped`` to his co-dancers {seat, slot} · ``reveal`` {seat, guest} · ``ability``
  {seat, ability, target} · ``flip`` {seat, slot, guest} · ``accusation``
  {accuser, cause, form, seats, names (parallel lists: names[i] lay before seats[i]), yes, no} ·
  ``win`` {seat} · ``draw`` {rounds}. Which seat gave which accusation answer is kept in
  ``hidden["accusations"]`` (shown by ``reveal`` after the end, never during the game).

Rulings where the spec is silent or cannot be followed literally:
  R1. ``advanced_guests`` off at 7–8 players without a deal raises ``OptionsRefused`` (a
      ``ValueError``), as §2.3 V2 and §11.1 say, also when the host picked advanced guests: the
      option says what the host asked for, and the create-table form refuses the combination with
      this message, showing the option ticked for the host to confirm (``OptionsRefused.fix``).
      An explicit deal is checked as a guest list (V1–V4) whatever the option says.
  R2. The spec's free ``guests`` list cannot be an enumerable table option, so the host picks guests
      with one ``guest_<id>`` option per guest (``"in"``); any guests still missing are drawn at
      random among those that keep V3–V4 true (uniformly over the valid completions). Picking more
      guests than the table holds, or an impossible mix, raises ``ValueError``. Picking an advanced
      guest switches advanced guests on, as a deal does.
  R3. ``first_player`` naming a seat the table does not have falls back to a random first player.
  R4. A lapsed post-dance declaration (its holder or target became revealed) vanishes without any
      public trace, so it reveals nothing.
  R5. Co-dancers of a Dorian who swaps learn which mystery slot he took (they watched him take it),
      and so know the DORIAN card now lies there.
  R6. Accusation names are placed one ``name`` step at a time and shown in ``public`` as they are
      placed; answers are counted only when the last card is down.
  R7. ``round`` counts how often the first player's turn has begun; a draw by ``max_rounds`` ends
      the game with ``public["draw"] = True``, ``winners = []`` and ``Result.draw`` (§6).
"""

from __future__ import annotations

import random
from enum import StrEnum
from itertools import combinations
from typing import Any

from games.base import Action, Engine, Option, OptionsRefused, Result, State, gettext_noop, randbelow, shuffled
from games.mummy import guests as g


class Phase(StrEnum):
    KIND = "kind"  # §4.0 the active player picks inquire / dance / accuse
    ASK = "ask"  # §4.1
    INVITE = "invite"  # §4.2
    ANSWER = "answer"  # §4.2.2 the invitee accepts or declines
    REASK = "reask"  # §4.2.3 the mandatory inquiry after a decline
    WINDOW = "window"  # §4.0 a secret-ability window
    TARGET = "target"  # §5.2 the Archeologist's Mummy-only accusation
    NAME = "name"  # §4.4.4 one accusation card at a time
    FLIP = "flip"  # §5.7 Anubis turns a mystery guest face up
    OVER = "over"


class Window(StrEnum):
    JOIN = "join"  # §4.3 D1
    IN_DANCE = "in_dance"  # §4.3 D4
    POST_DANCE = "post_dance"  # §4.3 D5
    PHANTOM = "phantom"  # §5.8


class Cause(StrEnum):
    """Why an accusation is being made (turn action or a triggered ability)."""

    TURN = "turn"
    BURGLE = "burgle"
    ANUBIS = "anubis"
    PHANTOM = "phantom"


HIDDEN = None  # a card back, in what a dancer saw
SHOWN = "shown"
HID = "hidden"
PASS: Action = {"type": "pass"}

# §2.3 V2: only 7 basic guests exist, and 7 or 8 players need 8 or 9.
ADVANCED_NEEDED = gettext_noop(
    "A table of %(players)s players needs the advanced guests (only seven basic guests exist): turn them on."
)
GUEST_OPTIONS = tuple(guest for guest in g.CANONICAL if guest != g.MUMMY)
MAX_ROUNDS = (0, 1, 5, 10, 20)


GUEST_LABELS = {
    g.ARCHEOLOGIST: gettext_noop("The Archeologist"),
    g.CAT_BURGLAR: gettext_noop("The Cat Burglar"),
    g.SARCOPHAGUS: gettext_noop("The Sarcophagus"),
    g.SASQUATCH: gettext_noop("Sasquatch"),
    g.GARGOYLE: gettext_noop("The Gargoyle"),
    g.ANUBIS: gettext_noop("Anubis"),
    g.MAGIC_MIRROR: gettext_noop("The Magic Mirror"),
    g.PHANTOM: gettext_noop("The Phantom of the Museum"),
    g.DORIAN: gettext_noop("The Picture of Dorian Gray"),
}


# What each guest does (§1.1), in a line short enough to sit under its choice on a phone (the
# board's own, longer, is templates/games/mummy/_ability.html).
GUEST_HELP = {
    g.ARCHEOLOGIST: gettext_noop("Shows its face, must accept every dance; its first accusation names only the Mummy."),
    g.CAT_BURGLAR: gettext_noop("Shows its face; after a dance, may accuse only a partner who stayed hidden."),
    g.SARCOPHAGUS: gettext_noop("Hides its face, must accept every dance, answers YES to every inquiry."),
    g.SASQUATCH: gettext_noop("Hides unless dancing with a neighbour; when it shows, may peek at a mystery guest."),
    g.GARGOYLE: gettext_noop("Shows its face; may secretly join a dance it was not invited to."),
    g.ANUBIS: gettext_noop("Hides; after a dance where a partner showed, may flip a mystery guest and accuse all."),
    g.MAGIC_MIRROR: gettext_noop("Shows its face, cannot invite; everyone dancing with it must show their face."),
    g.PHANTOM: gettext_noop("Hides; after answering NO to an inquiry, may accuse only the one who asked."),
    g.DORIAN: gettext_noop("Hides, cannot invite; in a dance, may show and swap with a face-down mystery guest."),
}


def _guest_option(guest: str) -> Option:
    """R2: the host puts a guest in the game (the Mummy always is)."""
    return Option(
        key=f"guest_{guest.lower()}",
        label=GUEST_LABELS[guest],
        choices=("random", "in"),
        default="random",
        choice_labels=(gettext_noop("Random"), gettext_noop("In the game")),
        help=GUEST_HELP[guest],
    )


# --- reading public ----------------------------------------------------------------------------


def _n(public: dict[str, Any]) -> int:
    return len(public["revealed"])


def _is_unrevealed(public: dict[str, Any], seat: int) -> bool:
    return public["revealed"][seat] is None


def _clockwise_others(public: dict[str, Any], seat: int) -> list[int]:
    """The other unrevealed players, clockwise from ``seat`` (§3, §4.4.3)."""
    n = _n(public)
    return [s for s in ((seat + i) % n for i in range(1, n)) if _is_unrevealed(public, s)]


def _gone(public: dict[str, Any]) -> set[str]:
    """Guests shown face up: held by revealed players, or flipped mystery guests."""
    out = {guest for guest in public["revealed"] if guest is not None}
    out |= {m["guest"] for m in public["mystery"] if m["face_up"]}
    return out


def _available(public: dict[str, Any], guest: str) -> bool:
    """§3 "publicly available": in the game and not face up anywhere."""
    return guest in public["guests"] and guest not in _gone(public)


def _face_down(public: dict[str, Any]) -> list[int]:
    return [k for k, m in enumerate(public["mystery"]) if not m["face_up"]]


def _pool(public: dict[str, Any]) -> list[str]:
    """§3 candidate pool of an accuser, who is revealed by then (canonical order)."""
    gone = _gone(public)
    return [guest for guest in public["guests"] if guest not in gone]


def _priority(public: dict[str, Any], seats: list[int]) -> list[int]:
    """§3 priority order: the active player first, then clockwise."""
    n, active = _n(public), public["active"]
    return sorted(seats, key=lambda s: (s - active) % n)


def _ask_actions(public: dict[str, Any], seat: int, exclude: int | None) -> list[Action]:
    return [
        {"type": "ask", "target": t, "guest": guest}
        for t in sorted(_clockwise_others(public, seat))
        if t != exclude
        for guest in public["guests"]
    ]


class MummyEngine(Engine):
    slug = "mummy"
    name = gettext_noop("Night of the Mummy")
    min_players = 4
    max_players = 8
    options = (
        Option(
            key="advanced_guests",
            label=gettext_noop("Advanced guests (Magic Mirror, Phantom of the Museum, Picture of Dorian Gray)"),
            choices=(False, True),
            default=False,
            choice_labels=(gettext_noop("Off (4–6 players only)"), gettext_noop("On")),
            help=gettext_noop("Needed at 7 or 8 players (only seven basic guests exist); leave it off while learning."),
        ),
        *(_guest_option(guest) for guest in GUEST_OPTIONS),
        Option(
            key="first_player",
            label=gettext_noop("First player"),
            choices=("random", 0, 1, 2, 3, 4, 5, 6, 7),
            default="random",
            choice_labels=(gettext_noop("Random"), *(str(s + 1) for s in range(8))),
            help=gettext_noop("Who takes the first turn; turns then pass clockwise."),
        ),
        Option(
            key="max_rounds",
            label=gettext_noop("Round limit (draw when reached)"),
            choices=MAX_ROUNDS,
            default=0,
            choice_labels=(gettext_noop("Off"), *(str(r) for r in MAX_ROUNDS[1:])),
            help=gettext_noop("When this many rounds pass with nobody winning, the game ends in a draw."),
        ),
    )
    # §13, in seconds.
    timers = {
        "turn_s": 90,  # kind
        "step_s": 60,  # ask / invite / mandatory ask
        "answer_s": 30,  # invitation answer
        "join_s": 8,  # JOIN window, fixed from opening
        "window_s": 10,  # IN_DANCE / POST_DANCE windows, fixed from opening
        "phantom_s": 10,  # PHANTOM window, fixed from opening
        "accuse_s": 60,  # name / target / flip
    }

    # --- setup (§2) ------------------------------------------------------------------------------

    def _setup(self, n_players: int, options: dict[str, Any], seed: int, rng: random.Random) -> State:
        total, mystery_count = g.SIZES[n_players]
        picked = [guest for guest in GUEST_OPTIONS if options.get(f"guest_{guest.lower()}") == "in"]
        deal = options.get("deal")
        if deal is None and n_players >= 7 and not options["advanced_guests"]:
            raise OptionsRefused(ADVANCED_NEEDED, fix={"advanced_guests": True}, players=n_players)
        advanced = bool(options["advanced_guests"]) or any(x in g.ADVANCED for x in picked)
        if deal is not None:
            seat_guests, mystery, first = self._checked_deal(deal, n_players)
            missing = [guest for guest in picked if guest not in seat_guests + mystery]
            if missing:
                raise ValueError(f"the deal leaves out the picked guest(s) {missing}")
        else:
            chosen = self._chosen_guests(n_players, picked, advanced, rng)
            others = shuffled(rng, [guest for guest in chosen if guest != g.MUMMY])
            mystery = others[:mystery_count]
            seat_guests = shuffled(rng, [*others[mystery_count:], g.MUMMY])
            wanted = options["first_player"]
            first = wanted if isinstance(wanted, int) and wanted < n_players else randbelow(rng, n_players)
        in_game = g.canonical(seat_guests + mystery)
        public: dict[str, Any] = {
            "guests": in_game,
            "advanced": advanced or any(x in g.ADVANCED for x in in_game),
            "mystery": [{"face_up": False, "guest": None} for _ in mystery],
            "revealed": [None] * n_players,
            "first": first,
            "active": first,
            "round": 1,
            "max_rounds": options["max_rounds"],
            "phase": Phase.KIND.value,
            "decision": 1,
            "kind": None,
            "invitee": None,
            "dance": None,
            "window": None,
            "accusation": None,
            "flipper": None,
            "over": False,
            "final": None,
            "winner": None,
            "draw": False,
        }
        seats = [{"guest": guest, "choice": None, "dance": None, "answered": None} for guest in seat_guests]
        log: list[dict[str, Any]] = [
            {"to": None, "kind": "setup", "guests": in_game, "mystery": len(mystery), "first": first}
        ]
        hidden = {"mystery": list(mystery), "dance": None, "pending": [], "accusations": [], "swaps": []}
        return {"public": public, "seats": seats, "hidden": hidden, "log": log}

    @staticmethod
    def _checked_deal(deal: Any, n: int) -> tuple[list[str], list[str], int]:
        """§11.0: the explicit deal, validated (§2.3 V1, V3, V4; Mummy dealt; M as §2.2)."""
        if not isinstance(deal, dict) or set(deal) != {"guests", "mystery", "first"}:
            raise ValueError("deal must be an object with exactly the keys guests, mystery, first")
        seat_guests, mystery, first = deal["guests"], deal["mystery"], deal["first"]
        total, mystery_count = g.SIZES[n]
        if not isinstance(seat_guests, list) or len(seat_guests) != n:
            raise ValueError(f"deal.guests must list one guest for each of the {n} seats")
        if not isinstance(mystery, list) or len(mystery) != mystery_count:
            raise ValueError(f"a {n}-player deal has {mystery_count} mystery guest(s)")
        if not all(isinstance(x, str) for x in seat_guests + mystery):
            raise ValueError("guests are named by their ids")
        if g.MUMMY in mystery:
            raise ValueError("the Mummy is never a mystery guest")
        problem = g.list_problem(seat_guests + mystery, n, advanced=True)
        if problem:
            raise ValueError(f"invalid deal: {problem}")
        if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < n:
            raise ValueError(f"deal.first must be a seat 0..{n - 1}")
        return list(seat_guests), list(mystery), first

    @staticmethod
    def _chosen_guests(n: int, picked: list[str], advanced: bool, rng: random.Random) -> list[str]:
        """§2.3: the Mummy, the host's picks, and a uniform valid completion."""
        total, _ = g.SIZES[n]
        base = [g.MUMMY, *picked]
        if len(base) > total:
            raise ValueError(f"{len(picked)} guests picked, but a {n}-player game has {total} (the Mummy included)")
        allowed = g.CANONICAL if advanced else g.BASIC
        pool = [guest for guest in allowed if guest not in base]
        valid = [
            list(extra)
            for extra in combinations(pool, total - len(base))
            if g.list_problem(base + list(extra), n, advanced) is None
        ]
        if not valid:
            problem = g.list_problem(base + pool[: total - len(base)], n, advanced) or "no valid completion"
            raise ValueError(f"no valid guest list for {n} players with the picked guests: {problem}")
        return base + valid[randbelow(rng, len(valid))]

    # --- who is awaited (§4.0) -------------------------------------------------------------------

    def _awaiting(self, public: dict[str, Any]) -> list[int]:
        phase = public["phase"]
        if phase in (Phase.KIND, Phase.ASK, Phase.INVITE, Phase.REASK):
            return [public["active"]]
        if phase == Phase.ANSWER:
            return [public["invitee"]]
        if phase == Phase.WINDOW:
            done = set(public["window"]["done"])
            return [s for s in public["window"]["seats"] if s not in done]
        if phase in (Phase.TARGET, Phase.NAME):
            return [public["accusation"]["accuser"]]
        if phase == Phase.FLIP:
            return [public["flipper"]]
        return []

    # --- legal actions ---------------------------------------------------------------------------

    def _legal(self, public: dict[str, Any], slot: dict[str, Any], seat: int) -> list[Action]:
        phase = public["phase"]
        if phase == Phase.KIND:
            return self._kinds(public, slot, seat)
        if phase == Phase.ASK:
            return _ask_actions(public, seat, None)
        if phase == Phase.REASK:
            return _ask_actions(public, seat, public["invitee"])
        if phase == Phase.INVITE:
            return [{"type": "invite", "target": t} for t in sorted(_clockwise_others(public, seat))]
        if phase == Phase.ANSWER:
            # §4.2.2 / §9.15: the same prompt for every invitee, must-accept guests included.
            return [{"type": "accept"}, {"type": "decline"}]
        if phase == Phase.WINDOW:
            if slot.get("choice") is not None:
                return []
            return [dict(PASS), *self._window_options(public, slot, seat)]
        if phase == Phase.TARGET:
            return [{"type": "target", "target": t} for t in public["accusation"]["targets"]]
        if phase == Phase.NAME:
            placed = set(public["accusation"]["names"])
            return [{"type": "name", "guest": guest} for guest in _pool(public) if guest not in placed]
        if phase == Phase.FLIP:
            return [{"type": "flip", "slot": k} for k in _face_down(public)]
        return []

    def _optional_decision(self, public: dict[str, Any], slot: dict[str, Any], seat: int) -> bool:
        """§4.0: every ability in a window is optional (a lapse is a pass), so letting the clock
        answer one is no missed decision."""
        return bool(public["phase"] == Phase.WINDOW)

    @staticmethod
    def _kinds(public: dict[str, Any], slot: dict[str, Any], seat: int) -> list[Action]:
        """§4.0 Kind: inquire if a target exists, dance if this guest may invite, accuse always."""
        others = _clockwise_others(public, seat)
        kinds: list[Action] = []
        if others:
            kinds.append({"type": "act", "kind": "inquire"})
            if _is_unrevealed(public, seat) and slot["guest"] not in g.CANNOT_INVITE:
                kinds.append({"type": "act", "kind": "dance"})
        kinds.append({"type": "act", "kind": "accuse"})
        return kinds

    @staticmethod
    def _window_options(public: dict[str, Any], slot: dict[str, Any], seat: int) -> list[Action]:
        window = public["window"]
        kind = window["kind"]
        if kind == Window.JOIN:
            dancers = (public["dance"]["a"], public["dance"]["b"])
            if slot["guest"] == g.GARGOYLE and _is_unrevealed(public, seat) and seat not in dancers:
                return [{"type": "join"}]
            return []
        dance = slot.get("dance")
        if kind == Window.IN_DANCE and dance is not None:
            if dance["as"] == g.SASQUATCH and dance["face"] == SHOWN:
                return [{"type": "peek", "slot": k} for k in _face_down(public)]
            if dance["as"] == g.DORIAN and slot["guest"] == g.DORIAN:
                return [{"type": "swap", "slot": k} for k in _face_down(public)]
            return []
        if kind == Window.POST_DANCE and dance is not None:
            if dance["as"] == g.CAT_BURGLAR:
                return [{"type": "burgle", "target": c["seat"]} for c in dance["co"] if not c["showed"]]
            if dance["as"] == g.ANUBIS and any(c["showed"] for c in dance["co"]):
                return [{"type": "anubis"}]
            return []
        if kind == Window.PHANTOM:
            answered = slot.get("answered")
            if (
                slot["guest"] == g.PHANTOM
                and answered is not None
                and answered["answer"] == g.NO
                and answered["asker"] == window["inquirer"]
            ):
                return [{"type": "phantom"}]
        return []

    # --- applying actions ------------------------------------------------------------------------

    def _apply(self, state: State, seat: int, action: Action, rng: random.Random) -> None:
        public = state["public"]
        phase = public["phase"]
        timeout = action["type"] == "timeout"
        if phase == Phase.WINDOW:
            self._window_move(state, seat, action)
        elif phase == Phase.KIND:
            if timeout:
                self._log(state, None, "skip", seat=seat)
                self._end_turn(state)
            else:
                self._act(state, seat, action["kind"])
        elif phase in (Phase.ASK, Phase.REASK):
            if timeout:
                self._log(state, None, "step_timeout", seat=seat, step="ask")
                self._end_turn(state)
            else:
                self._inquire(state, seat, action["target"], action["guest"])
        elif phase == Phase.INVITE:
            if timeout:
                self._log(state, None, "step_timeout", seat=seat, step="invite")
                self._end_turn(state)
            else:
                public["invitee"] = action["target"]
                self._log(state, None, "invite", inviter=seat, invitee=action["target"])
                self._next_decision(public, Phase.ANSWER)
        elif phase == Phase.ANSWER:
            self._answer_invitation(state, seat, action["type"] == "accept")
        elif phase == Phase.TARGET:
            target = public["accusation"]["targets"][0] if timeout else action["target"]
            public["accusation"]["targets"] = [target]
            public["accusation"]["names"] = [g.MUMMY]
            self._resolve_accusation(state)
        elif phase == Phase.NAME:
            legal = self._legal(public, state["seats"][seat], seat)
            name = legal[0]["guest"] if timeout else action["guest"]
            public["accusation"]["names"].append(name)
            if len(public["accusation"]["names"]) == len(public["accusation"]["targets"]):
                self._resolve_accusation(state)
            else:
                self._next_decision(public, Phase.NAME)
        elif phase == Phase.FLIP:
            k = _face_down(public)[0] if timeout else action["slot"]
            self._flip(state, seat, k)
            self._start_normal_accusation(state, seat, Cause.ANUBIS)

    # §4.0: a kind is public and binding.
    def _act(self, state: State, seat: int, kind: str) -> None:
        public = state["public"]
        public["kind"] = kind  # public while its steps run; the log records what the steps did
        if kind == "inquire":
            self._next_decision(public, Phase.ASK)
        elif kind == "dance":
            self._next_decision(public, Phase.INVITE)
        else:
            guest = state["seats"][seat]["guest"]
            was_unrevealed = _is_unrevealed(public, seat)
            mummy_revealed = g.MUMMY in public["revealed"]
            self._reveal(state, seat)
            if guest == g.ARCHEOLOGIST and was_unrevealed and not mummy_revealed:
                # §5.2: the Archeologist's first accusation names only the Mummy, before one player.
                public["accusation"] = {
                    "accuser": seat,
                    "cause": Cause.TURN.value,
                    "form": "mummy_only",
                    "targets": _clockwise_others(public, seat),
                    "names": [],
                }
                self._next_decision(public, Phase.TARGET)
            else:
                self._start_normal_accusation(state, seat, Cause.TURN)

    # §4.1 and §4.2.3
    def _inquire(self, state: State, asker: int, target: int, asked: str) -> None:
        public = state["public"]
        answer = g.answer_inquiry(state["seats"][target]["guest"], asked)
        self._log(state, None, "inquiry", asker=asker, target=target, guest=asked)
        self._log(state, [asker, target], "inquiry_answer", asker=asker, target=target, guest=asked, answer=answer)
        state["seats"][target]["answered"] = {"asker": asker, "guest": asked, "answer": answer}
        # §5.8 / §4.0: the PHANTOM window follows every inquiry the Phantom could have answered.
        if _available(public, g.PHANTOM) and _is_unrevealed(public, asker):
            self._open_window(state, Window.PHANTOM, [target], inquirer=asker)
        else:
            state["seats"][target]["answered"] = None
            self._end_turn(state)

    # §4.2.2–4
    def _answer_invitation(self, state: State, invitee: int, accepted: bool) -> None:
        public = state["public"]
        if state["seats"][invitee]["guest"] in g.MUST_ACCEPT:
            accepted = True  # §9.15: whatever a must-accept guest sends counts as ACCEPT
        self._log(state, None, "invite_answer", invitee=invitee, accepted=accepted)
        active = public["active"]
        if accepted:
            self._start_dance(state, active, invitee)
            return
        targets = [t for t in _clockwise_others(public, active) if t != invitee]
        if not targets:
            self._log(state, None, "no_target", seat=active)
            self._end_turn(state)
        else:
            self._next_decision(public, Phase.REASK)

    # --- the dance (§4.3) ------------------------------------------------------------------------

    def _start_dance(self, state: State, a: int, b: int) -> None:
        public = state["public"]
        public["dance"] = {"a": a, "b": b}  # §8.2 "a and b are dancing" (``invite_answer`` accepted)
        state["hidden"]["dance"] = {"participants": [a, b]}
        non_dancers = [s for s in range(_n(public)) if s not in (a, b) and _is_unrevealed(public, s)]
        if _available(public, g.GARGOYLE) and non_dancers:
            self._open_window(state, Window.JOIN, list(range(_n(public))))
        else:
            self._exchange(state)
            self._after_exchange(state)

    def _exchange(self, state: State) -> None:
        """D2 face states and D3 the exchange: each dancer's slot and log learn what it saw."""
        public, seats = state["public"], state["seats"]
        parts = state["hidden"]["dance"]["participants"]
        n = _n(public)
        shows: dict[int, bool] = {}
        for x in parts:
            others = [y for y in parts if y != x]
            guest = seats[x]["guest"]
            if any(seats[y]["guest"] == g.MAGIC_MIRROR for y in others):
                shows[x] = True
            elif guest == g.SASQUATCH:
                shows[x] = any(y in ((x - 1) % n, (x + 1) % n) for y in others)
            else:
                shows[x] = guest not in g.HIDERS
        for x in parts:
            co = [
                {"seat": y, "guest": seats[y]["guest"] if shows[y] else HIDDEN, "showed": shows[y]}
                for y in parts
                if y != x
            ]
            face = SHOWN if shows[x] else HID
            seats[x]["dance"] = {"as": seats[x]["guest"], "face": face, "co": co}
            self._log(
                state,
                [x],
                "dance_seen",
                seat=x,
                face=face,
                seats=[c["seat"] for c in co],
                guests=[c["guest"] for c in co],
            )

    def _after_exchange(self, state: State) -> None:
        public = state["public"]
        if _face_down(public) and (_available(public, g.SASQUATCH) or _available(public, g.DORIAN)):
            self._open_window(state, Window.IN_DANCE, list(range(_n(public))))
        else:
            self._after_in_dance(state)

    def _after_in_dance(self, state: State) -> None:
        public = state["public"]
        if _available(public, g.CAT_BURGLAR) or _available(public, g.ANUBIS):
            self._open_window(state, Window.POST_DANCE, list(range(_n(public))))
        else:
            self._end_dance(state)
            self._end_turn(state)

    def _end_dance(self, state: State) -> None:
        for x in state["hidden"]["dance"]["participants"]:
            state["seats"][x]["dance"] = None
        state["hidden"]["dance"] = None
        state["public"]["dance"] = None

    # --- windows (§4.0) --------------------------------------------------------------------------

    def _open_window(self, state: State, kind: Window, seats: list[int], **extra: Any) -> None:
        public = state["public"]
        public["window"] = {"kind": kind.value, "seats": sorted(seats), "done": [], **extra}
        self._next_decision(public, Phase.WINDOW)

    def _window_move(self, state: State, seat: int, action: Action) -> None:
        slot = state["seats"][seat]
        window = state["public"]["window"]
        if action["type"] != "timeout":
            slot["choice"] = action  # private: the seat stays awaited, only `timeout` is left
            return
        if slot["choice"] is None:
            slot["choice"] = dict(PASS)
            return
        window["done"].append(seat)
        if len(window["done"]) == len(window["seats"]):
            self._resolve_window(state)

    def _resolve_window(self, state: State) -> None:
        public, seats = state["public"], state["seats"]
        window = public["window"]
        order = _priority(public, window["seats"])
        choices = {s: seats[s]["choice"] for s in order}
        for s in order:
            seats[s]["choice"] = None
        public["window"] = None
        chosen = [(s, choices[s]) for s in order if choices[s]["type"] != "pass"]
        kind = window["kind"]
        if kind == Window.JOIN:
            state["hidden"]["dance"]["participants"] += [s for s, _ in chosen]
            self._exchange(state)
            self._after_exchange(state)
        elif kind == Window.IN_DANCE:
            for s, choice in chosen:
                if choice["type"] == "peek":
                    self._peek(state, s, choice["slot"])
                else:
                    self._swap(state, s, choice["slot"])
            self._after_in_dance(state)
        elif kind == Window.POST_DANCE:
            state["hidden"]["pending"] = [
                {"seat": s, "ability": c["type"], "target": c.get("target")} for s, c in chosen
            ]
            self._end_dance(state)
            self._run_pending(state)
        else:
            target = window["seats"][0]
            seats[target]["answered"] = None
            if chosen:
                inquirer = window["inquirer"]
                self._reveal(state, target)
                self._log(state, None, "ability", seat=target, ability="phantom", target=inquirer)
                self._start_single_accusation(state, target, Cause.PHANTOM, inquirer)
            else:
                self._end_turn(state)

    def _co_dancers(self, state: State, seat: int) -> list[int]:
        return [x for x in state["hidden"]["dance"]["participants"] if x != seat]

    # §5.5
    def _peek(self, state: State, seat: int, k: int) -> None:
        self._log(state, [seat], "peek", seat=seat, slot=k, guest=state["hidden"]["mystery"][k])
        self._log(state, self._co_dancers(state, seat), "peeked", seat=seat)

    # §5.10
    def _swap(self, state: State, seat: int, k: int) -> None:
        seats, hidden = state["seats"], state["hidden"]
        new = hidden["mystery"][k]
        hidden["mystery"][k] = g.DORIAN
        seats[seat]["guest"] = new
        seats[seat]["dance"]["face"] = SHOWN
        hidden["swaps"].append({"seat": seat, "slot": k, "guest": new})
        co = self._co_dancers(state, seat)
        for y in co:
            for c in seats[y]["dance"]["co"]:
                if c["seat"] == seat:
                    c["guest"], c["showed"] = g.DORIAN, True
        self._log(state, [seat], "swap", seat=seat, slot=k, guest=new)
        self._log(state, co, "swapped", seat=seat, slot=k)

    # §4.3 D5: declared abilities run one after another, each to completion.
    def _run_pending(self, state: State) -> None:
        public, pending = state["public"], state["hidden"]["pending"]
        while pending:
            declared = pending.pop(0)
            seat, target = declared["seat"], declared["target"]
            if not _is_unrevealed(public, seat) or (target is not None and not _is_unrevealed(public, target)):
                continue  # lapsed (R4)
            self._reveal(state, seat)
            self._log(state, None, "ability", seat=seat, ability=declared["ability"], target=target)
            if declared["ability"] == "burgle":
                self._start_single_accusation(state, seat, Cause.BURGLE, target)
                return
            # §5.7 Anubis: flip a face-down mystery guest, then accuse everyone.
            face_down = _face_down(public)
            if len(face_down) > 1:
                public["flipper"] = seat
                self._next_decision(public, Phase.FLIP)
                return
            if face_down:
                self._flip(state, seat, face_down[0])
            self._start_normal_accusation(state, seat, Cause.ANUBIS)
            return
        self._end_turn(state)

    def _flip(self, state: State, seat: int, k: int) -> None:
        guest = state["hidden"]["mystery"][k]
        state["public"]["mystery"][k] = {"face_up": True, "guest": guest}
        state["public"]["flipper"] = None
        self._log(state, None, "flip", seat=seat, slot=k, guest=guest)

    # --- accusations (§4.4) ----------------------------------------------------------------------

    def _reveal(self, state: State, seat: int) -> None:
        public = state["public"]
        if _is_unrevealed(public, seat):
            guest = state["seats"][seat]["guest"]
            public["revealed"][seat] = guest
            self._log(state, None, "reveal", seat=seat, guest=guest)

    def _start_normal_accusation(self, state: State, accuser: int, cause: Cause) -> None:
        public = state["public"]
        targets = _clockwise_others(public, accuser)
        public["accusation"] = {
            "accuser": accuser,
            "cause": cause.value,
            "form": "normal",
            "targets": targets,
            "names": [],
        }
        if targets:
            self._next_decision(public, Phase.NAME)
        else:
            self._resolve_accusation(state)  # §9.7: nobody left to accuse, the accuser wins

    def _start_single_accusation(self, state: State, accuser: int, cause: Cause, target: int) -> None:
        public = state["public"]
        public["accusation"] = {
            "accuser": accuser,
            "cause": cause.value,
            "form": "single",
            "targets": [target],
            "names": [],
        }
        self._next_decision(public, Phase.NAME)

    def _resolve_accusation(self, state: State) -> None:
        public = state["public"]
        acc = public["accusation"]
        answers = [
            g.answer_accusation(state["seats"][t]["guest"], name)
            for t, name in zip(acc["targets"], acc["names"], strict=True)
        ]
        yes = answers.count(g.YES)
        no = len(answers) - yes
        accuser, cause = acc["accuser"], acc["cause"]
        self._log(
            state,
            None,
            "accusation",
            accuser=accuser,
            cause=cause,
            form=acc["form"],
            seats=acc["targets"],
            names=acc["names"],
            yes=yes,
            no=no,
        )
        # §8.4: which seat gave which answer stays hidden until the end (then `reveal` shows it).
        state["hidden"]["accusations"].append({"accuser": accuser, "seats": acc["targets"], "answers": answers})
        public["accusation"] = None
        if no == 0:
            self._finish(state, accuser)
        elif cause in (Cause.BURGLE, Cause.ANUBIS):
            self._run_pending(state)
        else:
            self._end_turn(state)

    # --- turns and the end (§4, §6) --------------------------------------------------------------

    def _end_turn(self, state: State) -> None:
        public = state["public"]
        for key in ("kind", "invitee", "dance", "window", "accusation", "flipper"):
            public[key] = None
        state["hidden"]["pending"] = []
        public["active"] = (public["active"] + 1) % _n(public)
        if public["active"] == public["first"]:
            public["round"] += 1
            if public["max_rounds"] and public["round"] > public["max_rounds"]:
                public.update(over=True, draw=True, phase=Phase.OVER.value)
                self._publish_all(state)
                self._log(state, None, "draw", rounds=public["max_rounds"])
                return
            self._log(state, None, "round", round=public["round"])
        self._next_decision(public, Phase.KIND)

    def _finish(self, state: State, winner: int) -> None:
        public = state["public"]
        for key in ("kind", "invitee", "dance", "window", "accusation", "flipper"):
            public[key] = None
        public.update(over=True, winner=winner, phase=Phase.OVER.value)
        self._publish_all(state)
        self._log(state, None, "win", seat=winner)

    @staticmethod
    def _publish_all(state: State) -> None:
        """§8.4: at the end every guest and mystery guest is face up (so result reads public)."""
        state["public"]["final"] = {
            "guests": [slot["guest"] for slot in state["seats"]],
            "mystery": list(state["hidden"]["mystery"]),
        }

    @staticmethod
    def _next_decision(public: dict[str, Any], phase: Phase) -> None:
        """A new decision: its clock starts afresh (``opens_new_window``)."""
        public["phase"] = phase.value
        public["decision"] += 1

    @staticmethod
    def _log(state: State, to: list[int] | None, kind: str, **params: Any) -> None:
        state["log"].append({"to": to, "kind": kind, **params})

    # --- clocks (§13) ----------------------------------------------------------------------------

    def time_limit(self, state: State, seat: int, timers: dict[str, float]) -> float:
        public = state["public"]
        phase = public["phase"]
        key = {
            Phase.KIND: "turn_s",
            Phase.ASK: "step_s",
            Phase.INVITE: "step_s",
            Phase.REASK: "step_s",
            Phase.ANSWER: "answer_s",
            Phase.TARGET: "accuse_s",
            Phase.NAME: "accuse_s",
            Phase.FLIP: "accuse_s",
        }.get(Phase(phase), "turn_s")
        if phase == Phase.WINDOW:
            key = {Window.JOIN: "join_s", Window.PHANTOM: "phantom_s"}.get(Window(public["window"]["kind"]), "window_s")
        return float(timers.get(key, self.timers[key]))

    def opens_new_window(self, before: State, after: State) -> bool:
        """Each decision has its own clock; window choices and done marks do not restart it."""
        return bool(before["public"]["decision"] != after["public"]["decision"])

    # --- views -----------------------------------------------------------------------------------

    def _seat_view(
        self, public: dict[str, Any], slot: dict[str, Any] | None, log: list[dict[str, Any]], seat: int | None
    ) -> dict[str, Any]:
        n = _n(public)
        known: dict[int, str] = {}
        answers_received: list[dict[str, Any]] = []
        answers_given: list[dict[str, Any]] = []
        dances: list[dict[str, Any]] = []
        for e in log:
            if e.get("to") is not None and seat not in e["to"]:
                continue  # after the end the whole log arrives; keep the summaries this seat's own
            kind = e.get("kind")
            if kind == "peek" and e["seat"] == seat:
                known[e["slot"]] = e["guest"]
            elif kind == "swap":
                known[e["slot"]] = g.DORIAN
            elif kind == "inquiry_answer" and seat is not None:
                entry = {k: e[k] for k in ("asker", "target", "guest", "answer")}
                (answers_received if e["asker"] == seat else answers_given).append(entry)
            elif kind == "dance_seen" and e["seat"] == seat:
                saw = [{"seat": y, "guest": x} for y, x in zip(e["seats"], e["guests"], strict=True)]
                dances.append({"face": e["face"], "saw": saw, "events": []})
            elif kind in ("peeked", "swapped") and dances and seat is not None and e["seat"] != seat:
                dances[-1]["events"].append({k: v for k, v in e.items() if k != "to"})
                if kind == "swapped":
                    known[e["slot"]] = g.DORIAN  # R5: the co-dancers watched him take that card
        window = public["window"]
        me = None
        if slot is not None and seat is not None:
            invited = public["phase"] == Phase.ANSWER and public["invitee"] == seat
            me = {
                "seat": seat,
                "guest": slot.get("guest"),
                "revealed": not _is_unrevealed(public, seat),
                "must_accept": invited and slot.get("guest") in g.MUST_ACCEPT,
                "choice": slot.get("choice"),
                "dance": slot.get("dance"),
            }
        return {
            "phase": public["phase"],
            "active": public["active"],
            "round": public["round"],
            "max_rounds": public["max_rounds"],
            "my_turn": seat is not None and public["active"] == seat and not public["over"],
            "can_chat": True,
            "guests": public["guests"],
            "players": [
                {"seat": s, "revealed": public["revealed"][s] is not None, "guest": public["revealed"][s]}
                for s in range(n)
            ],
            "mystery": [
                {"slot": k, "face_up": m["face_up"], "guest": m["guest"], "known": known.get(k)}
                for k, m in enumerate(public["mystery"])
            ],
            "window": None if window is None else {"kind": window["kind"], "done": window["done"]},
            "dance": public["dance"],
            "accusation": public["accusation"],
            "me": me,
            "answers_received": answers_received,
            "answers_given": answers_given,
            "dances": dances,
            "winner": public["winner"],
            "draw": public["draw"],
            "public": public,
            "log": log,
        }

    # --- result ----------------------------------------------------------------------------------

    def _result(self, state: State) -> Result:
        public = state["public"]
        winner = public["winner"]
        final = public["final"]["guests"]
        seats = [
            {"side": "winner" if s == winner else "guest", "role": guest, "score": 1 if s == winner else 0}
            for s, guest in enumerate(final)
        ]
        if winner is None:
            summary = f"Draw: the round limit of {public['max_rounds']} was reached with no correct accusation."
        else:
            summary = f"Seat {winner + 1} ({final[winner]}) unmasked every guest and wins."
        return Result(winners=[] if winner is None else [winner], seats=seats, summary=summary, draw=public["draw"])


ENGINE = MummyEngine()

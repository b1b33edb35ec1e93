"""The engine contract every game speaks (ARCHITECTURE §2), written once.

A game is a pure, deterministic state machine over JSON-serialisable state of one shape::

    {"seed", "step", "public": {...}, "seats": [{...}, ...], "hidden": {...}, "log": [...]}

``public`` is what everyone may know, ``seats[i]`` what seat i alone may know, ``hidden`` what
nobody sees, and each ``log`` entry is a dict whose ``"to"`` is ``None`` (public) or the list of
seats that may read it.

Secrets are kept by structure: :meth:`Engine.view` and :meth:`Engine.legal_actions` are written
here, once, and hand a game only ``public``, the asking seat's own slot and the log entries it may
read. A game implements the underscore hooks (``_setup``, ``_awaiting``, ``_legal``, ``_apply``,
``_seat_view``, ``_result``) and never overrides the public methods.

Chance: only ``random.Random(f"{seed}:{step}").random()`` is stable across Python versions, so
every helper below is built on ``.random()`` alone (never ``shuffle``/``choice``/``randrange``).
"""

from __future__ import annotations

import abc
import copy
import json
import marshal
import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

State = dict[str, Any]
Action = dict[str, Any]
View = dict[str, Any]

TIMEOUT: Action = {"type": "timeout"}
# An action that declines a decision; a seat whose only choice is this has no real choice.
PASS_TYPE = "pass"


def gettext_noop(message: str) -> str:
    """Mark a string for translation without translating it (the platform translates)."""
    return message


_ATOMS = (str, int, float, bool, type(None))


def copied(value: Any) -> Any:
    """A deep copy of JSON-shaped data (dicts, lists, tuples and scalars), several times faster
    than ``copy.deepcopy``. States, views and actions are JSON, and they are copied at every move
    and for every view (issue 9): ``marshal`` (format 2, which writes a value shared twice as two
    values, as a deep copy makes them) copies plain built-in values in C, three times faster than
    walking them here. A value it cannot write (a ``str`` or ``int`` subclass such as an enum
    member, a class of a game's own) is copied by :func:`_walked`, which keeps such scalars as they
    are and deep-copies anything else."""
    try:
        return marshal.loads(marshal.dumps(value, 2))
    except ValueError:
        return _walked(value)


def _walked(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _walked(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_walked(v) for v in value]
    if isinstance(value, _ATOMS):
        return value
    if isinstance(value, tuple):
        return tuple(_walked(v) for v in value)
    return copy.deepcopy(value)


class IllegalAction(ValueError):
    """An action the engine refuses; ``code`` is stable, ``reason`` is readable."""

    CODES = frozenset(
        {"malformed", "unknown_action", "not_awaited", "illegal_action", "game_over", "stale_version", "forbidden"}
    )

    def __init__(self, reason: str, code: str = "illegal_action") -> None:
        if code not in self.CODES:
            raise ValueError(f"unknown IllegalAction code {code!r}")
        super().__init__(reason)
        self.reason = reason
        self.code = code


# --- seeded chance -------------------------------------------------------------------------------


def rng_for(seed: int | str, step: int) -> random.Random:
    """The one source of chance for ``(seed, step)``."""
    return random.Random(f"{seed}:{step}")


def randbelow(rng: random.Random, n: int) -> int:
    """A uniform integer in ``0..n-1`` from ``rng.random()`` alone."""
    if n <= 0:
        raise ValueError("randbelow needs n > 0")
    return min(int(rng.random() * n), n - 1)


def pick(rng: random.Random, seq: list[Any]) -> Any:
    """A uniform element of a non-empty list."""
    return seq[randbelow(rng, len(seq))]


def shuffled(rng: random.Random, seq: list[Any]) -> list[Any]:
    """A new list: a uniform permutation of ``seq`` (Fisher-Yates on ``.random()``)."""
    out = list(seq)
    for i in range(len(out) - 1, 0, -1):
        j = randbelow(rng, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def sample(rng: random.Random, seq: list[Any], k: int) -> list[Any]:
    """``k`` distinct elements of ``seq`` in random order."""
    return shuffled(rng, seq)[:k]


# --- results and options -------------------------------------------------------------------------


@dataclass
class Result:
    """How a finished match ended: ``winners`` may be empty (nobody wins). ``draw`` marks the end
    a spec calls a draw (Night of the Mummy's round limit), apart from a game nobody won."""

    winners: list[int]
    seats: list[dict[str, Any]]  # per seat: {"side": ..., "role": ..., "score": ...}
    summary: str
    draw: bool = False

    def __post_init__(self) -> None:
        if self.draw and self.winners:
            raise ValueError("a draw has no winners")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class OptionsRefused(ValueError):
    """Table options the game cannot deal. ``message`` is marked for translation and takes
    ``params`` (``%(name)s`` placeholders), so the platform can show it in the player's language.
    ``fix``, when the rules leave one obvious remedy, names the option values that make the table
    dealable; the create-table form shows them set, for the host to confirm (never applied unasked)."""

    def __init__(self, message: str, *, fix: dict[str, Any] | None = None, **params: Any) -> None:
        super().__init__(message % params if params else message)
        self.message = message
        self.params = params
        self.fix = dict(fix or {})


@dataclass(frozen=True)
class Option:
    """A table choice offered by the create-table form; ``label`` and ``help`` are marked for
    translation. ``help`` is one short sentence the form shows under the choice: what it changes
    in the game, from the game's rules specification.

    ``choices`` is the form's menu. ``accepts``, when set, replaces the menu as what
    ``resolve_options`` takes: it returns ``None`` for an acceptable value (every menu entry among
    them), else raises ``OptionsRefused``.
    """

    key: str
    label: str
    choices: tuple[Any, ...]
    default: Any
    choice_labels: tuple[str, ...] = field(default=())
    accepts: Callable[[Any], None] | None = field(default=None, compare=False)
    help: str = ""

    def labelled_choices(self) -> list[tuple[Any, str]]:
        labels = self.choice_labels or tuple(str(c) for c in self.choices)
        return list(zip(self.choices, labels, strict=True))


# --- the contract --------------------------------------------------------------------------------


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def visible_log(log: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """The log entries a seat (or a spectator, ``None``) may read."""
    return [e for e in log if e.get("to") is None or (seat is not None and seat in e["to"])]


class Engine(abc.ABC):
    """Base class of every game engine. Subclasses set the class attributes and the hooks."""

    slug: ClassVar[str] = ""
    name: ClassVar[str] = ""
    min_players: ClassVar[int] = 0
    max_players: ClassVar[int] = 0
    options: ClassVar[tuple[Option, ...]] = ()
    # Clock settings in seconds (table defaults), read by ``time_limit``.
    timers: ClassVar[dict[str, float]] = {"turn_s": 60}

    # -- public API (do not override) --

    def setup(self, n_players: int, options: dict[str, Any] | None = None, seed: int = 0) -> State:
        if not isinstance(n_players, int) or not self.min_players <= n_players <= self.max_players:
            raise ValueError(f"{self.slug} takes {self.min_players}-{self.max_players} players, not {n_players!r}")
        opts = self.resolve_options(options)
        state = self._setup(n_players, opts, seed, rng_for(seed, 0))
        state["seed"] = seed
        state["step"] = 0
        for key in ("public", "seats", "hidden", "log"):
            if key not in state:
                raise AssertionError(f"{self.slug}._setup must return {key!r}")
        return state

    def resolve_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """Defaults filled in; an unknown key or value raises ``ValueError``. ``deal`` passes through."""
        options = dict(options or {})
        resolved = {o.key: o.default for o in self.options}
        known = {o.key: o for o in self.options}
        for key, value in options.items():
            if key == "deal":
                resolved["deal"] = value
                continue
            if key not in known:
                raise ValueError(f"unknown option {key!r} for {self.slug}")
            option = known[key]
            if option.accepts is not None:
                option.accepts(value)  # raises OptionsRefused for a value the rules refuse
            elif value not in option.choices:
                raise ValueError(f"option {key!r} takes one of {list(known[key].choices)}, not {value!r}")
            resolved[key] = value
        return resolved

    def awaiting(self, state: State) -> set[int]:
        if self.is_over(state):
            return set()
        return set(self._awaiting(state["public"]))

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if not isinstance(seat, int) or seat not in self.awaiting(state):
            return []
        return [*self._legal(state["public"], state["seats"][seat], seat), dict(TIMEOUT)]

    def apply(self, state: State, seat: int, action: Any) -> State:
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("An action must be an object with a type.", "malformed")
        if self.is_over(state):
            raise IllegalAction("The game is over.", "game_over")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(state["seats"]):
            raise IllegalAction("There is no such seat.", "not_awaited")
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("It is not your decision now.", "not_awaited")
        if action["type"] not in {a["type"] for a in legal}:
            raise IllegalAction(f"You cannot {action['type']!r} now.", "unknown_action")
        wanted = _canonical(action)
        if not any(_canonical(a) == wanted for a in legal):
            raise IllegalAction("That move is not allowed now.", "illegal_action")
        new: State = copied(state)
        new["step"] = state["step"] + 1
        self._apply(new, seat, copied(action), rng_for(state["seed"], new["step"]))
        return new

    def decision_is_optional(self, state: State, seat: int) -> bool:
        """Whether letting the clock decide for ``seat`` now is no real miss: the seat is not
        awaited, its only choices are ``pass`` (or none), or the game marks the decision optional
        (``_optional_decision``: Night of the Mummy's ability windows). The platform counts only
        the other lapses towards handing a seat to a practice bot (ARCHITECTURE §5)."""
        legal = self.legal_actions(state, seat)
        if all(a["type"] in (PASS_TYPE, TIMEOUT["type"]) for a in legal):
            return True
        return self._optional_decision(state["public"], state["seats"][seat], seat)

    def is_out(self, state: State, seat: int) -> bool:
        """Whether ``seat`` is out of the match for good, with no decision left in it (Werewolf's
        dead): its player may simply go, and need not leave the game (which counts as a loss)."""
        return False

    def view(self, state: State, seat: int | None) -> View:
        """Everything ``seat`` may know (``None``: a spectator); after the end, everything."""
        over = self.is_over(state)
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < len(state["seats"])):
            raise ValueError(f"no seat {seat!r}")
        slot = state["seats"][seat] if seat is not None else None
        log = state["log"] if over else visible_log(state["log"], seat)
        view = self._seat_view(copied(state["public"]), copied(slot), copied(log), seat)
        view["seat"] = seat
        view["over"] = over
        view["awaiting"] = sorted(self.awaiting(state))
        if over:
            view["reveal"] = {"seats": copied(state["seats"]), "hidden": copied(state["hidden"])}
            result = self.result(state)
            view["result"] = result.to_dict() if result else None
        return view

    def result(self, state: State) -> Result | None:
        return self._result(state) if self.is_over(state) else None

    def is_over(self, state: State) -> bool:
        return bool(state["public"].get("over"))

    def time_limit(self, state: State, seat: int, timers: dict[str, float]) -> float:
        """Seconds the awaited ``seat`` has, counted from the start of the decision window."""
        return float(timers.get("turn_s", 60))

    def opens_new_window(self, before: State, after: State) -> bool:
        """Whether ``after`` starts a new decision window (its clocks restart)."""
        return not self.awaiting(after) <= self.awaiting(before)

    # -- hooks for each game --

    @abc.abstractmethod
    def _setup(self, n_players: int, options: dict[str, Any], seed: int, rng: random.Random) -> State:
        """Deal: return ``public``, ``seats``, ``hidden`` and ``log`` (``seed``/``step`` are added)."""

    @abc.abstractmethod
    def _awaiting(self, public: dict[str, Any]) -> list[int] | set[int]:
        """The seats whose decision the game waits for, read from ``public`` alone."""

    @abc.abstractmethod
    def _legal(self, public: dict[str, Any], slot: dict[str, Any], seat: int) -> list[Action]:
        """Legal actions of an awaited seat, without the trailing timeout."""

    @abc.abstractmethod
    def _apply(self, state: State, seat: int, action: Action, rng: random.Random) -> None:
        """Apply a legal action to ``state`` (a private copy: mutate it in place)."""

    def _seat_view(
        self, public: dict[str, Any], slot: dict[str, Any] | None, log: list[dict[str, Any]], seat: int | None
    ) -> View:
        return {"public": public, "me": slot, "log": log}

    def _optional_decision(self, public: dict[str, Any], slot: dict[str, Any], seat: int) -> bool:
        """Whether the awaited seat's decision may be let go without it being a miss (read from
        ``public`` and the seat's own slot). Most decisions are real: the default is False."""
        return False

    @abc.abstractmethod
    def _result(self, state: State) -> Result:
        """How the finished game ended (the whole state may be read: everything is revealed)."""

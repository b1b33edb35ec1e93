"""Fair roles across a night (issue 12 §6): nobody gets the same hidden side three games running,
and the deal stays verifiable from the night's revealed secret.

A seat's **side** (:func:`side_of`) is read from the deal, the engine's first state:

- werewolf: ``village`` or ``wolves`` (the team of the dealt role);
- insidejob: ``AGENTS`` or ``INSIDER`` as dealt; the Rival ``RIVAL``, the Shadow ``SHADOW``, the
  Scapegoat ``SCAPEGOAT`` (sides that are decided at the end, each its own);
- dracula: ``dracula`` or ``van_helsing``;
- monster and mummy: ``""`` (no side: everyone plays for themselves).

Sides are compared across games by **camp** (:func:`camp`): the hunted few (``wolves``,
``INSIDER``, ``dracula``) are the camp ``shadow``, the many who hunt them (``village``,
``AGENTS``, ``van_helsing``) the camp ``light``; any other side is its own camp. A person's
history is the list of the sides they were dealt at the night's earlier tables, oldest first;
a game with no side (``""``) is skipped, neither breaking nor extending a run. A deal gives
someone a **third in a row** when their last two sides with a camp share one camp and the new
side is of that camp too.

Ruling: by default a run of the ``light`` camp is not steered (``light_runs=False``). Four of
five werewolf seats are village, so a light run is the common case, and steering it would hand
the wolves' cards to the people with two light games behind them: everyone at the table can read
the earlier sides on the finished tables' pages and work out who the wolves are. Steering only
the few (the shadow camp and the lone sides) tells the table at most that someone with two
shadow games is not in the shadow now, which the rule itself announces. ``light_runs=True``
steers every camp, as the issue's sentence reads literally.

The scheme (``clubs.commitment``, ``shabneshin-night-v1``), for a table ``table_index`` of round
``round_no``, with its token and its seating string (as ``history.deals.seating_of`` writes it)::

    for attempt in 0, 1, … max_attempts - 1:
        deal secret = table_deal_secret(night secret, round_no, table_index, attempt)
        seed        = history.deals.derive_seed(deal secret, table token, seating)
        deal        = engine.setup(seat count, options, seed)
    take the first attempt whose deal gives nobody a third in a row; if none does, the earliest
    attempt with the fewest people given one.

The match then starts from that deal secret as an ordinary verifiable deal (its commitment on the
table page, its reveal at the end). After the night, anyone with the revealed night secret and
the previous rounds' sides (shown on the recap) recomputes every attempt and sees that the chosen
one is the first fair one: the server chose nothing but what this rule names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from clubs.commitment import table_deal_secret
from games import registry

SHADOW_CAMP = "shadow"
LIGHT_CAMP = "light"
CAMPS = {
    "wolves": SHADOW_CAMP,
    "INSIDER": SHADOW_CAMP,
    "dracula": SHADOW_CAMP,
    "village": LIGHT_CAMP,
    "AGENTS": LIGHT_CAMP,
    "van_helsing": LIGHT_CAMP,
}
INSIDEJOB_LATE_SIDES = {"S3": "RIVAL", "S4": "SHADOW", "S7": "SCAPEGOAT"}
RUN = 3  # a third same side in a row is what the deal avoids


def side_of(game: str, state: Mapping[str, Any], seat: int) -> str:
    """The hidden side dealt to ``seat`` (module docstring); "" for a game without sides."""
    slot = state["seats"][seat]
    if game == "werewolf":
        from games.werewolf.roles import team_of

        return team_of(slot["role"]).value
    if game == "insidejob":
        return str(slot.get("side") or INSIDEJOB_LATE_SIDES.get(slot["role"], ""))
    if game == "dracula":
        return str(slot["role"])
    return ""


def camp(side: str) -> str:
    """The camp a side is compared by across games; "" for no side."""
    return CAMPS.get(side, side)


def would_repeat(history: Sequence[str], side: str, light_runs: bool = False) -> bool:
    """Whether dealing ``side`` to someone with this ``history`` makes a third in a row that the
    fair deal avoids (module docstring: a light run only with ``light_runs``)."""
    if not camp(side) or (camp(side) == LIGHT_CAMP and not light_runs):
        return False
    camps = [camp(s) for s in history if camp(s)]
    return len(camps) >= RUN - 1 and all(c == camp(side) for c in camps[-(RUN - 1) :])


def repeats(
    game: str,
    state: Mapping[str, Any],
    people_in_seat_order: Sequence[str | None],
    previous_sides: Mapping[str, Sequence[str]],
    light_runs: bool = False,
) -> list[str]:
    """The people this deal gives a third same side in a row (a bot's seat is ``None``)."""
    return [
        person
        for seat, person in enumerate(people_in_seat_order)
        if person is not None and would_repeat(previous_sides.get(person, ()), side_of(game, state, seat), light_runs)
    ]


def fair_deal_secret(
    game: str,
    seat_count: int,
    options: Mapping[str, Any] | None,
    people_in_seat_order: Sequence[str | None],
    previous_sides: Mapping[str, Sequence[str]],
    night_secret: str,
    round_no: int,
    table_index: int,
    table_token: str,
    max_attempts: int = 32,
    *,
    seating: str,
    light_runs: bool = False,
) -> tuple[str, int]:
    """The deal secret of the table and its attempt number (module docstring). ``seating`` is the
    table's seating string (``history.deals.seating_of``: "0:p17,1:bot"), which the seed reads;
    ``people_in_seat_order`` names, per seat, whose history counts (``None`` for a bot)."""
    from history.deals import derive_seed

    if len(people_in_seat_order) != seat_count:
        raise ValueError("one person (or None for a bot) per seat")
    engine = registry.get(game)
    best: tuple[int, str, int] | None = None
    for attempt in range(max(1, max_attempts)):
        secret = table_deal_secret(night_secret, round_no, table_index, attempt)
        state = engine.setup(seat_count, dict(options or {}), derive_seed(secret, table_token, seating))
        bad = len(repeats(game, state, people_in_seat_order, previous_sides, light_runs))
        if best is None or bad < best[0]:
            best = (bad, secret, attempt)
        if bad == 0:
            break
    assert best is not None
    return best[1], best[2]

"""The night's scoreboard: a versioned points table per game, and the standings (issue 12 §5).

Points table, version 1 (``POINTS_VERSION``). *Raw* points of one seat at one finished table:

=========== ================================================================= =========
game        points                                                            table max
=========== ================================================================= =========
werewolf    win +3 (your side won); survive as a winner +1 (alive at the end)        4
insidejob   your side wins +3 (a Rival or Scapegoat wins alone; LARRY's win:          3
            nobody scores)
dracula     your side wins +3                                                         3
monster     place points: 3 × the share of the other seats you finished above         3
            (the winner 3, the last 0; equal places share)
mummy       place points, as monster (the winner 3, the others 0; a draw: 0)          3
=========== ================================================================= =========

Who won and who finished above whom is read from the engine's ``Result`` the way the club ratings
read it (:func:`history.ratings.standings`), so both always agree.

**Normalisation**, so that one game does not dominate: a seat's points are its raw points
scaled so that the most one seat can earn at a table is ``NORMAL`` (10) in every game::

    points = raw × NORMAL / table max of the game

so a werewolf winner who survived earns 10, a dead winner 7.5, a Dracula winner 10, the second
of five in Monster 7.5. An aborted or unfinished table (no result) counts for nothing, and so
does a game the version has no row for.

A night's points keep their meaning: a night is scored with the version it started with, and a
new table is a new version (the old ones stay here).

**Standings** (:func:`standings`) sum each person's table points, add the best-player awards
(``BEST_PLAYER_BONUS`` each unless an award says otherwise) and take off the penalties; people
are ranked by the order printed on the page, :data:`TIE_BREAKS`; people equal on all of them
share the place (and are listed by id).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.base import Result, gettext_noop

POINTS_VERSION = 1
NORMAL = 10.0
BEST_PLAYER_BONUS = 2.0

WIN = "win"
SURVIVE_WIN = "survive_win"
PLACE = "place"

# version -> game -> rule -> raw points (PLACE: the points of the first place)
POINTS: dict[int, dict[str, dict[str, float]]] = {
    1: {
        "werewolf": {WIN: 3, SURVIVE_WIN: 1},
        "insidejob": {WIN: 3},
        "dracula": {WIN: 3},
        "monster": {PLACE: 3},
        "mummy": {PLACE: 3},
    },
}

# The table as the scoreboard page prints it: (game, rule, what it means)
DESCRIPTIONS: dict[str, str] = {
    WIN: gettext_noop("your side wins"),
    SURVIVE_WIN: gettext_noop("alive at the end, on the winning side"),
    PLACE: gettext_noop("for finishing above every other seat (a share for finishing above some)"),
}

TIE_BREAKS: tuple[str, ...] = (
    gettext_noop("Most points"),
    gettext_noop("Most tables won"),
    gettext_noop("Most best-player awards"),
    gettext_noop("Fewest penalty points"),
    gettext_noop("Fewest tables played (the same points in fewer games)"),
    gettext_noop("Still equal: the place is shared"),
)


def _table(version: int) -> dict[str, dict[str, float]]:
    if version not in POINTS:
        raise ValueError(f"unknown points version {version}")
    return POINTS[version]


def table_max(game: str, version: int = POINTS_VERSION) -> float:
    """The most raw points one seat can earn at a table of ``game``."""
    rules = _table(version).get(game, {})
    return float(sum(rules.values()))


def _result_dict(result: Result | Mapping[str, Any] | None) -> dict[str, Any] | None:
    if result is None:
        return None
    if isinstance(result, Result):
        return result.to_dict()
    return dict(result)


def _beaten_share(places: list[tuple[list[int], int]], seat: int) -> float:
    """The share of the other seats that finished strictly below ``seat``."""
    place_of = {s: place for team, place in places for s in team}
    if seat not in place_of or len(place_of) < 2:
        return 0.0
    below = sum(1 for s, place in place_of.items() if s != seat and place > place_of[seat])
    return below / (len(place_of) - 1)


def raw_points(
    game: str,
    state: Mapping[str, Any] | None,
    result: Result | Mapping[str, Any] | None,
    seat: int,
    version: int = POINTS_VERSION,
) -> list[tuple[str, float]]:
    """The rules a seat earned at one table, as ``(rule, raw points)``; [] for nothing.

    ``state`` is the engine's final state; version 1 reads only the result."""
    from history.ratings import standings as places_of

    rules = _table(version).get(game)
    data = _result_dict(result)
    if not rules or data is None or not 0 <= seat < len(data.get("seats", [])):
        return []
    earned: list[tuple[str, float]] = []
    won = seat in set(data.get("winners", []))
    if WIN in rules and won:
        earned.append((WIN, rules[WIN]))
    if SURVIVE_WIN in rules and won and data["seats"][seat].get("alive"):
        earned.append((SURVIVE_WIN, rules[SURVIVE_WIN]))
    if PLACE in rules and data.get("winners"):
        share = _beaten_share(places_of(game, data), seat)
        if share:
            earned.append((PLACE, rules[PLACE] * share))
    return earned


def table_points(
    game: str,
    state: Mapping[str, Any] | None,
    result: Result | Mapping[str, Any] | None,
    seat: int,
    version: int = POINTS_VERSION,
) -> float:
    """A seat's normalised points at one finished table (module docstring); 0 for an aborted one."""
    most = table_max(game, version)
    if not most:
        return 0.0
    return round(sum(p for _rule, p in raw_points(game, state, result, seat, version)) * NORMAL / most, 4)


# --- standings -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableScore:
    """One person's result at one table of the night."""

    person: str
    table: str  # the table's id (any stable text)
    game: str
    points: float  # table_points(...)
    won: bool
    aborted: bool = False  # an aborted table counts for nothing


@dataclass(frozen=True)
class Award:
    """Best player of a table (by the table's votes or the organizer's pick)."""

    person: str
    table: str
    points: float = BEST_PLAYER_BONUS


@dataclass(frozen=True)
class Penalty:
    person: str
    points: float  # taken off (positive)
    reason: str


@dataclass
class Standing:
    person: str
    place: int = 0
    points: float = 0.0  # tables + awards - penalties
    table_points: float = 0.0
    tables: int = 0
    wins: int = 0
    awards: int = 0
    award_points: float = 0.0
    penalty_points: float = 0.0
    by_game: dict[str, float] = field(default_factory=dict)

    def key(self) -> tuple[float, int, int, float, int]:
        """The tie-break order of TIE_BREAKS (smaller is better)."""
        return (-round(self.points, 4), -self.wins, -self.awards, round(self.penalty_points, 4), self.tables)


def standings(
    rows: Iterable[TableScore],
    awards: Iterable[Award] = (),
    penalties: Iterable[Penalty] = (),
) -> list[Standing]:
    """Everyone with a row, an award or a penalty, ranked by :data:`TIE_BREAKS`; equal keys share
    a place (competition ranking: 1, 1, 3)."""
    people: dict[str, Standing] = {}

    def of(person: str) -> Standing:
        return people.setdefault(person, Standing(person))

    seen: set[tuple[str, str]] = set()
    for row in rows:
        if row.aborted or (row.person, row.table) in seen:
            continue
        seen.add((row.person, row.table))
        standing = of(row.person)
        standing.tables += 1
        standing.wins += 1 if row.won else 0
        standing.table_points += row.points
        standing.by_game[row.game] = standing.by_game.get(row.game, 0.0) + row.points
    for award in awards:
        standing = of(award.person)
        standing.awards += 1
        standing.award_points += award.points
    for penalty in penalties:
        of(penalty.person).penalty_points += penalty.points
    for standing in people.values():
        standing.points = round(standing.table_points + standing.award_points - standing.penalty_points, 4)
    ranked = sorted(people.values(), key=lambda s: (s.key(), s.person))
    for i, standing in enumerate(ranked):
        standing.place = ranked[i - 1].place if i and ranked[i - 1].key() == standing.key() else i + 1
    return ranked


def tally(votes: Mapping[str, str], pick: str | None = None) -> str | None:
    """A table's best player: the organizer's ``pick`` if given, else the one most voted for
    (one vote per voter; a voter's vote for themselves does not count); a tie names nobody."""
    if pick is not None:
        return pick
    counts: dict[str, int] = defaultdict(int)
    for voter, candidate in sorted(votes.items()):
        if voter != candidate:
            counts[candidate] += 1
    if not counts:
        return None
    most = max(counts.values())
    top = sorted(c for c, n in counts.items() if n == most)
    return top[0] if len(top) == 1 else None


def table_rows(version: int = POINTS_VERSION) -> list[tuple[str, str, float, float]]:
    """The points table as the page prints it: (game, rule's description msgid, raw, normalised)."""
    rows = []
    for game, rules in sorted(_table(version).items()):
        most = table_max(game, version)
        rows += [(game, DESCRIPTIONS[rule], raw, round(raw * NORMAL / most, 4)) for rule, raw in rules.items()]
    return rows

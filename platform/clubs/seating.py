"""Rotating, fair seating for a round of a club night (issue 12 §2): pure, no Django model.

People are opaque stable ids ("u12" for a member, "w3" for a walk-in). :func:`seat_round` seats
the round's pool into tables of the round's games and is deterministic for the same ``rng`` and
inputs: it reads people sorted, rules sorted, games and locked tables in the given order, never a
set's order, and draws nothing from ``rng`` but ``.random()`` (stable across Python versions).

1. **Locked tables** are kept exactly as given (even someone not in ``people``) and come first;
   their people leave the pool.
2. **Table sizes.** For each game (in the organizer's order) the solver picks how many of the pool
   it seats; ``m`` people of a game sit at ``ceil(m / max_players)`` tables, split as evenly as
   possible (the first tables take the extra person), and a table below ``min_players`` is filled
   with bots, only when ``allow_bots``. Among all splits it takes, in this order: the most people
   seated; the fewest bots; the most of the round's games played (a locked table counts); the
   fewest tables; the most even table sizes (the least sum of squared sizes); then the earlier
   game taking more.
3. **Who sits out**, when the count cannot be fitted: drawn from ``rng`` (a uniform shuffle of the
   sorted pool; the last ones sit out), each with the reason.
4. **Local search.** The penalty of a seating is the sum, over each two people at one table, of
   their pair weight: ``meetings[pair]`` (how often they already sat together, weighted by the
   caller; see :func:`meetings_from`), plus ``APART_PENALTY`` for a keep-apart pair, minus
   ``TOGETHER_BONUS`` for a prefer-together pair (whose meetings then cost nothing: they are
   meant to meet again). From ``RESTARTS`` shuffles drawn from ``rng``, a hill climb swaps two
   people of different tables whenever that lowers the penalty, until no swap does;
   the lowest result wins (the earliest on a tie). Keep-apart is thus hard wherever the tables
   allow it; a rule still broken is reported in ``broken`` with why.
5. **Seat positions.** At each table, people are put in the seat order with the least sum of
   ``seat_counts[p][seat]`` (how often p already sat there), an assignment solved exactly (the
   Hungarian method) over the people in an ``rng`` shuffle's order. Bots take the last seats.

``penalty`` is the seating's whole penalty: the pair weights of every table (locked ones
included) plus the sum of ``seat_counts[p][seat]`` over everyone's seat.

**Quality** (0–100): ``100 × fresh / pairs``, where ``pairs`` counts each two people seated at one
table this round (locked tables included) and ``fresh`` those who never sat together before
(``meetings`` is 0) or are a prefer-together pair; 100 when there is no pair. Then
``QUALITY_APART`` (20) is taken off for each keep-apart rule broken and ``QUALITY_TOGETHER`` (5)
for each prefer-together rule not kept, and the figure is clamped to 0–100 and rounded.
So 100 means no repeated pair and every rule kept.

Rulings: a rule naming someone absent from the round does not apply (not kept, not broken). A
prefer-together pair with one of them sitting out, or at a locked table the other is not at, is
reported as not kept. A table has at least one person; bots only fill up to ``min_players``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from clubs import texts
from clubs.texts import Refused, Text, _
from games.base import shuffled as _shuffled

APART = "apart"
TOGETHER = "together"
APART_PENALTY = 1000.0
TOGETHER_BONUS = 2.0
RESTARTS = 6
QUALITY_APART = 20
QUALITY_TOGETHER = 5
# meetings_from: a pair's weight per table shared tonight, and per table shared on a past night
TONIGHT_WEIGHT = 2.0
PAST_WEIGHT = 1.0


@dataclass(frozen=True)
class GameChoice:
    game: str  # registry slug
    min_players: int
    max_players: int

    def __post_init__(self) -> None:
        if not 1 <= self.min_players <= self.max_players:
            raise ValueError(f"{self.game}: player limits {self.min_players}..{self.max_players}")


@dataclass(frozen=True)
class PairRule:
    a: str
    b: str
    kind: str  # APART | TOGETHER

    def __post_init__(self) -> None:
        if self.kind not in (APART, TOGETHER):
            raise ValueError(f"unknown pair rule kind {self.kind!r}")
        if self.a == self.b:
            raise ValueError("a pair rule names two different people")

    @property
    def pair(self) -> frozenset[str]:
        return frozenset((self.a, self.b))


@dataclass(frozen=True)
class TableDraft:
    game: str
    people: tuple[str, ...]  # in seat order, seat 0 first; bots take the seats after them
    bots: int = 0
    locked: bool = False

    @property
    def size(self) -> int:
        return len(self.people) + self.bots


@dataclass(frozen=True)
class Inputs:
    """What a seating was computed from, kept so that :func:`swap` can recompute its quality."""

    meetings: Mapping[frozenset[str], float] = field(default_factory=dict)
    seat_counts: Mapping[str, Mapping[int, int]] = field(default_factory=dict)
    rules: tuple[PairRule, ...] = ()


@dataclass(frozen=True)
class Seating:
    tables: tuple[TableDraft, ...]
    unseated: tuple[tuple[str, str], ...]  # (person, why)
    broken: tuple[tuple[PairRule, str], ...]  # (rule, why)
    quality: int
    penalty: float
    steps: tuple[str, ...]
    inputs: Inputs = field(default_factory=Inputs, compare=False, repr=False)

    def table_of(self, person: str) -> int | None:
        return next((i for i, t in enumerate(self.tables) if person in t.people), None)

    def to_dict(self) -> dict[str, Any]:
        """JSON for storage (texts as msgid and parameters, so they can be shown in any language)."""

        def text(value: str) -> Any:
            return value.to_dict() if isinstance(value, Text) else value

        return {
            "tables": [
                {"game": t.game, "people": list(t.people), "bots": t.bots, "locked": t.locked} for t in self.tables
            ],
            "unseated": [[p, text(why)] for p, why in self.unseated],
            "broken": [[[r.a, r.b, r.kind], text(why)] for r, why in self.broken],
            "quality": self.quality,
            "penalty": self.penalty,
            "steps": [text(s) for s in self.steps],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], inputs: Inputs | None = None) -> Seating:
        def text(value: Any) -> str:
            return Text.from_dict(value) if isinstance(value, dict) else str(value)

        return cls(
            tables=tuple(
                TableDraft(t["game"], tuple(t["people"]), int(t.get("bots", 0)), bool(t.get("locked")))
                for t in data["tables"]
            ),
            unseated=tuple((p, text(why)) for p, why in data.get("unseated", [])),
            broken=tuple((PairRule(*r), text(why)) for r, why in data.get("broken", [])),
            quality=int(data["quality"]),
            penalty=float(data["penalty"]),
            steps=tuple(text(s) for s in data.get("steps", [])),
            inputs=inputs or Inputs(),
        )


def pair(a: str, b: str) -> frozenset[str]:
    return frozenset((a, b))


def meetings_from(history_tonight: list[list[str]], history_past: list[list[str]]) -> dict[frozenset[str], float]:
    """Pair weights for :func:`seat_round`: each table two people shared tonight adds
    ``TONIGHT_WEIGHT`` (2), each table they shared on one of the club's recent nights (the caller
    passes the last four) adds ``PAST_WEIGHT`` (1). A table is the list of its people's ids."""
    weights: dict[frozenset[str], float] = {}
    for tables, weight in ((history_tonight, TONIGHT_WEIGHT), (history_past, PAST_WEIGHT)):
        for table in tables:
            people = sorted(set(table))
            for i, a in enumerate(people):
                for b in people[i + 1 :]:
                    key = pair(a, b)
                    weights[key] = weights.get(key, 0.0) + weight
    return weights


# --- 2. table sizes ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Plan:
    game: GameChoice
    sizes: tuple[int, ...]  # people per table
    bots: tuple[int, ...]


def _split(choice: GameChoice, m: int, allow_bots: bool) -> _Plan | None:
    """``m`` people of one game at the fewest tables, evenly; None when it cannot be done."""
    if m == 0:
        return _Plan(choice, (), ())
    k = math.ceil(m / choice.max_players)
    sizes = tuple(m // k + (1 if i < m % k else 0) for i in range(k))
    bots = tuple(max(0, choice.min_players - s) for s in sizes)
    if any(bots) and not allow_bots:
        return None
    return _Plan(choice, sizes, bots)


def _plans(pool: int, games: Sequence[GameChoice], covered: set[int], allow_bots: bool) -> list[_Plan]:
    """The lexicographically best split of ``pool`` people over ``games`` (module docstring, 2):
    a dynamic programme over the games in order, keyed by how many are seated so far."""
    Key = tuple[int, int, int, int, int, tuple[int, ...]]
    best: dict[int, tuple[Key, list[_Plan]]] = {0: ((0, 0, 0, 0, 0, ()), [])}
    for index, choice in enumerate(games):
        options = []  # (m, plan, cost of the plan) for every count this game can seat
        for m in range(pool + 1):
            plan = _split(choice, m, allow_bots)
            if plan is not None:
                newly = 1 if m and index not in covered else 0
                cost = (-m, sum(plan.bots), -newly, len(plan.sizes), sum(size * size for size in plan.sizes))
                options.append((m, plan, cost))
        nxt: dict[int, tuple[Key, list[_Plan]]] = {}
        for used, (key, plans) in sorted(best.items()):
            for m, plan, cost in options:
                if used + m > pool:
                    break
                cand: Key = (
                    key[0] + cost[0],
                    key[1] + cost[1],
                    key[2] + cost[2],
                    key[3] + cost[3],
                    key[4] + cost[4],
                    (*key[5], -m),
                )
                here = used + m
                if here not in nxt or cand < nxt[here][0]:
                    nxt[here] = (cand, [*plans, plan])
        best = nxt
    return min(best.values(), key=lambda kv: kv[0])[1] if best else []


# --- 4. the local search ------------------------------------------------------------------------


def _weights(pool: list[str], meetings: Mapping[frozenset[str], float], rules: Sequence[PairRule]) -> list[list[float]]:
    index = {p: i for i, p in enumerate(pool)}
    n = len(pool)
    w = [[0.0] * n for _ in range(n)]
    for i, a in enumerate(pool):
        for j in range(i + 1, n):
            v = float(meetings.get(pair(a, pool[j]), 0.0))
            w[i][j] = w[j][i] = v
    for rule in sorted(rules, key=lambda r: r.kind != TOGETHER):  # keep-apart last: it wins a clash
        x, y = index.get(rule.a), index.get(rule.b)
        if x is None or y is None:
            continue
        if rule.kind == APART:
            w[x][y] += APART_PENALTY
        else:  # meant to meet again: their meetings cost nothing
            w[x][y] = -TOGETHER_BONUS
        w[y][x] = w[x][y]
    return w


def _penalty(groups: list[list[int]], w: list[list[float]]) -> float:
    return sum(w[x][y] for g in groups for i, x in enumerate(g) for y in g[i + 1 :])


def _climb(groups: list[list[int]], w: list[list[float]], rng: random.Random) -> tuple[list[list[int]], int]:
    """Swap two people of different tables while it lowers the penalty (first improvement, in an
    order drawn from ``rng``). ``s[x][t]`` is x's weight summed over table t, so a swap's change is
    read in constant time."""
    n = len(w)
    where = [-1] * n
    for t, g in enumerate(groups):
        for x in g:
            where[x] = t
    members = [x for g in groups for x in g]
    s = [[sum(w[x][z] for z in g) for g in groups] for x in range(n)]
    seat_of = {x: (t, i) for t, g in enumerate(groups) for i, x in enumerate(g)}
    swaps = 0
    improved = True
    while improved:
        improved = False
        for x in _shuffled(rng, members):
            for y in members:
                a, b = where[x], where[y]
                if a == b:
                    continue
                delta = (s[x][b] - w[x][y]) + (s[y][a] - w[y][x]) - s[x][a] - s[y][b]
                if delta < -1e-9:
                    for z in range(n):
                        s[z][a] += w[z][y] - w[z][x]
                        s[z][b] += w[z][x] - w[z][y]
                    (ta, ia), (tb, ib) = seat_of[x], seat_of[y]
                    groups[ta][ia], groups[tb][ib] = y, x
                    seat_of[x], seat_of[y] = (tb, ib), (ta, ia)
                    where[x], where[y] = b, a
                    swaps += 1
                    improved = True
    return groups, swaps


def _count(seat_counts: Mapping[str, Mapping[Any, int]], person: str, seat: int) -> int:
    counts = seat_counts.get(person) or {}
    return int(counts.get(seat, counts.get(str(seat), 0)) or 0)


def _assignment(cost: list[list[int]]) -> list[int]:
    """The Hungarian method: for each column (seat), the row (person) of a least-cost assignment
    of a square matrix. Ties go the same way for the same matrix."""
    n = len(cost)
    inf = float("inf")
    u, v = [0.0] * (n + 1), [0.0] * (n + 1)
    row_of, way = [0] * (n + 1), [0] * (n + 1)
    for i in range(1, n + 1):
        row_of[0], j0 = i, 0
        least, used = [inf] * (n + 1), [False] * (n + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = row_of[j0], inf, 0
            for j in range(1, n + 1):
                if not used[j]:
                    here = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if here < least[j]:
                        least[j], way[j] = here, j0
                    if least[j] < delta:
                        delta, j1 = least[j], j
            for j in range(n + 1):
                if used[j]:
                    u[row_of[j]] += delta
                    v[j] -= delta
                else:
                    least[j] -= delta
            j0 = j1
            if row_of[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            row_of[j0] = row_of[j1]
            j0 = j1
    return [row_of[j] - 1 for j in range(1, n + 1)]


def _seat_order(people: list[str], seat_counts: Mapping[str, Mapping[Any, int]], rng: random.Random) -> list[str]:
    """People in seat order with the least sum of how often each already sat in their seat
    (module docstring, 5); among equal orders, the one nearest an ``rng`` shuffle."""
    order = _shuffled(rng, people)
    if not any(p in seat_counts for p in order):
        return order
    rows = _assignment([[_count(seat_counts, p, seat) for seat in range(len(order))] for p in order])
    return [order[r] for r in rows]


# --- the result's report -------------------------------------------------------------------------


def _applicable(rules: Sequence[PairRule], present: set[str]) -> list[PairRule]:
    unique = {(r.kind, *sorted((r.a, r.b))): r for r in rules}
    return [unique[k] for k in sorted(unique) if unique[k].a in present and unique[k].b in present]


def _broken(tables: Sequence[TableDraft], unseated: set[str], rules: list[PairRule]) -> list[tuple[PairRule, str]]:
    at = {p: i for i, t in enumerate(tables) for p in t.people}
    out: list[tuple[PairRule, str]] = []
    for rule in rules:
        ta, tb = at.get(rule.a), at.get(rule.b)
        if rule.kind == APART:
            if ta is None or ta != tb:
                continue
            if tables[ta].locked:
                why = _("They were locked at the same table.")
            elif sum(1 for t in tables if not t.locked) == 1:
                why = _("This round has a single table to seat them at.")
            else:
                why = _("The table sizes and the other keep-apart rules left no way to seat them apart.")
            out.append((rule, why))
        else:
            if ta is not None and ta == tb:
                continue
            if rule.a in unseated or rule.b in unseated:
                why = _("One of them sits this round out.")
            elif any(t is not None and tables[t].locked for t in (ta, tb)):
                why = _("One of them is at a locked table the other is not at.")
            else:
                why = _("Seating them together would have repeated more pairs or broken a keep-apart rule.")
            out.append((rule, why))
    return out


def _quality(
    tables: Sequence[TableDraft], inputs: Inputs, broken: Iterable[tuple[PairRule, str]]
) -> tuple[int, int, int]:
    """(quality, fresh pairs, pairs): a prefer-together pair meeting again counts as fresh."""
    meetings = inputs.meetings
    meant = {r.pair for r in inputs.rules if r.kind == TOGETHER}
    pairs = fresh = 0
    for table in tables:
        people = sorted(table.people)
        for i, a in enumerate(people):
            for b in people[i + 1 :]:
                pairs += 1
                fresh += 1 if pair(a, b) in meant or not meetings.get(pair(a, b)) else 0
    figure = 100.0 * fresh / pairs if pairs else 100.0
    for rule, _why in broken:
        figure -= QUALITY_APART if rule.kind == APART else QUALITY_TOGETHER
    return max(0, min(100, round(figure))), fresh, pairs


def _full_penalty(tables: Sequence[TableDraft], inputs: Inputs) -> float:
    people = sorted({p for t in tables for p in t.people})
    index = {p: i for i, p in enumerate(people)}
    w = _weights(people, inputs.meetings, inputs.rules)
    groups = [[index[p] for p in t.people] for t in tables]
    seat_cost = sum(_count(inputs.seat_counts, p, s) for t in tables for s, p in enumerate(t.people))
    return _penalty(groups, w) + seat_cost


def _report(
    tables: tuple[TableDraft, ...],
    unseated: tuple[tuple[str, str], ...],
    rules: list[PairRule],
    inputs: Inputs,
    steps: list[str],
) -> Seating:
    broken = tuple(_broken(tables, {p for p, _w in unseated}, rules))
    quality, fresh, pairs = _quality(tables, inputs, broken)
    steps.append(
        _(
            "Quality %(quality)d: %(fresh)d of %(pairs)d pairs at a table meet for the first time; "
            "%(broken)d rules not kept.",
            quality=quality,
            fresh=fresh,
            pairs=pairs,
            broken=len(broken),
        )
    )
    return Seating(tables, unseated, broken, quality, _full_penalty(tables, inputs), tuple(steps), inputs)


# --- the solver ----------------------------------------------------------------------------------


def _why_unseated(games: Sequence[GameChoice], seated: int, allow_bots: bool) -> Text:
    if not games:
        return _("No game was chosen for this round.")
    if seated == 0:
        return _(
            "Too few people for any game of this round (the smallest needs %(min)d players), "
            "and bots may not fill seats.",
            min=min(g.min_players for g in games),
        )
    return _(
        "The count does not fit the games' player limits, and bots may not fill seats: drawn to sit this round out."
    )


def seat_round(
    people: Sequence[str],
    games: Sequence[GameChoice],
    *,
    rng: random.Random,
    meetings: Mapping[frozenset[str], float] = {},  # noqa: B006 (read only)
    seat_counts: Mapping[str, Mapping[int, int]] = {},  # noqa: B006 (read only)
    rules: Sequence[PairRule] = (),
    allow_bots: bool = False,
    locked: Sequence[TableDraft] = (),
) -> Seating:
    """Seat one round (module docstring)."""
    inputs = Inputs(meetings, seat_counts, tuple(rules))
    locked_tables = tuple(TableDraft(t.game, tuple(t.people), t.bots, True) for t in locked)
    in_locked = {p for t in locked_tables for p in t.people}
    pool = sorted(set(people) - in_locked)
    steps: list[str] = [
        _(
            "Round inputs: %(people)d people checked in, %(locked)d locked tables, games: %(games)s.",
            people=len(set(people) | in_locked),
            locked=len(locked_tables),
            games=texts.games((g.game, g.min_players, g.max_players) for g in games),
        )
    ]
    covered = {i for i, g in enumerate(games) if any(t.game == g.game for t in locked_tables)}
    plans = _plans(len(pool), games, covered, allow_bots)
    sizes = [(p.game.game, size, bots) for p in plans for size, bots in zip(p.sizes, p.bots, strict=True)]
    seated = sum(size for _g, size, _b in sizes)

    order = _shuffled(rng, pool)
    sitting, out = order[:seated], order[seated:]
    why = _why_unseated(games, seated, allow_bots)
    unseated = tuple((p, why) for p in sorted(out))
    steps.append(_("Order drawn from the seed: %(order)s.", order=texts.people(order)))
    steps.append(_("Tables: %(tables)s.", tables=texts.tables(sizes)))
    if out:
        steps.append(_("Sitting out: %(people)s.", people=texts.people(sorted(out))))

    index = {p: i for i, p in enumerate(sitting)}
    w = _weights(sitting, meetings, rules)
    best: tuple[float, list[list[int]]] | None = None
    start_penalty = None
    total_swaps = 0
    for attempt in range(RESTARTS if sitting else 0):
        shuffled = sitting if attempt == 0 else _shuffled(rng, sitting)
        groups, cursor = [], 0
        for _g, size, _b in sizes:
            groups.append([index[p] for p in shuffled[cursor : cursor + size]])
            cursor += size
        if start_penalty is None:
            start_penalty = _penalty(groups, w)
        groups, swaps = _climb(groups, w, rng)
        total_swaps += swaps
        value = _penalty(groups, w)
        if best is None or value < best[0] - 1e-9:
            best = (value, groups)
    new_tables: list[TableDraft] = []
    if best is not None:
        for (game, _size, bots), group in zip(sizes, best[1], strict=True):
            seated_people = _seat_order([sitting[x] for x in group], seat_counts, rng)
            new_tables.append(TableDraft(game, tuple(seated_people), bots))
        steps.append(
            _(
                "Local search from %(restarts)d shuffles: %(swaps)d swaps took the pair penalty "
                "from %(before)s to %(after)s.",
                restarts=RESTARTS,
                swaps=total_swaps,
                before=f"{start_penalty:g}",
                after=f"{best[0]:g}",
            )
        )
    tables = locked_tables + tuple(new_tables)
    present = set(people) | in_locked
    return _report(tables, unseated, _applicable(rules, present), inputs, steps)


# --- the organizer's swap ------------------------------------------------------------------------


def _limits(games: Sequence[GameChoice], game: str) -> GameChoice | None:
    return next((g for g in games if g.game == game), None)


def swap(
    seating: Seating,
    a: str,
    b: str,
    games: Sequence[GameChoice],
    *,
    inputs: Inputs | None = None,
) -> Seating:
    """Swap two people (two seats of one table, two tables, or someone seated with someone sitting
    out) and recompute the report. Refused, with a translated message, for an unknown person, the
    same person twice, someone at a locked table, or a table outside its game's limits (a stale
    draft). ``inputs`` replaces the meetings and rules the seating was computed from (for a
    seating read back with :meth:`Seating.from_dict`)."""
    inputs = inputs or seating.inputs
    if a == b:
        raise Refused(_("Choose two different people to swap."))
    where: dict[str, tuple[int, int] | None] = {}
    outs = [p for p, _w in seating.unseated]
    for person in (a, b):
        seat = next(
            ((t, s) for t, table in enumerate(seating.tables) for s, p in enumerate(table.people) if p == person), None
        )
        if seat is None and person not in outs:
            raise Refused(_("%(person)s is not in this round's seating.", person=person))
        if seat is not None and seating.tables[seat[0]].locked:
            raise Refused(_("%(person)s is at a locked table: unlock it first.", person=person))
        where[person] = seat
    if where[a] is None and where[b] is None:
        raise Refused(_("Both sit this round out: there is nothing to swap."))
    tables = [list(t.people) for t in seating.tables]
    unseated = list(seating.unseated)
    for x, y in ((a, b), (b, a)):
        seat = where[x]
        if seat is not None:
            tables[seat[0]][seat[1]] = y
    if where[a] is None or where[b] is None:
        out, seated = (a, b) if where[a] is None else (b, a)
        unseated = [(seated if p == out else p, why) for p, why in unseated]
    new = tuple(
        TableDraft(t.game, tuple(people), t.bots, t.locked) for t, people in zip(seating.tables, tables, strict=True)
    )
    for table in new:
        limits = _limits(games, table.game)
        if limits is None:
            raise Refused(
                _(
                    "%(game)s is not one of this round's games any more: seat the round again.",
                    game=texts.game(table.game),
                )
            )
        if not limits.min_players <= table.size <= limits.max_players:
            raise Refused(
                _(
                    "A %(game)s table must have %(min)d to %(max)d players: seat the round again.",
                    game=texts.game(table.game),
                    min=limits.min_players,
                    max=limits.max_players,
                )
            )
    present = {p for t in new for p in t.people} | {p for p, _w in unseated}
    steps = [*seating.steps, _("Swapped %(a)s and %(b)s.", a=a, b=b)]
    unseated_t = tuple(sorted(unseated))
    return _report(new, unseated_t, _applicable(inputs.rules, present), inputs, steps)

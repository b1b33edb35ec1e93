"""Ratings with openskill's Plackett-Luce model, one rating per player and game (ARCHITECTURE §10).

Who counts: a finished match of a rated game where every seat is a person and no bot ever moved
for one (no practice bot, no autopilot: the move log has no bot move), but for the seats of players
who left the game; aborted matches never count.
How a result becomes teams and places (:func:`standings`):

- werewolf: the village against the wolves, the winning side first;
- insidejob: the agents against the Insider (a Rival or a Scapegoat is a team of one); a match
  LARRY, the dummy position of the two-player game, wins alone rates nobody;
- dracula: one against one;
- monster, mummy: free-for-all by place (the winner first, then by score; equal scores share).

**Ruling: leaving is a loss** (:func:`with_leavers`). A player who leaves a running match ("Leave
the game", ``tables.moderator.leave_game``) hands their seat to the autopilot for good. Its moves
after the leave do not make the match unrated, as any other bot move would: a loser could
otherwise leave to escape the result. Nor does the leaver take the seat's final result, which the
bot may have turned into a win (the Monster bot beats random players almost always). The leaver
is rated as having lost to everyone who stayed, each leaver a team of one placed below every
player who stayed (leavers tie among themselves); those who stayed keep the places the result
gives them among themselves (a leaver's teammates keep their side's result). A match every person
left rates nobody, and a result that rates nobody (LARRY alone) still rates nobody. Missed
decisions (the autopilot until the player takes the seat back) are not a leave: a match with
such bot moves still counts for nobody.

Every change is stored per match (``RatingChange``) and :func:`recompute` replays every rated match
in the order they finished, which must give the same table as the incremental updates.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from openskill.models import PlackettLuce

from history.models import Rating, RatingChange
from tables.models import Match, Move, Seat

log = logging.getLogger(__name__)

RATED_GAMES = frozenset({"werewolf", "insidejob", "dracula", "monster", "mummy"})
MODEL = PlackettLuce()
TEAM_GAMES = frozenset({"werewolf", "insidejob"})


def standings(game: str, result: dict[str, Any]) -> list[tuple[list[int], int]]:
    """The teams (lists of seats) and their places (1 is best) a result rates; [] rates nobody."""
    winners = set(result.get("winners", []))
    rows = result.get("seats", [])
    if game in TEAM_GAMES:
        if not winners:
            return []  # LARRY won alone (Inside Job), or no side won: nobody to rate against
        sides: dict[str, list[int]] = defaultdict(list)
        for seat, row in enumerate(rows):
            side = row.get("side")
            lone = game == "insidejob" and side in ("RIVAL", "SCAPEGOAT")
            sides[f"{side}:{seat}" if lone else str(side)].append(seat)
        teams = list(sides.values())
        return [(team, 1 if winners & set(team) else 2) for team in teams] if len(teams) > 1 else []
    if game == "dracula" or game == "mummy":
        return [([seat], 1 if seat in winners or not winners else 2) for seat in range(len(rows))]
    if game == "monster":
        scores = [row.get("score") or 0 for row in rows]
        out = []
        for seat in range(len(rows)):
            if seat in winners:
                out.append(([seat], 1))
            else:
                better = sum(1 for o in range(len(rows)) if o not in winners and scores[o] > scores[seat])
                out.append(([seat], 1 + len(winners) + better))
        return out
    return []


def with_leavers(teams: list[tuple[list[int], int]], left: set[int]) -> list[tuple[list[int], int]]:
    """The teams and places of :func:`standings` with the seats in ``left`` (players who left the
    game) taken out of their teams, each a team of one placed below every player who stayed; the
    places renumbered 1, 2, 3… in their order (ties stay ties). [] if nobody stayed."""
    if not left or not teams:
        return teams
    stayed = [([s for s in team if s not in left], place) for team, place in teams]
    stayed = [(team, place) for team, place in stayed if team]
    if not stayed:
        return []
    below = max(place for _, place in stayed) + 1
    out = stayed + [([seat], below) for team, _ in teams for seat in team if seat in left]
    dense = {place: rank for rank, place in enumerate(sorted({p for _, p in out}), start=1)}
    return [(team, dense[place]) for team, place in out]


def _human_seats(match: Match, seats: Sequence[Seat] | None = None) -> tuple[dict[int, int], set[int]] | None:
    """seat -> player id and the seats whose players left the game, when every seat is a person
    and no bot ever moved for one but for a seat whose player had left before that move. ``seats``:
    the match's seats, if the caller read them already."""
    seats = list(match.table.seats.all()) if seats is None else seats
    if any(s.is_bot or s.user_id is None or (s.autopilot and not s.left_game) for s in seats):
        return None
    bot_moves = match.moves.filter(source=Move.Source.BOT)
    for seat in seats:
        if seat.left_game:  # the autopilot's moves after the leave are the leaver's, lost
            bot_moves = bot_moves.exclude(seat=seat.number, seq__gt=seat.left_at_version)
    if bot_moves.exists():
        return None
    return {s.number: s.user_id for s in seats}, {s.number for s in seats if s.left_game}


def counts_so_far(match: Match, seats: Sequence[Seat] | None = None) -> bool:
    """Whether ``match`` (running or over) is one that counts if it finishes as it stands: a rated
    game whose every seat is a person and whose bot moves are only for players who left."""
    return match.game in RATED_GAMES and _human_seats(match, seats) is not None


def leave_counts(match: Match, seats: Sequence[Seat] | None = None) -> bool:
    """Whether someone left ``match`` and it counts for the ratings as it stands, so that each
    leave is a loss. The one source of that rule: a running game it holds for plays to its end
    (the host may not end it, ``tables.moderator.end_practice``, nor is offered to, the host's
    menu in ``tables.renderer``), and a finished one shows its leavers as having lost. ``seats``:
    the match's seats, if the caller read them already; the moves are read (one query) only when
    someone left a rated game of people."""
    seats = list(match.table.seats.all()) if seats is None else seats
    return any(s.left_game for s in seats) and counts_so_far(match, seats)


@dataclass
class Plan:
    """What one match does to the ratings: per player, the seat and the team index and place."""

    game: str
    players: dict[int, int]  # seat -> user id
    teams: list[tuple[list[int], int]]


def plan_for(match: Match) -> Plan | None:
    if match.status != Match.Status.FINISHED or match.game not in RATED_GAMES or not match.result:
        return None
    found = _human_seats(match)
    if found is None:
        return None
    players, left = found
    teams = with_leavers(standings(match.game, match.result), left)
    return Plan(match.game, players, teams) if len(teams) >= 2 else None


def _new(mu_sigma: dict[int, tuple[float, float]], plan: Plan) -> dict[int, tuple[float, float]]:
    """The openskill update: each user's (mu, sigma) after the match, from their (mu, sigma) before."""
    teams = [[MODEL.rating(*mu_sigma[plan.players[s]]) for s in team] for team, _ in plan.teams]
    rated = MODEL.rate(teams, ranks=[place for _, place in plan.teams])
    out = {}
    for (team, _), new_team in zip(plan.teams, rated, strict=True):
        for seat, rating in zip(team, new_team, strict=True):
            out[plan.players[seat]] = (rating.mu, rating.sigma)
    return out


def _start() -> tuple[float, float]:
    fresh = MODEL.rating()
    return fresh.mu, fresh.sigma


def rate_match(match_id: int) -> bool:
    """Rate one finished match once (a second call changes nothing). Returns whether it rated."""
    with transaction.atomic():
        match = Match.objects.select_for_update().select_related("table").get(pk=match_id)
        if match.rating_changes.exists():
            return False
        plan = plan_for(match)
        if plan is None:
            return False
        users = sorted(plan.players.values())
        rows = {r.user_id: r for r in Rating.objects.select_for_update().filter(game=plan.game, user_id__in=users)}
        before = {u: (rows[u].mu, rows[u].sigma) if u in rows else _start() for u in users}
        after = _new(before, plan)
        seat_of = {u: s for s, u in plan.players.items()}
        for user in users:
            row = rows.get(user) or Rating(user_id=user, game=plan.game)
            row.mu, row.sigma = after[user]
            row.games += 1
            row.save()
            RatingChange.objects.create(
                match=match,
                user_id=user,
                game=plan.game,
                seat=seat_of[user],
                mu_before=before[user][0],
                sigma_before=before[user][1],
                mu_after=after[user][0],
                sigma_after=after[user][1],
            )
        return True


def rate_after_commit(match_id: int) -> None:
    """The moderator's hook: a rating that fails is logged, never undoes the move."""
    try:
        rate_match(match_id)
    except Exception:
        log.exception("rating match %s failed", match_id)


# --- the full recompute --------------------------------------------------------------------------


@dataclass
class Difference:
    user_id: int
    game: str
    stored: tuple[float, float, int] | None
    recomputed: tuple[float, float, int] | None

    def __str__(self) -> str:
        def text(value: tuple[float, float, int] | None) -> str:
            return "none" if value is None else f"mu={value[0]:.4f} sigma={value[1]:.4f} games={value[2]}"

        return f"player {self.user_id} {self.game}: stored {text(self.stored)}, recomputed {text(self.recomputed)}"


def recompute(games: Iterable[str] = RATED_GAMES, write: bool = False) -> list[Difference]:
    """Replay every rated match of ``games`` in the order they finished, from fresh ratings; return
    where the stored table differs; with ``write`` store the recomputed table and changes instead."""
    games = sorted(set(games) & RATED_GAMES)
    state: dict[tuple[int, str], tuple[float, float, int]] = {}
    changes: list[tuple[Match, Plan, dict[int, tuple[float, float]], dict[int, tuple[float, float]]]] = []
    matches = (
        Match.objects.filter(game__in=games, status=Match.Status.FINISHED)
        .select_related("table")
        .prefetch_related("table__seats")
        .order_by("finished_at", "pk")
    )
    for match in matches:
        plan = plan_for(match)
        if plan is None:
            continue
        users = list(plan.players.values())
        before = {u: state.get((u, plan.game), (*_start(), 0))[:2] for u in users}
        after = _new(before, plan)
        for user in users:
            count = state.get((user, plan.game), (0.0, 0.0, 0))[2]
            state[(user, plan.game)] = (*after[user], count + 1)
        changes.append((match, plan, before, after))
    stored = {(r.user_id, r.game): (r.mu, r.sigma, r.games) for r in Rating.objects.filter(game__in=games)}
    differences = []
    for key in sorted(set(stored) | set(state)):
        a, b = stored.get(key), state.get(key)
        if a is None or b is None or a[2] != b[2] or abs(a[0] - b[0]) > 1e-9 or abs(a[1] - b[1]) > 1e-9:
            differences.append(Difference(key[0], key[1], a, b))
    if write:
        _write(games, state, changes)
    return differences


@transaction.atomic
def _write(games: list[str], state: dict, changes: list) -> None:  # noqa: ANN001
    RatingChange.objects.filter(game__in=games).delete()
    Rating.objects.filter(game__in=games).delete()
    Rating.objects.bulk_create(
        Rating(user_id=u, game=g, mu=mu, sigma=sigma, games=n) for (u, g), (mu, sigma, n) in state.items()
    )
    RatingChange.objects.bulk_create(
        RatingChange(
            match=match,
            user_id=user,
            game=plan.game,
            seat=seat,
            mu_before=before[user][0],
            sigma_before=before[user][1],
            mu_after=after[user][0],
            sigma_after=after[user][1],
        )
        for match, plan, before, after in changes
        for seat, user in plan.players.items()
    )


def games_of(user: Any) -> set[str]:
    return set(RatingChange.objects.filter(user=user).values_list("game", flat=True))

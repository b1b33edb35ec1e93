"""What a match page states about a match: the players, their sides and roles, the winners, the
score rows and how long it lasted, read from the stored result (never from a running state)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.utils.translation import gettext as _

from shabneshin import localize
from shabneshin.localize import digits
from tables import left_seats
from tables.models import Match, Move
from tables.rendering import seat_names

# Games whose result names a side apart from the role (elsewhere the role says it all).
SIDE_GAMES = frozenset({"werewolf", "insidejob"})


@dataclass
class PlayerRow:
    seat: int
    name: str
    username: str  # "" for a bot or an empty seat
    is_bot: bool
    role: Any = None
    side: Any = None
    score: Any = None
    winner: bool = False  # the person won: never one who left the game (tables.left_seats)
    rating_change: int | None = None
    seat_won: bool = False  # the seat won, whoever played it
    left: bool = False  # the player left the game; a bot played the seat to the end
    left_counts: bool = False  # ... in a rated match: the leave counted as a loss


def players(match: Match) -> list[PlayerRow]:
    names = seat_names(match.table)
    result = match.result or {}
    winners = set(result.get("winners", []))
    deltas = {c.seat: c.delta for c in match.rating_changes.all()}
    rows = []
    for seat in match.table.seats.select_related("user").order_by("number"):
        info = result.get("seats", [])[seat.number] if seat.number < len(result.get("seats", [])) else {}
        left = seat.left_game and match.status == Match.Status.FINISHED
        rows.append(
            PlayerRow(
                seat=seat.number,
                name=names[seat.number],
                username=seat.user.username if seat.user is not None else "",
                is_bot=seat.is_bot,
                role=info.get("role"),
                side=info.get("side") if match.game in SIDE_GAMES else None,
                score=info.get("score"),
                winner=seat.number in winners and not left,
                rating_change=deltas.get(seat.number),
                seat_won=seat.number in winners,
                left=left,
                left_counts=left and bool(deltas),
            )
        )
    return rows


def bot_played(match: Match, rows: list[PlayerRow]) -> set[int]:
    """The seats of people a bot played for part of the match, or all of it: the autopilot after
    missed decisions, a seat handed to a bot, a seat whose player left the game (as the night's
    recap marks them, clubs.autopiloted). Only a finished match is read: a running match's moves
    would tell which seat acted when; and only whether a bot moved for a seat, never which moves
    (one query)."""
    if match.status != Match.Status.FINISHED:
        return set()
    people = {row.seat for row in rows if row.username and not row.is_bot}
    if not people:
        return set()
    moved = Move.objects.filter(match=match, source=Move.Source.BOT, seat__in=people)
    return set(moved.values_list("seat", flat=True).distinct())


def duration_text(match: Match) -> str:
    if match.finished_at is None:
        return ""
    seconds = max(0, int((match.finished_at - match.started_at) / timedelta(seconds=1)))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        text = _("%(h)d h %(m)d min") % {"h": hours, "m": minutes}
    elif minutes:
        text = _("%(m)d min %(s)d s") % {"m": minutes, "s": secs}
    else:
        text = _("%(s)d s") % {"s": secs}
    return digits(text)


def title(match: Match, rows: list[PlayerRow]) -> str:
    """The Open Graph title a shared link shows: the game, who played, who won."""
    game = _(match.engine.name)
    people = localize.list_separator().join(row.name for row in rows)
    winners = [left_seats.seat_name(row.name) if row.left else row.name for row in rows if row.seat_won]
    if match.status == Match.Status.ABORTED:
        outcome = _("aborted")
    elif winners:
        outcome = _("won by %(names)s") % {"names": localize.list_separator().join(winners)}
    else:
        outcome = _("nobody won")
    return f"{game}: {people} ({outcome})"

"""When each seat's current decision opened, and when it must be made.

A form is rendered with the version at which its seat's decision opened, not the match's latest
version: in a simultaneous phase (picks, votes, readiness, windows) another seat's move bumps the
match version without changing this seat's decision, and must not make its form stale. A move is
applied when its version is at or after the seat's decision opened and the action is still among
the seat's legal actions; anything older is stale, and so is a replay of an applied frame (the
mover's own decision reopens at the new version).

A seat's decision (re)opens at a move when: the seat was not awaited before it; the seat itself
moved; the engine says a new decision window opened; or the seat's legal actions changed.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from games.base import Engine
from tables.models import Match


def opened_at(match: Match, seat: int | None) -> int:
    """The version this seat's forms carry: when its current decision opened."""
    if seat is None:
        return match.version
    opened = (match.decision_versions or {}).get(str(seat))
    return match.version if opened is None else int(opened)


def is_stale(match: Match, seat: int, version: int) -> bool:
    return version > match.version or version < opened_at(match, seat)


def at_start(engine: Engine, state: dict[str, Any]) -> dict[str, int]:
    return {str(seat): 0 for seat in engine.awaiting(state)}


def after_move(
    engine: Engine, before: dict[str, Any], after: dict[str, Any], mover: int, version: int, old: dict[str, int]
) -> dict[str, int]:
    """The decision versions after ``mover``'s move produced ``after`` at ``version``."""
    awaited_before = engine.awaiting(before)
    new_window = engine.opens_new_window(before, after)
    out: dict[str, int] = {}
    for seat in sorted(engine.awaiting(after)):
        key = str(seat)
        reopened = (
            new_window
            or seat == mover
            or seat not in awaited_before
            or key not in old
            or engine.legal_actions(before, seat) != engine.legal_actions(after, seat)
        )
        out[key] = version if reopened else int(old[key])
    return out


def is_extended(match: Match) -> bool:
    """Whether the host extended the current decision window (once per window)."""
    return match.extended_window is not None and match.extended_window == match.window_started_at


def time_limit(match: Match, seat: int, timers: dict[str, float]) -> float:
    """The seat's time for its current decision: the game's, twice over once the host extended it."""
    limit = match.engine.time_limit(match.state, seat, timers)
    return limit * 2 if is_extended(match) else limit


def own_deadline(match: Match, seat: int | None) -> datetime | None:
    """The viewer's own decision deadline, and only their own (others' clocks can tell secrets).
    None while the match is paused: no clock runs then."""
    if seat is None or match.status != Match.Status.PLAYING or match.paused_at is not None:
        return None
    if seat not in match.engine.awaiting(match.state):
        return None
    window = match.window_started_at or timezone.now()
    return window + timedelta(seconds=time_limit(match, seat, match.table.timers()))

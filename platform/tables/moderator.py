"""The one write path of a match (ARCHITECTURE §3).

Every change to a match goes through :func:`submit` (a player), :func:`run_due` (the clock:
practice-bot moves and ``timeout`` actions), a player leaving it (:func:`leave_game`), or the
host's powers over a running match (:func:`pause`, :func:`resume`, :func:`extend`,
:func:`hand_to_bot`; tables.host checks nothing itself: the host and the version are checked here,
under the lock). Each locks the match row,
checks the version and that the seat is awaited, calls the engine, saves the new state with a bumped version, appends a
``Move`` and sets the next deadline; after commit the table's group hears "version N is out".
"""

from __future__ import annotations

import importlib
import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from games.base import TIMEOUT, IllegalAction, rng_for
from history import deals, ratings
from shabneshin import counters
from shabneshin.precompiled import Insert, Param, Prepared, Select, Update, atomic_in_two_trips, run_together
from tables import alarm, bot_chat, bot_pace, broadcast, decisions, events, queries, renderer
from tables.models import Match, Move, Seat, Table, TableEvent

log = logging.getLogger(__name__)

MAX_CLOCK_MOVES_PER_MATCH = 200
AUTOPILOT_AFTER_MISSES = 3
RETRY_FAILED_AFTER_S = 5


# The queries of every move, compiled once per connection rather than at each call (issue 9:
# compiling them cost more CPU than anything else in a move): shabneshin.precompiled.
_MATCH_LOCKED = Select(
    Match.objects.select_for_update().select_related("table").filter(pk=Param("pk", Match._meta.pk)).order_by()
)
_DUE_MATCH_LOCKED = {  # by whether the backend can skip a row another process has locked
    skip: Select(
        Match.objects.select_for_update(skip_locked=skip)
        .select_related("table")
        .filter(
            pk=Param("pk", Match._meta.pk),
            status=Match.Status.PLAYING,
            next_deadline__lte=Param("now", Match._meta.get_field("next_deadline")),
        )
        .order_by()
    )
    for skip in (False, True)
}
_SEATS = queries.SEATS_WITH_USERS
# The same rows, found from the match: read with the lock in one round trip (submit).
_SEATS_OF_MATCH = Select(
    Seat.objects.filter(table__match__pk=Param("match_id", Match._meta.pk)).select_related("user").order_by("number")
)
# Every Match field a move may change (a finished game's status, result and finished_at too).
_SAVE_MOVED_MATCH = Update(
    Match,
    [
        "state", "version", "decision_versions", "last_move_at", "window_started_at", "window_version",
        "status", "result", "finished_at", "next_deadline",
    ],
)
_SAVE_ATTENDANCE = Update(Seat, ["missed_deadlines", "autopilot"])
_INSERT_MOVE = Insert(Move)


class Refused(IllegalAction):
    """A refusal of the platform's own (a pause, the host's powers), beside the engine's codes;
    callers catch it as the ``IllegalAction`` it is."""

    CODES = IllegalAction.CODES | {
        "paused", "not_host", "already_paused", "not_paused", "already_extended", "no_such_player", "already_bot",
        "others_playing", "not_seated", "left_game", "counts_for_ratings", "not_playing", "out_already",
    }


# --- starting ------------------------------------------------------------------------------------


@transaction.atomic
def start(table: Table, seed: int | None = None, secret: str | None = None) -> Match:
    """Deal the match of a full table. Raises ``IllegalAction`` if it cannot start. ``secret``
    is the deal's secret when the caller chose it openly (a club night's fair roles); otherwise
    one is drawn (history/deals.py)."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    if table.status != Table.Status.OPEN:
        raise IllegalAction("This table has already started.", "game_over")
    seats = list(table.seats.all())
    if any(seat.is_empty for seat in seats):
        raise IllegalAction("Every seat must be taken (by a player or a bot) before the start.", "forbidden")
    engine = table.engine
    deal = deals.new_deal(table.token, seats, seed, secret)  # a drawn secret and its seed (history/deals.py)
    state = engine.setup(table.seat_count, dict(table.options), deal["seed"])
    now = timezone.now()
    match = Match(
        table=table,
        game=table.game,
        **deal,
        n_players=table.seat_count,
        options=dict(table.options),
        state=state,
        window_started_at=now,
        last_move_at=now,
    )
    match.decision_versions = decisions.at_start(engine, state)
    match.next_deadline = _next_deadline(match, seats, now)
    match.save()
    alarm.deadline_set(match.next_deadline)
    table.status = Table.Status.PLAYING
    table.save(update_fields=["status", "updated_at"])
    broadcast.table_changed(table.token, match.version)
    broadcast.listing_changed(table)
    return match


# --- a player's move -----------------------------------------------------------------------------


def submit(
    match_id: int,
    seat: int,
    action: Any,
    version: int | None,
    source: str = Move.Source.PLAYER,
    user_id: int | None = None,
) -> Match:
    """Apply ``action`` for ``seat`` if ``version`` is not stale for that seat (tables.decisions).
    With ``user_id``, the seat must be that player's. Raises ``IllegalAction``."""
    if source == Move.Source.PLAYER and isinstance(action, dict) and action.get("type") == TIMEOUT["type"]:
        raise IllegalAction("Only the clock can end a decision by timeout.", "forbidden")
    # On PostgreSQL two round trips in all: BEGIN, the lock and the seats read under it; then the
    # move's writes and COMMIT (precompiled.atomic_in_two_trips, run_together).
    with atomic_in_two_trips():
        locked, seats = run_together(_MATCH_LOCKED.prepare(pk=match_id), _SEATS_OF_MATCH.prepare(match_id=match_id))
        match = _MATCH_LOCKED.one(locked)
        if match.status != Match.Status.PLAYING:
            raise IllegalAction("The game is over.", "game_over")
        if match.paused_at is not None:
            raise Refused("The game is paused.", "paused")
        if version is not None and decisions.is_stale(match, seat, version):
            raise IllegalAction("The game moved on before your move arrived.", "stale_version")
        if user_id is not None:
            row = next((s for s in seats if s.number == seat and s.user_id == user_id), None)
            if row is None:
                raise IllegalAction("That is not your seat.", "forbidden")
            if row.left_game:
                raise Refused("You left this game.", "left_game")
        _apply(match, seat, action, source, timezone.now(), seats, commit=True)
    return match


def _seats(match: Match) -> list[Seat]:
    """The table's seats in order, with their players (a move's snapshot renders their names)."""
    return _SEATS.fetch(table_id=match.table_id)


def _apply(
    match: Match, seat: int, action: Any, source: str, now: datetime, seats: list[Seat], commit: bool = False
) -> int:
    """One move, inside a lock, then every timeout it made due at once (a night pick after the
    turn's minimum closes the turn now, §3.1 of werewolf): engine call, new state, version, move
    log, deadline, then one write of the match, one broadcast. ``seats`` are the table's seat rows,
    read inside the same lock. ``commit``: the move's writes end its transaction (they carry its
    COMMIT where they can: precompiled.run_together).

    The timeouts ride with the move (issue 9): the clock would apply them within milliseconds, in
    a transaction, a render and a broadcast of their own, which doubled a night's cost. Each is
    still a move of its own in the log (source ``clock``) with its own version; the table hears
    only the last version, as it would have rendered only the last state anyway. Returns how many
    moves were applied."""
    writes, inserts = _move(match, seat, action, source, now, seats)
    moves = 1
    for _ in range(MAX_CLOCK_MOVES_PER_MATCH):
        due = _timeout_due_now(match, seats, now)
        if due is None:
            break
        try:
            more_writes, more_inserts = _move(match, due, dict(TIMEOUT), Move.Source.CLOCK, now, seats)
        except IllegalAction:  # nothing changed: the move stands, the clock retries and logs it
            log.exception("%s match %s refused seat %s's timeout after a move", match.game, match.pk, due)
            break
        writes += more_writes
        inserts += more_inserts
        counters.clock_late(0.0)  # due at this move, applied with it
        moves += 1
    run_together(*writes, _SAVE_MOVED_MATCH.prepare(match), *inserts, commit=commit)  # one round trip on PostgreSQL
    event = broadcast.new_event()
    transaction.on_commit(lambda: renderer.prime(match, seats, event), robust=True)
    broadcast.table_changed(match.table.token, match.version, event)
    return moves


def _move(
    match: Match, seat: int, action: Any, source: str, now: datetime, seats: list[Seat]
) -> tuple[list[Prepared], list[Prepared]]:
    """The engine's move on ``match`` (state, version, decision versions, window, result, next
    deadline), and the writes it needs besides the match's own: the seats' attendance, and the
    INSERT of its ``Move`` row. Raises the engine's ``IllegalAction`` before changing anything."""
    engine = match.engine
    before = match.state
    was_a_choice = not engine.decision_is_optional(before, seat)
    after = engine.apply(before, seat, action)  # raises IllegalAction; nothing is written then
    writes = _track_attendance(seats, seat, source, was_a_choice)
    match.state = after
    match.version += 1
    match.decision_versions = decisions.after_move(
        engine, before, after, seat, match.version, match.decision_versions or {}
    )
    match.last_move_at = now
    if engine.opens_new_window(before, after):
        match.window_started_at = now
        match.window_version = match.version
    result = engine.result(after)
    table = match.table
    if result is not None:
        match.status = Match.Status.FINISHED
        match.result = result.to_dict()
        match.finished_at = now
        match.next_deadline = None
        table.status = Table.Status.FINISHED
        table.save(update_fields=["status", "updated_at"])
        broadcast.listing_changed(table)
        transaction.on_commit(lambda: ratings.rate_after_commit(match.pk))
    else:
        match.next_deadline = _next_deadline(match, seats, now)
        alarm.deadline_set(match.next_deadline)
    return writes, [_INSERT_MOVE.prepare(match=match, seq=match.version, seat=seat, action=action, source=source)]


def _timeout_due_now(match: Match, seats: list[Seat], now: datetime) -> int | None:
    """The seat whose timeout is due at ``now`` (the soonest due first), if any. A bot's move is
    left to the clock: it waits its pace after this move anyway."""
    if match.status != Match.Status.PLAYING or match.next_deadline is None or match.next_deadline > now:
        return None
    due_times = _due_times(match, seats, now).items()
    due = [(when, seat) for seat, (when, how) in due_times if how == "timeout" and when <= now]
    return min(due)[1] if due else None


def _track_attendance(seats: list[Seat], seat: int, source: str, was_a_choice: bool) -> list[Prepared]:
    """A player who lets the clock decide AUTOPILOT_AFTER_MISSES real choices in a row is handed to
    a practice bot (ARCHITECTURE §5); their own next move, or "take back my seat", ends that.
    The row is changed here; the returned write saves it with the move's."""
    row = next((s for s in seats if s.number == seat and not s.is_bot), None)
    if row is None:
        return []
    if source == Move.Source.PLAYER:
        if row.missed_deadlines or row.autopilot:
            row.missed_deadlines, row.autopilot = 0, False
            return [_SAVE_ATTENDANCE.prepare(row)]
    elif source == Move.Source.CLOCK and was_a_choice:
        row.missed_deadlines += 1
        row.autopilot = row.autopilot or row.missed_deadlines >= AUTOPILOT_AFTER_MISSES
        return [_SAVE_ATTENDANCE.prepare(row)]
    return []


@transaction.atomic
def take_back_seat(match: Match, seat: int) -> bool:
    """The player is back: their seat leaves the autopilot (not a seat its player left for good:
    :func:`leave_game`). Returns whether anything changed."""
    match = Match.objects.select_for_update().select_related("table").get(pk=match.pk)
    changed = Seat.objects.filter(
        table_id=match.table_id, number=seat, autopilot=True, left_at_version__isnull=True
    ).update(autopilot=False, missed_deadlines=0)
    if not changed:
        return False  # nothing to tell anyone: a repeated "resume" costs one query
    if match.status == Match.Status.PLAYING:
        match.next_deadline = _next_deadline(match, _seats(match), timezone.now())
        match.save(update_fields=["next_deadline"])
    broadcast.table_changed(match.table.token, match.version)
    return True


# --- the clock -----------------------------------------------------------------------------------


def _due_times(match: Match, seats: list[Seat], now: datetime) -> dict[int, tuple[datetime, str]]:
    """For each awaited seat: when the clock acts for it, and how (``bot`` or ``timeout``). Nothing
    while the match is paused: bots and timeouts wait for the resume."""
    if match.paused_at is not None:
        return {}
    engine = match.engine
    timers = match.table.timers()
    bots = {s.number for s in seats if s.played_by_bot}
    window = match.window_started_at or now
    due: dict[int, tuple[datetime, str]] = {}
    for seat in engine.awaiting(match.state):
        timeout_at = window + timedelta(seconds=decisions.time_limit(match, seat, timers))
        due[seat] = (timeout_at, "timeout")
        if seat in bots and engine.legal_actions(match.state, seat) != [TIMEOUT]:
            bot_at = (match.last_move_at or now) + timedelta(seconds=settings.BOT_DELAY_S)
            bot_at = bot_pace.not_before(match, seat, bot_at, window, timers)
            if bot_at < timeout_at:
                due[seat] = (bot_at, "bot")
    return due


def _next_deadline(match: Match, seats: list[Seat], now: datetime) -> datetime | None:
    """The next time the clock must look: the soonest due move, or, while paused, the end of the
    longest pause allowed (HOST_PAUSE_LIMIT_S), when the match is aborted."""
    if match.paused_at is not None:
        return match.paused_at + timedelta(seconds=settings.HOST_PAUSE_LIMIT_S)
    due = _due_times(match, seats, now)
    return min((when for when, _ in due.values()), default=None)


def bot_action(match: Match, seat: int) -> dict[str, Any]:
    """What the practice bot in ``seat`` plays, decided from that seat's view alone."""
    engine = match.engine
    legal = engine.legal_actions(match.state, seat)
    bots = importlib.import_module(f"games.{match.game}.bots")
    rng = rng_for(f"bot:{match.seed}:{seat}", match.state["step"])
    choice = bot_chat.choose(bots, match, engine.view(match.state, seat), legal, rng)
    if choice == TIMEOUT or choice not in legal:
        log.error("bot for %s seat %s chose %r; playing its first legal action", match.game, seat, choice)
        choice = legal[0]
    return dict(choice)


def _run_due_for(match_id: int, now: datetime) -> tuple[int, datetime | None]:
    """Apply what is due for one match; return how many moves, and its next deadline."""
    due_match = _DUE_MATCH_LOCKED[connection.features.has_select_for_update_skip_locked]
    with atomic_in_two_trips():  # BEGIN goes with the lock; several moves may follow, then COMMIT
        # The lock and the seats read under it, in one round trip on PostgreSQL as for a player's
        # move (submit); the seats go unused when the match is no longer due, or paused.
        found, seats = run_together(
            due_match.prepare(pk=match_id, now=now), _SEATS_OF_MATCH.prepare(match_id=match_id)
        )
        match = next(iter(found), None)
        if match is None:
            return 0, None  # another process took it, or it was answered in the meantime
        if match.paused_at is not None:
            if now >= match.paused_at + timedelta(seconds=settings.HOST_PAUSE_LIMIT_S):
                events.record(match.table, TableEvent.Kind.PAUSE_LIMIT, None, match=match)
                _abort_locked(match, now, "paused")
                return 0, None
            return 0, match.next_deadline
        applied = 0  # _apply keeps the seats' rows current (a seat may be handed to a bot)
        while match.status == Match.Status.PLAYING and applied < MAX_CLOCK_MOVES_PER_MATCH:
            due = [(when, seat, how) for seat, (when, how) in _due_times(match, seats, now).items() if when <= now]
            if not due:
                break
            when, seat, how = min(due)
            # Late from when it was due, or from the last move if that made it due at once (a
            # night pick after the turn's minimum closes the turn now).
            counters.clock_late((now - max(when, match.last_move_at or when)).total_seconds())
            if how == "bot":
                applied += _apply(match, seat, bot_action(match, seat), Move.Source.BOT, now, seats)
            else:
                applied += _apply(match, seat, dict(TIMEOUT), Move.Source.CLOCK, now, seats)
        return applied, match.next_deadline


def run_due(now: datetime | None = None, limit: int = 50) -> int:
    """Apply every bot move and timeout that is due; return how many moves were applied."""
    return tick(now, limit)[0]


def tick(now: datetime | None = None, limit: int = 50) -> tuple[int, datetime | None]:
    """One look of the clock: apply what is due, and say when the next deadline is. One indexed
    query when nothing is due. A match that fails is logged and left due; the others go on. When
    every one of the ``limit`` rows read was due, more may be: the next deadline is then now.

    Each match's moves are applied at the time its turn comes in the look, not when the look
    began: a look of many due matches takes a while under load, and a move dated at the look's
    start would open the next turn in the past, shortening it by as much (seen in ``make bench``:
    looks of two or three seconds, the turns they opened that much shorter). A ``now`` given
    (tests) is used for every match."""
    given = now is not None
    now = now or timezone.now()
    rows = list(
        Match.objects.filter(status=Match.Status.PLAYING, next_deadline__isnull=False)
        .order_by("next_deadline")
        .values_list("pk", "next_deadline")[:limit]
    )
    upcoming = [when for _, when in rows if when > now]
    applied = 0
    for match_id, when in rows:
        if when > now:
            break
        try:
            moved, next_deadline = _run_due_for(match_id, now if given else timezone.now())
        except Exception:  # one broken match must not stop the clock for every other table
            log.exception("clock: match %s failed; retrying it in %s s", match_id, RETRY_FAILED_AFTER_S)
            upcoming.append(_retry_later(match_id, now))
            continue
        applied += moved
        if next_deadline is not None:
            upcoming.append(next_deadline)
    if len(rows) == limit and rows[-1][1] <= now:
        upcoming.append(now)  # a full slice, all due: look again at once
    return applied, min(upcoming, default=None)


def _retry_later(match_id: int, now: datetime) -> datetime:
    """Move a failing match's next look back, so it cannot hold the head of the queue. Its due
    times are recomputed from the state at that look, so no timeout is lost or moved."""
    retry_at = now + timedelta(seconds=RETRY_FAILED_AFTER_S)
    try:
        Match.objects.filter(pk=match_id).update(next_deadline=retry_at)
    except Exception:
        log.exception("clock: could not postpone match %s", match_id)
    return retry_at


def seconds_until_next_deadline(now: datetime | None = None) -> float | None:
    now = now or timezone.now()
    first = (
        Match.objects.filter(status=Match.Status.PLAYING, next_deadline__isnull=False)
        .order_by("next_deadline")
        .values_list("next_deadline", flat=True)
        .first()
    )
    return None if first is None else max(0.0, (first - now).total_seconds())


# --- staff ---------------------------------------------------------------------------------------


@transaction.atomic
def abort(match: Match, reason: str = "") -> bool:
    """End a running match; players see it ended, and why (``reason``: "" for the staff,
    "abandoned" for the lobby's clean-up). Returns whether anything changed."""
    match = Match.objects.select_for_update().select_related("table").get(pk=match.pk)
    if match.status != Match.Status.PLAYING:
        return False
    _abort_locked(match, timezone.now(), reason)
    return True


def _abort_locked(match: Match, now: datetime, reason: str) -> None:
    match.status = Match.Status.ABORTED
    match.end_reason = reason
    match.next_deadline = None
    match.finished_at = now
    match.paused_at = None
    match.version += 1
    match.save()
    match.table.status = Table.Status.ABORTED
    match.table.save(update_fields=["status", "updated_at"])
    broadcast.table_changed(match.table.token, match.version)
    broadcast.listing_changed(match.table)


# --- the host's powers over a running match ------------------------------------------------------
# Each takes the acting user and the version their page showed, locks the match, checks that the
# user hosts the table *now* and that the version is one the match has reached, changes the
# match, logs the event for everyone and tells the table. None bumps the version: they apply no
# move, so the move log stays the game's alone (seq == version) and no open form goes stale.


def _host_lock(match_id: int, user_id: int, version: int | None) -> Match:
    match = Match.objects.select_for_update().select_related("table").get(pk=match_id)
    if match.table.host_id != user_id:
        raise Refused("Only the host can do that.", "not_host")
    if match.status != Match.Status.PLAYING:
        raise IllegalAction("The game is over.", "game_over")
    if version is None or version > match.version:
        raise IllegalAction("The game moved on before your move arrived.", "stale_version")
    return match


def _host_changed(match: Match, now: datetime) -> None:
    match.next_deadline = _next_deadline(match, _seats(match), now)
    match.save()
    alarm.deadline_set(match.next_deadline)
    broadcast.table_changed(match.table.token, match.version)


@transaction.atomic
def pause(match_id: int, user_id: int, version: int | None, now: datetime | None = None) -> Match:
    """Stop every clock of the match: no timeout, no bot move, no player move until the resume.
    The clock looks again only at the end of the longest pause allowed."""
    match = _host_lock(match_id, user_id, version)
    if match.paused_at is not None:
        raise Refused("The game is already paused.", "already_paused")
    now = now or timezone.now()
    match.paused_at, match.paused_by_id = now, user_id
    events.record(match.table, TableEvent.Kind.PAUSE, user_id, match=match)
    _host_changed(match, now)
    return match


@transaction.atomic
def resume(match_id: int, user_id: int, version: int | None, now: datetime | None = None) -> Match:
    """Go on where the pause stopped: every time the deadlines are counted from moves on by the
    paused time exactly, so each deadline is its old value plus the pause."""
    match = _host_lock(match_id, user_id, version)
    if match.paused_at is None:
        raise Refused("The game is not paused.", "not_paused")
    now = now or timezone.now()
    paused = now - match.paused_at
    extended = decisions.is_extended(match)
    for name in ("window_started_at", "last_move_at"):
        if getattr(match, name) is not None:
            setattr(match, name, getattr(match, name) + paused)
    match.extended_window = match.window_started_at if extended else match.extended_window
    match.paused_at, match.paused_by_id = None, None
    events.record(match.table, TableEvent.Kind.RESUME, user_id, match=match, seconds=round(paused.total_seconds()))
    _host_changed(match, now)
    return match


@transaction.atomic
def extend(match_id: int, user_id: int, version: int | None, now: datetime | None = None) -> Match:
    """Give the current decision window the game's time once more (each awaited seat's own limit
    is doubled). ``version`` must be at or after the window opened: an extension asked for an
    earlier decision is stale. Once per window."""
    match = _host_lock(match_id, user_id, version)
    assert version is not None
    if version < match.window_version:
        raise IllegalAction("The game moved on before your move arrived.", "stale_version")
    if decisions.is_extended(match):
        raise Refused("This decision has already been extended.", "already_extended")
    match.extended_window = match.window_started_at
    events.record(match.table, TableEvent.Kind.EXTEND, user_id, match=match)
    _host_changed(match, now or timezone.now())
    return match


@transaction.atomic
def end_practice(match_id: int, user_id: int, version: int | None) -> Match:
    """The host ends a game nobody else is playing: every other seat is a practice bot's, empty, or
    on autopilot. It ends as aborted (no winner, no rating), for the host's reason; a game another
    person still plays is theirs too, and is refused. So is a game that someone left and that still
    counts for the ratings: ended, it would rate nobody, and the leaver would escape the loss their
    leave counts as (history.ratings)."""
    match = _host_lock(match_id, user_id, version)
    others = Seat.objects.filter(table_id=match.table_id, is_bot=False, autopilot=False, user__isnull=False)
    if others.exclude(user_id=user_id).exists():
        raise Refused("Other players are still playing.", "others_playing")
    if ratings.leave_counts(match):
        raise Refused("Someone left this rated game: it plays to its end, so the leave counts.", "counts_for_ratings")
    now = timezone.now()
    events.record(match.table, TableEvent.Kind.END, user_id, match=match)
    _abort_locked(match, now, "host")
    return match


@transaction.atomic
def hand_to_bot(match_id: int, user_id: int, seat: int, player_id: int, version: int | None) -> Match:
    """Kick-to-bot: a practice bot plays ``seat`` (which must still be ``player_id``'s, and not the
    host's own), through the autopilot: the player's own move or "take back my seat" gives it back."""
    match = _host_lock(match_id, user_id, version)
    row = Seat.objects.filter(table_id=match.table_id, number=seat, user_id=player_id, is_bot=False).first()
    if row is None or player_id == user_id:
        raise Refused("That player is not at this seat.", "no_such_player")
    if row.autopilot:
        raise Refused("A practice bot already plays that seat.", "already_bot")
    row.autopilot = True
    row.save(update_fields=["autopilot"])
    events.record(match.table, TableEvent.Kind.TO_BOT, user_id, player_id, match=match)
    _host_changed(match, timezone.now())
    return match


# --- a player leaving a running match ------------------------------------------------------------


@transaction.atomic
def leave_game(match_id: int, user_id: int) -> Match:
    """A seated player gives up their seat for the rest of the match: the autopilot plays it from
    now on, and they cannot take it back (their moves are refused; they watch as a spectator, so no
    later secret of the seat reaches them). Everyone is told in the table's log. A leaving host
    hands the role to the person seated longest who still plays, if there is one. A seat already
    out of the match (Werewolf's dead: ``engine.is_out``) is refused: its player may simply go, and
    keeps the seat's result rather than a loss.

    No move is applied and no version is bumped, as with the host's powers (a table has one match,
    so no version is asked of the form). For the ratings the leave is a loss (history.ratings):
    leaving never turns a rated game into an unrated one."""
    match = Match.objects.select_for_update().select_related("table").filter(pk=match_id).first()
    if match is None or match.status != Match.Status.PLAYING:
        raise Refused("The game is not being played.", "not_playing")
    row = Seat.objects.filter(table_id=match.table_id, user_id=user_id, is_bot=False).first()
    if row is None:
        raise Refused("You have no seat in this game.", "not_seated")
    if row.left_game:
        raise Refused("You left this game.", "left_game")
    if match.engine.is_out(match.state, row.number):
        raise Refused("You are out of this game already.", "out_already")
    row.autopilot, row.missed_deadlines, row.left_at_version = True, 0, match.version
    row.save(update_fields=["autopilot", "missed_deadlines", "left_at_version"])
    table = match.table
    events.record(table, TableEvent.Kind.LEFT, user_id, match=match)
    if table.host_id == user_id:
        from tables.seating import longest_seated  # seating starts matches through this module

        successor = longest_seated(table, user_id).filter(autopilot=False).first()
        if successor is not None:
            table.host_id = successor.user_id
            table.save(update_fields=["host", "updated_at"])
            events.record(table, TableEvent.Kind.HOST, user_id, successor.user_id, match=match)
    _host_changed(match, timezone.now())
    return match

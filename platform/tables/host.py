"""The host's powers (issue 14), each logged for everyone in the table's log (tables.events).

Before the start (the table's row is locked, as in tables.seating): remove a seated player
(:func:`kick`: the seat empties, and that player cannot sit at this table again), change the
settings and the seat count (:func:`change_settings`, checked like a new table), hand the host role
to another seated person (:func:`hand_over`, also during the match).

During the match, through the moderator's one write path, which checks the host and the version
under the match's lock: pause and resume, extend the current decision once, kick-to-bot.

Nothing is taken from the browser but the power's name and its target, as the seat number *and*
the player the host saw there: a seat that changed hands since is refused, not applied to someone
else. Each refusal is a :class:`~tables.seating.SeatingError` with a translated message.

The clock passes the role on (:func:`pass_from_away_hosts`): a host with no socket at the table
for ``HOST_AWAY_S`` hands it to the human seated longest who is connected now (tables.presence)
and not on autopilot. With nobody connected to take it, the role stays where it is.

Rulings: the host cannot kick or hand their own seat to a bot; a player removed before the start
may not sit again at that table (the host can also block them for good, tables.seating); removing
a seat by lowering the seat count requires its seat to be empty or a bot's.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.base import IllegalAction
from shabneshin.localize import digits
from tables import events, moderator, presence, rendering
from tables.models import Match, Seat, Table, TableEvent
from tables.seating import SeatingError, changed, longest_seated, validated_options

log = logging.getLogger(__name__)
MATCH_POWERS = ("pause", "resume", "extend", "to_bot", "end")
POWERS = ("kick", "hand_over", *MATCH_POWERS)
CONFIRMED_POWERS = ("kick", "hand_over", "to_bot", "end")  # asked again before they are applied


def _number(raw: Any) -> int | None:
    text = str(raw) if raw is not None else ""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 10 else None


def target_of(data: Any) -> tuple[int | None, int | None]:
    """The posted ``target``, "seat:player" as the host's menu names it, or (None, None)."""
    seat, _sep, player = str(data.get("target") or "").partition(":")
    return _number(seat), _number(player)


def _locked(table: Table, user: User, *statuses: str) -> Table:
    locked = Table.objects.select_for_update().get(pk=table.pk)
    if locked.host_id != user.pk:
        raise SeatingError(_("Only the host can do that."))
    if locked.status not in statuses:
        if locked.status == Table.Status.OPEN:
            raise SeatingError(_("The game has not started yet."))
        raise SeatingError(_("The game has already started; seats can no longer change."))
    return locked


def _other_player(table: Table, user: User, seat: int | None, player: int | None) -> Seat:
    row = (
        table.seats.filter(number=seat, user_id=player, is_bot=False, left_at_version__isnull=True)
        .select_related("user")
        .first()
    )
    if seat is None or player is None or row is None or player == user.pk:
        raise SeatingError(_("That player is not at this seat any more."))
    return row


@transaction.atomic
def kick(table: Table, user: User, seat: int | None, player: int | None) -> None:
    table = _locked(table, user, Table.Status.OPEN)
    row = _other_player(table, user, seat, player)
    events.record(table, TableEvent.Kind.KICK, user.pk, row.user_id)
    row.user, row.seated_at, row.seen_at = None, None, None
    row.save(update_fields=["user", "seated_at", "seen_at"])
    table.save(update_fields=["updated_at"])
    changed(table)


@transaction.atomic
def change_settings(
    table: Table, user: User, seat_count: int, visibility: str, options: dict[str, Any], speed: str
) -> None:
    table = _locked(table, user, Table.Status.OPEN)
    resolved = validated_options(table.game, seat_count, options)
    gone = table.seats.filter(number__gte=seat_count)
    taken = gone.filter(user__isnull=False).order_by("number").first()
    if taken is not None:
        raise SeatingError(
            digits(_("Seat %(n)d is taken: only empty seats and bots can go.") % {"n": taken.number + 1})
        )
    gone.delete()
    Seat.objects.bulk_create([Seat(table=table, number=n) for n in range(table.seat_count, seat_count)])
    table.seat_count, table.visibility, table.options, table.speed = seat_count, visibility, resolved, speed
    table.save(update_fields=["seat_count", "visibility", "options", "speed", "updated_at"])
    events.record(table, TableEvent.Kind.SETTINGS, user.pk, seats=seat_count)
    changed(table)


@transaction.atomic
def hand_over(table: Table, user: User, seat: int | None, player: int | None) -> None:
    table = _locked(table, user, Table.Status.OPEN, Table.Status.PLAYING)
    row = _other_player(table, user, seat, player)
    _give_role(table, row, TableEvent.Kind.HOST, user.pk)


def _give_role(table: Table, row: Seat, kind: str, actor_id: int | None) -> None:
    table.host_id = row.user_id
    table.save(update_fields=["host", "updated_at"])
    match = Match.objects.filter(table=table).first()
    events.record(table, kind, actor_id, row.user_id, match=match)
    changed(table)


def act(table: Table, user: User, power: str, data: Any) -> None:
    """Apply one power named by a posted form (``data``: its fields). Raises ``SeatingError``."""
    if power not in POWERS:
        raise SeatingError(rendering.error_message("malformed"))
    seat, player = target_of(data)
    if power == "kick":
        return kick(table, user, seat, player)
    if power == "hand_over":
        return hand_over(table, user, seat, player)
    match = Match.objects.filter(table=table).first()
    if match is None:
        not_host = table.host_id != user.pk
        raise SeatingError(_("Only the host can do that.") if not_host else _("The game has not started yet."))
    version = _number(data.get("version"))
    try:
        if power == "to_bot":
            moderator.hand_to_bot(match.pk, user.pk, seat if seat is not None else -1, player or 0, version)
        elif power == "end":
            moderator.end_practice(match.pk, user.pk, version)
        else:
            getattr(moderator, power)(match.pk, user.pk, version)
    except IllegalAction as exc:
        raise SeatingError(rendering.error_message(exc.code)) from None
    return None


# --- the clock: a host who went away -------------------------------------------------------------


def _away_hosts(now: datetime):  # noqa: ANN202
    away_since = now - timedelta(seconds=settings.HOST_AWAY_S)
    host_here = Seat.objects.filter(table=OuterRef("pk"), user=OuterRef("host")).filter(
        Q(seen_at__gte=away_since) | Q(seen_at__isnull=True, seated_at__gte=away_since)
    )
    successor = presence.connected(Seat.objects.filter(table=OuterRef("pk"), autopilot=False), now).exclude(
        user=OuterRef("host")
    )
    return Table.objects.filter(status__in=[Table.Status.OPEN, Table.Status.PLAYING]).filter(
        ~Exists(host_here), Exists(successor)
    )


_last_run = [0.0]


def run_due(now: datetime | None = None, force: bool = False) -> int:
    """The clock's look for away hosts, at most every ``JANITOR_EVERY_S`` seconds per process."""
    if not force and time.monotonic() - _last_run[0] < settings.JANITOR_EVERY_S:
        return 0
    _last_run[0] = time.monotonic()
    try:
        return pass_from_away_hosts(now)
    except Exception:  # the clock's other work goes on; the rows are looked at again
        log.exception("host hand-over failed")
        return 0


def pass_from_away_hosts(now: datetime | None = None) -> int:
    """Hand each away host's role on; return how many. Rows are taken with skip-locked and the
    condition checked again under the lock, so with any number of clocks it happens once."""
    now = now or timezone.now()
    skip = connection.features.has_select_for_update_skip_locked
    passed = 0
    for pk in list(_away_hosts(now).values_list("pk", flat=True)[:50]):
        with transaction.atomic():
            table = _away_hosts(now).select_for_update(skip_locked=skip).filter(pk=pk).first()
            if table is None:
                continue
            candidates = presence.connected(longest_seated(table, table.host_id).filter(autopilot=False), now)
            row = candidates.first()
            if row is not None:
                _give_role(table, row, TableEvent.Kind.HOST_AWAY, table.host_id)
                passed += 1
    return passed

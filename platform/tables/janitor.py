"""The lobby's clean-up, run by the moderator's clock (ARCHITECTURE §5): abandoned tables close
by themselves, so spam and forgotten tables leave the lobby.

- An open table with no human seated (empty seats and bots only) that nothing has changed for
  ``OPEN_TABLE_IDLE_S`` closes (status aborted).
- A running match whose every human seat is played by a practice bot (its players stopped
  answering; ARCHITECTURE §5's autopilot), where no player has moved and no human has had a
  socket connected (tables.presence, the seats' heartbeats) for ``ABANDONED_MATCH_IDLE_S``, is
  aborted. A player watching a seat the bot plays for them (kicked to a bot, say) keeps it alive.
  A match of bots only is left to the bots, who finish it.

Rows are taken with ``select_for_update(skip_locked=True)`` where the database has it and the
condition is checked again under the lock, so with any number of processes each table is closed
once. Each process looks at most every ``JANITOR_EVERY_S`` seconds.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from tables import broadcast, moderator, presence
from tables.models import Match, Move, Seat, Table

log = logging.getLogger(__name__)
BATCH = 50
_last_run = [0.0]


def _human_seated() -> Exists:
    return Exists(Seat.objects.filter(table=OuterRef("pk"), user__isnull=False))


def _skip() -> bool:
    return connection.features.has_select_for_update_skip_locked


def close_abandoned_tables(now: datetime) -> int:
    cutoff = now - timedelta(seconds=settings.OPEN_TABLE_IDLE_S)
    idle = Table.objects.filter(status=Table.Status.OPEN, updated_at__lt=cutoff).exclude(_human_seated())
    closed = 0
    for pk in list(idle.values_list("pk", flat=True)[:BATCH]):
        with transaction.atomic():
            table = idle.select_for_update(skip_locked=_skip()).filter(pk=pk).first()
            if table is None:
                continue  # another process has it, or someone sat down meanwhile
            table.status = Table.Status.ABORTED
            table.save(update_fields=["status", "updated_at"])
            broadcast.table_changed(table.token)
            broadcast.listing_changed(table)
            closed += 1
    return closed


def _abandoned_matches(now: datetime):  # noqa: ANN202
    cutoff = now - timedelta(seconds=settings.ABANDONED_MATCH_IDLE_S)
    human_answering = Seat.objects.filter(table=OuterRef("table"), user__isnull=False, autopilot=False)
    human_seat = Seat.objects.filter(table=OuterRef("table"), user__isnull=False)
    recent_move = Move.objects.filter(match=OuterRef("pk"), source=Move.Source.PLAYER, created_at__gte=cutoff)
    human_connected = presence.seen_since(Seat.objects.filter(table=OuterRef("table")), cutoff)
    return Match.objects.filter(
        Q(status=Match.Status.PLAYING, started_at__lt=cutoff),
        Exists(human_seat),
        ~Exists(human_answering),
        ~Exists(recent_move),
        ~Exists(human_connected),
    )


def abort_abandoned_matches(now: datetime) -> int:
    aborted = 0
    for pk in list(_abandoned_matches(now).values_list("pk", flat=True)[:BATCH]):
        with transaction.atomic():
            match = _abandoned_matches(now).select_for_update(skip_locked=_skip()).filter(pk=pk).first()
            if match is not None and moderator.abort(match, "abandoned"):
                aborted += 1
    return aborted


def run_due(now: datetime | None = None, force: bool = False) -> int:
    """Close what is abandoned; return how many tables and matches were ended."""
    if not force and time.monotonic() - _last_run[0] < settings.JANITOR_EVERY_S:
        return 0
    _last_run[0] = time.monotonic()
    now = now or timezone.now()
    try:
        return close_abandoned_tables(now) + abort_abandoned_matches(now)
    except Exception:  # the clock's other work goes on; the rows stay and are looked at again
        log.exception("lobby clean-up failed")
        return 0

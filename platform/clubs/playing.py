"""While a round is played (run by the clock, clubs.due): finished tables are scored, a round
whose tables have all finished ends by itself, and the night page hears of progress.

Progress (each table's move count) is pushed at most every ``PROGRESS_EVERY_S`` per process: the
group message carries nothing but "the night changed", and each socket renders what its reader
may see (clubs.consumers), so a message sent twice by two processes costs only a render.
"""

from __future__ import annotations

import time
from datetime import datetime

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from clubs import live, scoreboard
from clubs.models import Night, Round, RoundTable

PROGRESS_EVERY_S = 1.0
_seen: dict[int, int] = {}
_last_look = [0.0]


def close_finished_rounds(now: datetime) -> int:
    started = Round.objects.filter(status=Round.Status.STARTED)
    closed = 0
    for round_id in started.values_list("pk", flat=True)[:50]:
        if RoundTable.objects.filter(round_id=round_id).exclude(table__status__in=["finished", "aborted"]).exists():
            continue
        with transaction.atomic():
            round_ = (
                Round.objects.select_for_update(skip_locked=True)
                .filter(pk=round_id, status=Round.Status.STARTED)
                .first()
            )
            if round_ is None:
                continue
            round_.status, round_.ended_at = Round.Status.ENDED, now
            round_.save(update_fields=["status", "ended_at"])
            live.night_changed(Night(pk=round_.night_id))
            closed += 1
    return closed


def push_progress() -> int:
    if time.monotonic() - _last_look[0] < PROGRESS_EVERY_S:
        return 0
    _last_look[0] = time.monotonic()
    rows = (
        RoundTable.objects.filter(round__status=Round.Status.STARTED)
        .values("round__night_id")
        .annotate(moves=Sum("table__match__version"))
    )
    for row in rows:
        night_id, moves = row["round__night_id"], row["moves"] or 0
        if _seen.get(night_id) != moves:
            _seen[night_id] = moves
            live.night_changed(Night(pk=night_id))
    return 0  # progress is news, not a thing done


def run_due(now: datetime | None = None) -> int:
    now = now or timezone.now()
    done = scoreboard.score_finished() + close_finished_rounds(now)
    push_progress()
    return done

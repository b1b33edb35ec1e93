"""Who is connected at a table: a heartbeat per seat (``Seat.seen_at``), refreshed when a socket
of the seat's player connects (tables.consumers) and then every ``PRESENCE_HEARTBEAT_S`` for all
of a process's sockets at once, in one query (tables.hub, :func:`heartbeat_many`).

It lives in the database, so every server process reads the same presence, and it needs no
goodbye: the sockets of a process that crashed simply stop refreshing it, and their seats count as
disconnected ``PRESENCE_STALE_S`` later. A seat is connected while any of its player's sockets
beats, whichever process holds it; closing one of two tabs changes nothing.

Whoever is signed in and comes to a table, seated or not, is also noted as having come to watch it
(:func:`came_to_watch`, ``Watcher``), at each arrival only: a spectator who never sat nor wrote is
known to have been there, and may be blocked (moderation.views).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

from tables.models import Seat, Watcher


def heartbeat_many(present: dict[int, set[int]], now: datetime | None = None) -> int:
    """Every (table, player) of ``present`` has a socket open now: one UPDATE a few hundred tables."""
    when, refreshed = now or timezone.now(), 0
    tables = sorted(present)
    for start in range(0, len(tables), 200):
        who = Q()
        for table_id in tables[start : start + 200]:
            who |= Q(table_id=table_id, user_id__in=sorted(present[table_id]))
        refreshed += Seat.objects.filter(who).update(seen_at=when)
    return refreshed


def came_to_watch(present: dict[int, set[int]], now: datetime | None = None) -> None:
    """Every (table, player) of ``present`` just opened a socket there: one upsert in all."""
    when = now or timezone.now()
    rows = [Watcher(table_id=t, user_id=u, came_at=when) for t in sorted(present) for u in sorted(present[t])]
    Watcher.objects.bulk_create(
        rows, update_conflicts=True, unique_fields=["table", "user"], update_fields=["came_at"]
    )


def connected(seats: QuerySet[Seat], now: datetime | None = None) -> QuerySet[Seat]:
    """The human seats among ``seats`` with a socket connected now."""
    since = (now or timezone.now()) - timedelta(seconds=settings.PRESENCE_STALE_S)
    return seats.filter(user__isnull=False, seen_at__gte=since)


def seen_since(seats: QuerySet[Seat], since: datetime) -> QuerySet[Seat]:
    """The human seats with a socket connected at some moment since ``since``."""
    return seats.filter(user__isnull=False, seen_at__gte=since - timedelta(seconds=settings.PRESENCE_STALE_S))

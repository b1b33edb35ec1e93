"""The lobby's list of public tables: those someone can join (an open table with a free seat) or
watch (a running match), newest first, at most ``LOBBY_PER_HOST`` per host, so one host's spam
cannot push other tables off the list."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import Count, F, Q

from games import registry
from tables.models import Table

SHOWN = 50
LOOKED_AT = 500


def listed_tables() -> list[Table]:
    taken = Count("seats", filter=Q(seats__user__isnull=False) | Q(seats__is_bot=True))
    candidates = (
        Table.objects.filter(visibility=Table.Visibility.PUBLIC, status__in=[Table.Status.OPEN, Table.Status.PLAYING])
        .annotate(taken=taken)
        .filter(Q(status=Table.Status.PLAYING) | Q(taken__lt=F("seat_count")))
        .select_related("host")
        .order_by("status", "-created_at", "-pk")[:LOOKED_AT]
    )
    per_host: dict[int, int] = {}
    shown: list[Table] = []
    for table in candidates:
        per_host[table.host_id] = per_host.get(table.host_id, 0) + 1
        if per_host[table.host_id] <= settings.LOBBY_PER_HOST:
            shown.append(table)
            if len(shown) == SHOWN:
                break
    return shown


def lobby_context() -> dict[str, Any]:
    return {"public_tables": listed_tables(), "games": registry.all()}

"""The lobby's list of public tables."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q

from games import registry
from tables.models import Table


def lobby_context() -> dict[str, Any]:
    tables = (
        Table.objects.filter(visibility=Table.Visibility.PUBLIC, status__in=[Table.Status.OPEN, Table.Status.PLAYING])
        .annotate(taken=Count("seats", filter=Q(seats__user__isnull=False) | Q(seats__is_bot=True)))
        .select_related("host")
        .order_by("status", "-created_at")[:50]
    )
    return {"public_tables": list(tables), "games": registry.all()}

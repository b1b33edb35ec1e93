"""The lobby's list of public tables: those someone can join (an open table with a free seat) or
watch (a running match), newest first, at most ``LOBBY_PER_HOST`` per host, so one host's spam
cannot push other tables off the list.

Ruling: a player the host removed from a table (tables.host.kick), or blocked from their tables
(moderation.Block), is not listed that table, as game sites hide a blocker's games from the blocked:
it offers nothing they may take, and says nothing of the block (:func:`shut_out`, one query for the
whole list, :func:`for_viewer`)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import Count, F, IntegerField, Q, Value

from games import registry
from moderation.models import Block
from tables.models import Table, TableEvent

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


def shut_out(tables: list[Table], user_id: int | None = None) -> dict[int, frozenset[int]]:
    """Who may not be listed which of ``tables`` (player -> table pks): those the host removed
    from a table, and those a table's host blocked; in one query whatever the list's length.
    ``user_id``: read only that player's."""
    if not tables:
        return {}
    kicks = TableEvent.objects.filter(kind=TableEvent.Kind.KICK, table_id__in=[t.pk for t in tables])
    blocks = Block.objects.filter(blocker_id__in={t.host_id for t in tables})
    if user_id is not None:
        kicks, blocks = kicks.filter(target_id=user_id), blocks.filter(blocked_id=user_id)
    by_host = Value(1, output_field=IntegerField())
    rows = (
        kicks.annotate(by_host=Value(0, output_field=IntegerField()))
        .values_list("target_id", "table_id", "by_host")
        .order_by()
        .union(blocks.annotate(by_host=by_host).values_list("blocked_id", "blocker_id", "by_host").order_by(), all=True)
    )
    hidden: dict[int, set[int]] = {}
    for player, what, host_wide in rows:
        pks = [t.pk for t in tables if t.host_id == what] if host_wide else [what]
        hidden.setdefault(player, set()).update(pks)
    return {player: frozenset(pks) for player, pks in hidden.items()}


def for_viewer(ctx: dict[str, Any], hidden: frozenset[int]) -> dict[str, Any]:
    """The lobby's context without the tables ``hidden`` from its viewer (:func:`shut_out`)."""
    if not hidden:
        return ctx
    return {**ctx, "public_tables": [t for t in ctx["public_tables"] if t.pk not in hidden]}


def lobby_context() -> dict[str, Any]:
    return {"public_tables": listed_tables(), "games": registry.all()}

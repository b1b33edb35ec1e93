"""The table's own log (``TableEvent``): what the host did, or the clock for the host role, shown
to everyone at its moment in the game's log (tables.renderer). Written by the host's powers inside
their own transaction, so an event exists exactly when its change does."""

from __future__ import annotations

from typing import Any

from django.db.models import F
from django.utils import translation

from tables.models import Match, Seat, Table, TableEvent


def _names(table: Table) -> dict[int, str]:
    """Each seated player's display name at this table, by user id, in the site's language (names
    of bots and empty seats never appear in an event)."""
    from tables.names import display_names  # the naming rules live in their own module

    seats = list(Seat.objects.filter(table=table).select_related("user").order_by("number"))
    with translation.override(None):
        return {s.user_id: str(n) for s, n in zip(seats, display_names(seats), strict=True) if s.user_id}


def record(
    table: Table,
    kind: str,
    actor_id: int | None,
    target_id: int | None = None,
    match: Match | None = None,
    **params: Any,
) -> TableEvent:
    """Log one event. The actor's and target's names are kept as shown now: a player kicked before
    the start has no seat to be named from later."""
    names = _names(table)
    if actor_id is not None:
        params["actor"] = names.get(actor_id, "?")
    if target_id is not None:
        params["target"] = names.get(target_id, "?")
    log_at = len(match.state.get("log", [])) if match is not None else 0
    Table.objects.filter(pk=table.pk).update(event_count=F("event_count") + 1)
    return TableEvent.objects.create(
        table=table, kind=kind, actor_id=actor_id, target_id=target_id, params=params, log_at=log_at
    )

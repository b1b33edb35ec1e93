"""Group messages after commit. They name a version, never a secret: each consumer renders its
own seat's view of the current state (ARCHITECTURE §4)."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

LOBBY_GROUP = "lobby"


def _send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)


def table_changed(table_id: int, version: int = 0) -> None:
    """After the current transaction commits: "table N changed, version V is out"."""
    transaction.on_commit(lambda: _send(f"table-{table_id}", {"type": "table.changed", "version": version}))


def chat_posted(table_id: int) -> None:
    transaction.on_commit(lambda: _send(f"table-{table_id}", {"type": "chat.posted"}))


def lobby_changed() -> None:
    transaction.on_commit(lambda: _send(LOBBY_GROUP, {"type": "lobby.changed"}))

"""Group messages after commit. They name a version, never a secret: each consumer renders its
own seat's view of the current state (ARCHITECTURE §4)."""

from __future__ import annotations

import uuid

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

LOBBY_GROUP = "lobby"


def _send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)


def group_for(token: str) -> str:
    """A table's group is named by its unguessable token, unique across databases too."""
    return f"table.{token}"


def _event() -> str:
    """Names one group message, so that the sockets of one process that hear it share one read of
    the table (tables.renderer)."""
    return uuid.uuid4().hex


def table_changed(token: str, version: int = 0) -> None:
    """After the current transaction commits: "this table changed, version V is out"."""
    message = {"type": "table.changed", "version": version, "event": _event()}
    transaction.on_commit(lambda: _send(group_for(token), message))


def chat_posted(token: str) -> None:
    message = {"type": "chat.posted", "event": _event()}
    transaction.on_commit(lambda: _send(group_for(token), message))


def lobby_changed() -> None:
    message = {"type": "lobby.changed", "event": _event()}
    transaction.on_commit(lambda: _send(LOBBY_GROUP, message))

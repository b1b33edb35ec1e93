"""A consumer's messages dispatched on the event loop, without a hop to the database thread first.

Channels' ``AsyncConsumer.dispatch`` awaits ``aclose_old_connections()`` before every handler: a
``sync_to_async`` call on the one thread that also runs every ``database_sync_to_async`` call.
A move at a six-seat table dispatches seven messages (the player's frame, then each socket's
"version N is out"), so seven hops a move, each waiting behind the renders queued on that thread
before its socket could even start on the message (issue 9).

Our consumers reach the database only through ``shabneshin.loop_db.database_work`` (on the loop's
own thread, or ``database_sync_to_async`` on the worker), which closes old and unusable
connections before and after each call, so the hop at dispatch found nothing to do. A handler
that used the ORM through plain ``sync_to_async`` would need it back.
"""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name


class DispatchesOnTheLoop:
    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

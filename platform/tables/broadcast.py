"""Group messages after commit. They name a version, never a secret: each consumer renders its
own seat's view of the current state (ARCHITECTURE §4).

A send happens after the commit, so it must never turn a stored change into an error: a failed
send (the channel layer's Redis is down, say) is logged and dropped. The next message repairs it,
since every consumer renders the current state, not a delta.

Inside the server, a send from the database work (a move, a chat line) is handed to the event
loop and not waited for, whether that work runs on the loop's own thread (shabneshin.loop_db) or
on a worker thread. On the worker, the one database thread is the server's narrowest point, and
waiting for the loop to run the send (a Redis round trip, or whatever the loop is busy with) held
every other table's work behind it (issue 9); on the loop's own thread, the loop cannot run the
send until the work returns. Sends keep their order on the loop; and
since each consumer renders the state it reads, not the message, a late one changes nothing.
Elsewhere (a management command, the clock's own process, a test) the send is waited for."""

from __future__ import annotations

import asyncio
import logging
import os
import uuid
from concurrent.futures import Future
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from shabneshin import loop_db

LOBBY_GROUP = "lobby"
log = logging.getLogger(__name__)


def send(group: str, message: dict) -> None:
    """Send now (after the commit, through :func:`after_commit`); never raises."""
    try:
        layer = get_channel_layer()
        if layer is None:
            return
        at_work = loop_db.loop_at_work()
        if at_work is not None:  # a call on the loop's own thread: the send runs once it returns
            task = loop_db.soon(at_work, layer.group_send(group, message))
            task.add_done_callback(lambda done: _log_failure(group, done))
            return
        loop = _loop_of_this_thread()
        if loop is not None:
            try:
                sent = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
            except RuntimeError:  # the loop closed meanwhile: wait for the send instead
                pass
            else:
                sent.add_done_callback(lambda done: _log_failure(group, done))
                return
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # after the commit nothing may raise into a view, a consumer or the clock
        log.warning("group send to %s failed; the next message repairs it", group, exc_info=True)


def _loop_of_this_thread() -> asyncio.AbstractEventLoop | None:
    """The running event loop this (sync_to_async) thread works for, as asgiref records it."""
    local = SyncToAsync.threadlocal
    loop = getattr(local, "main_event_loop", None)
    if loop is None or getattr(local, "main_event_loop_pid", None) != os.getpid():
        return None
    if loop.is_closed() or not loop.is_running():
        return None
    return loop  # type: ignore[no-any-return]


def _log_failure(group: str, done: Future[Any] | asyncio.Future[Any]) -> None:
    if not done.cancelled() and done.exception() is not None:
        log.warning("group send to %s failed; the next message repairs it", group, exc_info=done.exception())


def after_commit(group: str, message: dict) -> None:
    """:func:`send` once the current transaction commits (robust: nothing after it is skipped)."""
    transaction.on_commit(lambda: send(group, message), robust=True)


def group_for(token: str) -> str:
    """A table's group is named by its unguessable token, unique across databases too."""
    return f"table.{token}"


def _event() -> str:
    """Names one group message, so that the sockets of one process that hear it share one read of
    the table (tables.renderer)."""
    return uuid.uuid4().hex


def new_event() -> str:
    """An event's name drawn before its message is sent (the moderator primes its snapshot first)."""
    return _event()


def table_changed(token: str, version: int = 0, event: str | None = None) -> None:
    """After the current transaction commits: "this table changed, version V is out"."""
    after_commit(group_for(token), {"type": "table.changed", "version": version, "event": event or _event()})


def chat_posted(token: str) -> None:
    after_commit(group_for(token), {"type": "chat.posted", "event": _event()})


def lobby_changed() -> None:
    after_commit(LOBBY_GROUP, {"type": "lobby.changed", "event": _event()})


def listing_changed(table: Any) -> None:
    """The lobby lists public tables only: a private table's changes never re-render it."""
    if table.visibility == "public":
        lobby_changed()

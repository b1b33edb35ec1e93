"""The consumers' database work, run on the event loop's own thread instead of a worker thread.

Channels' ``database_sync_to_async`` runs every such call on one worker thread. With two busy
threads, the GIL turned every system call into a wait (issue 9, measured under load with py-spy):
each socket write on the loop let the worker take the GIL, and the loop then waited for the
worker's switch interval (5 ms) before it could write the next socket; each SQLite call on the
worker did the same the other way round. The worker thread was 95% busy and the process never
used a whole core, and a move's latency was mostly these waits.

Run on the loop's thread, the same work holds the loop while it runs (a move's write and its
renders, about as long as the worker spent on them), and nothing else waits for the GIL. A call
here is synchronous code, so it gets what ``database_sync_to_async`` gives it:

- Django's ORM refuses to run where an event loop is running (``SynchronousOnlyOperation``), and
  its connections are per thread outside a loop but per task inside one (six hundred sockets
  would be six hundred connections). While a call runs, this thread is marked as running no loop,
  so the ORM works and every call shares the thread's one connection, as the worker's calls did.
  The mark is put back before the call returns, whatever happens.
- Old and unusable connections are closed before and after each call, as Channels does.
- A group message sent by the call (tables.broadcast, clubs.live) is handed to the loop it
  interrupted, to run once the call is over: :func:`loop_at_work` and :func:`soon` (which keeps
  the task referenced until it is done: the loop itself holds tasks only weakly).

Where it pays, measured with ``make bench`` (100 tables x 6 sockets, staggered, same machine,
minutes apart):

- SQLite (the embedded default): a query is a call into a local file, never a wait. On the loop:
  6.4 ms of CPU a move instead of 7.7, p50 16-18 ms instead of 38.
- PostgreSQL: every query waits for a round trip, and on the loop nothing else runs meanwhile
  (no socket is written, no Redis message read). On the loop it applied 23 moves a second
  instead of 57, with p99 over 5 s. So with ``DATABASE_URL`` set the work stays on Channels'
  worker thread, where the loop keeps writing sockets while a query waits.

``DATABASE_WORK_ON_LOOP`` (settings) chooses; its default follows ``DATABASE_URL``.

HTTP views are not affected: Django's ASGI handler runs them on its own worker thread, with that
thread's own connection.

The moderator's clock has :func:`clock_work`: on the loop's thread too where the consumers' work
is, and otherwise on a thread of its own, with that thread's own connection. On Channels' one
worker thread each of the clock's looks waited in line behind every socket's work: under load
(``make bench``, (b) staggered) about 0.3 s a look, so the clock applied night minimums, timeouts
and bot moves 1 to 4 s late at 100 tables and up to 20 s late at 250, and a look of fifty due
matches held that thread, and every move queued behind it, for half a second.
"""

from __future__ import annotations

import asyncio
import functools
import os
import threading
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from channels.db import DatabaseSyncToAsync, database_sync_to_async
from django.conf import settings
from django.db import close_old_connections

P = ParamSpec("P")
R = TypeVar("R")

_here = threading.local()
_pending: set[asyncio.Task[Any]] = set()


def loop_at_work() -> asyncio.AbstractEventLoop | None:
    """The event loop whose thread is running a call of :func:`database_work` right now, if any."""
    return getattr(_here, "loop", None)


def soon(loop: asyncio.AbstractEventLoop, work: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
    """``work`` as a task of ``loop``, kept referenced until it is done."""
    task = loop.create_task(work)
    _pending.add(task)
    task.add_done_callback(_pending.discard)
    return task


def run_here(fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Run ``fn`` now, on the running loop's thread, as ``database_sync_to_async`` would on its
    worker."""
    loop = asyncio.get_running_loop()
    asyncio.events._set_running_loop(None)
    _here.loop = loop
    try:
        close_old_connections()
        try:
            return fn(*args, **kwargs)
        finally:
            close_old_connections()
    finally:
        _here.loop = None
        asyncio.events._set_running_loop(loop)


def database_work(fn: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """``database_sync_to_async``'s drop-in: the call runs on the loop's thread (see above), or on
    Channels' worker thread with ``DATABASE_WORK_ON_LOOP`` off."""

    on_worker = database_sync_to_async(fn)  # made once: with PostgreSQL every call takes this way

    @functools.wraps(fn)
    async def run(*args: P.args, **kwargs: P.kwargs) -> R:
        if not settings.DATABASE_WORK_ON_LOOP:
            return await on_worker(*args, **kwargs)  # type: ignore[no-any-return]
        return run_here(fn, *args, **kwargs)

    return run


_clock_threads: dict[int, ThreadPoolExecutor] = {}  # by process: a forked child makes its own


def _clock_thread() -> ThreadPoolExecutor:
    pid = os.getpid()
    if pid not in _clock_threads:
        _clock_threads[pid] = ThreadPoolExecutor(max_workers=1, thread_name_prefix="shabneshin-clock")
    return _clock_threads[pid]


def clock_work(fn: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """The clock's :func:`database_work`: on the loop's thread where the consumers' work is, else
    on the clock's own thread (one a process, its own connection; old and unusable connections
    closed before and after each call, as Channels does)."""

    @functools.wraps(fn)
    async def run(*args: P.args, **kwargs: P.kwargs) -> R:
        if settings.DATABASE_WORK_ON_LOOP:
            return run_here(fn, *args, **kwargs)
        on_own = DatabaseSyncToAsync(fn, thread_sensitive=False, executor=_clock_thread())
        return await on_own(*args, **kwargs)  # type: ignore[no-any-return]

    return run


async def close_clock_connections() -> None:
    """Close the clock thread's database connections (tests: the test database can then be dropped)."""
    if os.getpid() in _clock_threads:
        from django.db import connections

        await clock_work(connections.close_all)()

"""The moderator's clock (ARCHITECTURE §5): a small loop per server process that applies due bot
moves and timeouts. The deadlines are data on the match rows, so any number of processes may run
it: row locks keep a move from being applied twice.

It starts when the server process starts, so all-bot and autopilot tables move on after a restart
with nobody visiting. Daphne sends no ASGI lifespan events, so :func:`start_with_the_server`
(called when ``shabneshin.asgi`` is imported) schedules the start on the Twisted reactor that
daphne installed: the callback runs inside daphne's event loop as soon as the reactor runs. A
server that does speak lifespan (uvicorn, hypercorn) starts it at ``lifespan.startup``, and any
server still starts it at the first request (:class:`StartsTheClock`), so it never stays off.

Each look is one indexed query when nothing is due. Between looks the loop sleeps until the next
deadline it knows of, at most ``CLOCK_TICK_S`` (deadlines set by other processes), and a move in
this process that sets a sooner deadline wakes it (tables.alarm)."""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from clubs import due as clubs_due
from shabneshin.loop_db import clock_work
from tables import alarm, bot_chat, host, janitor, moderator

log = logging.getLogger(__name__)
_tasks: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}


_last_chores = [float("-inf")]  # time.monotonic() of the last look that ran the chores
# time.monotonic() of this process's last completed look, or of its clock's start (shabneshin.health)
_last_look: list[float | None] = [None]


def since_last_look() -> float | None:
    """Seconds since this process's clock last completed a look (or started); None before it has."""
    last = _last_look[0]
    return None if last is None else time.monotonic() - last


def look() -> datetime | None:
    """One look, in one call on the clock's thread: the moderator's due moves, then the chores:
    the clubs' reminders and offers, the lobby's clean-up, away hosts and the talking bots. One
    chore that fails is logged and the others still run; when the next deadline is.

    The moderator's moves keep their deadlines to the hundredth of a second, so under load the
    clock looks dozens of times a second. The chores need no such precision (a reminder or a bot's
    line a fraction of a second later is the same to a person), and their scans cost about as much
    as the moderator's own: they run at most every ``CLOCK_CHORES_EVERY_S``."""
    _, next_deadline = moderator.tick()
    now = time.monotonic()
    if now - _last_chores[0] < settings.CLOCK_CHORES_EVERY_S:
        return next_deadline
    _last_chores[0] = now
    for part in (clubs_due.run_due, janitor.run_due, host.run_due, bot_chat.run_due):
        try:
            part()
        except Exception:  # its rows stay due and are looked at again next time
            log.exception("clock: %s.%s failed", part.__module__, part.__name__)
    return next_deadline


async def tick() -> float:
    """Apply what is due; return how long to sleep before the next look."""
    next_deadline = await clock_work(look)()
    if next_deadline is None:
        return float(settings.CLOCK_TICK_S)
    wait = (next_deadline - timezone.now()).total_seconds()
    return float(min(settings.CLOCK_TICK_S, max(wait, 0.02)))


async def _loop() -> None:
    loop = asyncio.get_running_loop()
    wake = asyncio.Event()
    try:
        while True:
            try:
                pause = await tick()
                _last_look[0] = time.monotonic()
            except asyncio.CancelledError:
                raise
            except Exception:  # the clock must outlive one bad tick; the row stays due and is retried
                log.exception("moderator clock tick failed")
                pause = settings.CLOCK_TICK_S
            wake.clear()
            alarm.sleeping_until(loop, wake, timezone.now() + timedelta(seconds=pause))
            try:
                await asyncio.wait_for(wake.wait(), pause)
            except TimeoutError:
                pass
    finally:
        alarm.forget(loop)


class StartsTheClock:
    """ASGI middleware: makes sure this process's clock runs, then hands the request on. It also
    answers the lifespan protocol of servers that have one."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "lifespan":
            return await _lifespan(receive, send)
        if scope["type"] in ("http", "websocket"):
            ensure_running()
        return await self.app(scope, receive, send)


async def _lifespan(receive: Any, send: Any) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            ensure_running()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            from shabneshin.shutdown import close_all  # sockets close with 1012 (deploy-safe)

            await close_all()
            await stop()
            await send({"type": "lifespan.shutdown.complete"})
            return


def start_with_the_server() -> bool:
    """Under daphne: start the clock as soon as the server's reactor runs. Returns whether it was
    scheduled. Only a reactor that is already installed is used (importing
    ``twisted.internet.reactor`` here would install a default one)."""
    reactor = sys.modules.get("twisted.internet.reactor")
    if reactor is None or not hasattr(reactor, "_asyncioEventloop"):
        return False
    reactor.callLater(0, _start_in_running_loop)
    return True


def _start_in_running_loop() -> None:
    try:
        ensure_running()
    except Exception:  # the first request starts it then
        log.exception("moderator clock could not start with the server")


def ensure_running() -> None:
    if not settings.CLOCK_ENABLED:
        return
    loop = asyncio.get_running_loop()
    task = _tasks.get(loop)
    if task is None or task.done():
        _tasks[loop] = loop.create_task(_loop(), name="shabneshin-moderator-clock")
        _last_look[0] = time.monotonic()


async def stop() -> None:
    loop = asyncio.get_running_loop()
    task = _tasks.pop(loop, None)
    if task is not None:
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass

"""The moderator's clock (ARCHITECTURE §5): a small loop per server process, started lazily by
the first request the process serves, that applies due bot moves and timeouts. The deadlines are data on the match
rows, so any number of processes may run it: row locks keep a move from being applied twice.

Each look is one indexed query when nothing is due. Between looks the loop sleeps until the next
deadline it knows of, at most ``CLOCK_TICK_S`` (deadlines set by other processes), and a move in
this process that sets a sooner deadline wakes it (tables.alarm)."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from tables import alarm, bot_chat, moderator

log = logging.getLogger(__name__)
_tasks: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}


async def tick() -> float:
    """Apply what is due; return how long to sleep before the next look."""
    _, next_deadline = await database_sync_to_async(moderator.tick)()
    await database_sync_to_async(bot_chat.run_due)()
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
    """ASGI middleware: makes sure this process's clock runs, then hands the request on."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] in ("http", "websocket"):
            ensure_running()
        return await self.app(scope, receive, send)


def ensure_running() -> None:
    if not settings.CLOCK_ENABLED:
        return
    loop = asyncio.get_running_loop()
    task = _tasks.get(loop)
    if task is None or task.done():
        _tasks[loop] = loop.create_task(_loop(), name="shabneshin-moderator-clock")


async def stop() -> None:
    loop = asyncio.get_running_loop()
    task = _tasks.pop(loop, None)
    if task is not None:
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass

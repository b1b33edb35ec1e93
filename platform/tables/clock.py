"""The moderator's clock (ARCHITECTURE §5): a small loop per server process, started lazily by
the first request the process serves, that applies due bot moves and timeouts. The deadlines are data on the match
rows, so any number of processes may run it: row locks keep a move from being applied twice."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings

from tables import bot_chat, moderator

log = logging.getLogger(__name__)
_tasks: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}


async def tick() -> float:
    """Apply what is due; return how long to sleep before the next look."""
    await database_sync_to_async(moderator.run_due)()
    await database_sync_to_async(bot_chat.run_due)()
    wait = await database_sync_to_async(moderator.seconds_until_next_deadline)()
    return settings.CLOCK_TICK_S if wait is None else min(settings.CLOCK_TICK_S, max(wait, 0.02))


async def _loop() -> None:
    while True:
        try:
            pause = await tick()
        except asyncio.CancelledError:
            raise
        except Exception:  # the clock must outlive one bad tick; the row stays due and is retried
            log.exception("moderator clock tick failed")
            pause = settings.CLOCK_TICK_S
        await asyncio.sleep(pause)


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

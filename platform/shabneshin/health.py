"""``/healthz``: whether this server process can serve a table, for a load balancer or a monitor.

Each check uses what a move uses, for real:
- ``database``: one query on the default connection;
- ``cache``: a write and a read of the cache that holds the rate limits and the auth generations
  (Redis with ``REDIS_URL``);
- ``channel_layer``: a message sent to a fresh channel of this process's layer and received back
  (with Redis, a round trip through it; the in-memory layer is this process itself);
- ``clock``: the moderator's clock of this process looked for due moves lately (a stuck clock
  leaves every table without timeouts and bots).

Any check failing answers 503, so a balancer takes the process out of rotation; a failing check
names only the kind of fault (the exception's class), never an address or a message, as the
answer is public. Mail is reported but never fails the answer: a mail server that is down holds
back no game (the outbox retries), and pulling the process would not help it. Its counts (how much
mail is late, how much was given up) tell how busy the clubs' outbox is, so only a signed-in staff
member's request gets them; everyone else sees its state alone.

The checks run at most once every ``HEALTH_REUSE_S`` per process: requests meanwhile (several
balancers, a monitor, a flood) share the verdict being made or just made. Each verdict opens
a database connection of its own, so a flood answered one by one would have used up the
database's connections; a rate limit instead would have answered a balancer 429 and had it
pull a healthy process.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.utils import timezone

log = logging.getLogger(__name__)

OK = "ok"
T = TypeVar("T")


def _database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def _cache() -> None:
    key, value = f"healthz:{secrets.token_hex(6)}", secrets.token_hex(6)
    cache.set(key, value, 10)
    if cache.get(key) != value:
        raise LookupError("the cache did not keep a value")
    cache.delete(key)


async def _channel_layer() -> None:
    layer = get_channel_layer()
    if layer is None:
        raise LookupError("no channel layer")
    channel = await layer.new_channel("healthz.")
    token = secrets.token_hex(6)
    await layer.send(channel, {"type": "healthz", "token": token})
    message = await layer.receive(channel)
    if message.get("token") != token:
        raise LookupError("the channel layer gave back another message")


def _clock() -> dict[str, Any]:
    from tables import clock

    if not settings.CLOCK_ENABLED:
        return {"state": "off"}
    since = clock.since_last_look()
    if since is None:
        return {"state": "not started"}  # this process has served no request on a loop yet
    stale = since > settings.HEALTH_CLOCK_STALE_S
    return {"state": "stalled" if stale else OK, "last_look_s": round(since, 1)}


def _mail() -> dict[str, Any]:
    """Mail waiting longer than it should: the count of pending mail whose next try is more than
    ``HEALTH_MAIL_LATE_S`` overdue, and of mail stored in the last day and given up since (staff
    can send it again from the admin)."""
    from clubs.models import OutgoingMail

    now = timezone.now()
    late = OutgoingMail.objects.filter(
        state=OutgoingMail.State.PENDING, next_try_at__lt=now - timedelta(seconds=settings.HEALTH_MAIL_LATE_S)
    ).count()
    failed = OutgoingMail.objects.filter(
        state=OutgoingMail.State.FAILED, created_at__gte=now - timedelta(days=1)
    ).count()
    return {"state": OK if not late else "behind", "late": late, "failed_last_day": failed}


async def _timed(check: Callable[[], Awaitable[None]]) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        await asyncio.wait_for(check(), settings.HEALTH_CHECK_TIMEOUT_S)
    except TimeoutError:
        return {"state": "failing", "fault": "Timeout"}
    except Exception as fault:  # its kind is the answer; the details go to the log
        log.warning("healthz: %s failed", getattr(check, "__name__", check), exc_info=True)
        return {"state": "failing", "fault": type(fault).__name__}
    return {"state": OK, "ms": round((time.perf_counter() - started) * 1000, 1)}


def _in_a_thread(work: Callable[[], T]) -> Callable[[], Awaitable[T]]:
    """``work`` on a thread of its own, not Django's one thread of synchronous views: a page that
    hangs must not make the process look dead, and a database that hangs must not hold a page."""

    def once() -> T:
        try:
            return work()
        finally:
            connection.close()  # this thread's connection is not kept

    run = sync_to_async(once, thread_sensitive=False)
    run.__name__ = work.__name__
    return run


_latest: tuple[float, asyncio.Task[tuple[bool, dict[str, Any]]]] | None = None


def forget_the_latest_verdict() -> None:
    """The next request checks again (tests)."""
    global _latest
    _latest = None


MAIL_COUNTS = ("late", "failed_last_day")


async def healthz(request: HttpRequest) -> JsonResponse:
    healthy, checks = await _shared_verdict()
    if "mail" in checks and not await _is_staff(request):
        checks = {**checks, "mail": {k: v for k, v in checks["mail"].items() if k not in MAIL_COUNTS}}
    response = JsonResponse({"healthy": healthy, "checks": checks}, status=200 if healthy else 503)
    response["Cache-Control"] = "no-store"
    return response


async def _is_staff(request: HttpRequest) -> bool:
    try:
        user = await request.auser()
    except Exception:  # a session store that is down answers as to anyone: the verdict still goes out
        log.warning("healthz: the session could not be read", exc_info=True)
        return False
    return bool(user.is_authenticated and user.is_staff)


async def _shared_verdict() -> tuple[bool, dict[str, Any]]:
    """The verdict begun less than ``HEALTH_REUSE_S`` ago on this loop, or a new one."""
    global _latest
    loop = asyncio.get_running_loop()
    now = time.monotonic()
    if _latest is not None:
        began, task = _latest
        if task.get_loop() is loop and (not task.done() or now - began < settings.HEALTH_REUSE_S):
            return await asyncio.shield(task)
    task = loop.create_task(_verdict())
    _latest = (now, task)
    return await asyncio.shield(task)


async def _verdict() -> tuple[bool, dict[str, Any]]:
    checks: dict[str, Any] = {
        "database": await _timed(_in_a_thread(_database)),
        "cache": await _timed(_in_a_thread(_cache)),
        "channel_layer": await _timed(_channel_layer),
        "clock": _clock(),
    }
    services_ok = all(checks[name]["state"] == OK for name in ("database", "cache", "channel_layer"))
    healthy = services_ok and checks["clock"]["state"] in (OK, "off", "not started")
    if checks["database"]["state"] == OK:
        try:
            checks["mail"] = await _in_a_thread(_mail)()
        except Exception as fault:  # reported, never failing the answer
            checks["mail"] = {"state": "unknown", "fault": type(fault).__name__}
    return healthy, checks

"""Rate limits on Django's cache framework (local memory by default; Redis with ``REDIS_URL``):
fixed-window counters, one cache key per (what, who, window), counted atomically (Redis INCR, or
the backend's ``add`` then ``incr``), so several processes sharing Redis share a limit.

A limit fails open: if the cache cannot be reached the event is allowed and the failure logged,
so a cache outage never turns into refusing every player."""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.http import HttpRequest

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limit:
    """At most ``setting``'s number of events per ``window_s`` seconds for one key."""

    name: str
    setting: str
    window_s: int

    def allows(self, who: str) -> bool:
        """Count one event for ``who``; whether it is within the limit."""
        return _all_allow([(self, who)])

    def counter(self, who: str) -> tuple[str, int]:
        """The cache key of ``who``'s counter in this window, and how long it must live."""
        bucket = int(time.time() // self.window_s)
        return f"ratelimit:{self.name}:{who}:{bucket}", self.window_s + 5


def _all_allow(events: list[tuple[Limit, str]]) -> bool:
    """Count one event under each (limit, who); whether every count is within its limit."""
    try:
        counts = _counted([limit.counter(who) for limit, who in events])
    except Exception:
        names = ", ".join(limit.name for limit, _ in events)
        log.warning("rate limit %s could not reach the cache; allowing", names, exc_info=True)
        return True
    return all(count <= int(getattr(settings, limit.setting)) for count, (limit, _) in zip(counts, events, strict=True))


def _counted(counters: list[tuple[str, int]]) -> list[int]:
    """One more under each counter (made, with its lifetime, by the first event), as the counts:
    :func:`_added` with one each, so on Redis one pipelined round trip for all of them. Django's
    own ``add`` then ``incr`` cost three round trips a counter (its ``incr`` asks whether the key
    exists first)."""
    totals = _added({key: 1 for key, _ in counters}, dict(counters))
    return [totals[key] for key, _ in counters]


CHAT_POSTS = Limit("chat", "RATE_CHAT_PER_MINUTE", 60)
TABLES_CREATED = Limit("tables", "RATE_TABLES_PER_HOUR", 3600)
SIGN_UPS = Limit("signups", "RATE_SIGNUPS_PER_HOUR", 3600)
GUESTS = Limit("guests", "RATE_GUESTS_PER_HOUR", 3600)
PASSWORD_RESETS = Limit("password-resets", "RATE_PASSWORD_RESETS_PER_HOUR", 3600)
FRAMES_PER_SESSION = Limit("frames-session", "RATE_FRAMES_PER_SESSION_10S", 10)
FRAMES_PER_ADDRESS = Limit("frames-address", "RATE_FRAMES_PER_ADDRESS_10S", 10)


def frame_allowed(session: str, address: str) -> bool:
    """One more WebSocket frame from this session and address (both counted, whatever the verdict).

    On an event loop (a socket's ``receive``), counted by the process's :class:`FrameTally`, which
    takes its counts to the cache in the background; elsewhere, on the cache at once."""
    events = [(FRAMES_PER_ADDRESS, address)] + ([(FRAMES_PER_SESSION, session)] if session else [])
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return _all_allow(events)
    return frame_tally.allows(loop, events)


class FrameTally:
    """The frame limits of one process's sockets, counted here and taken to the cache every
    ``FLUSH_S`` in one background round trip (issue 9).

    Asked on the cache at every frame, the limits cost a Redis round trip on the event loop for
    each move (10% of the loop's time under load, and every socket of the process waited for it).
    Here a frame's count is what the cache held at the last flush (every process's frames) plus
    this process's frames since: exact within one process, and behind by at most ``FLUSH_S`` of
    the other processes' frames. The cache still holds the shared counters (one per limit, who and
    window, as :func:`_counted` keeps them), so processes share a limit as before. A flush that
    cannot reach the cache is logged and its frames are not counted again (the limits fail open).
    Runs on the event loop only; the flush's cache call runs on its own thread."""

    FLUSH_S = 0.1

    def __init__(self) -> None:
        self.known: dict[str, tuple[int, float]] = {}  # counter -> (the cache's count, until when)
        self.pending: dict[str, int] = {}  # counted here, not yet sent
        self.sending: dict[str, int] = {}  # counted here, on their way to the cache
        self.lifetimes: dict[str, int] = {}
        self.flush: asyncio.Future[None] | None = None
        self.executor: ThreadPoolExecutor | None = None

    def count(self, key: str) -> int:
        known = self.known.get(key)
        return (known[0] if known else 0) + self.sending.get(key, 0) + self.pending.get(key, 0)

    def allows(self, loop: asyncio.AbstractEventLoop, events: list[tuple[Limit, str]]) -> bool:
        allowed = True
        for limit, who in events:
            key, lifetime = limit.counter(who)
            self.pending[key] = self.pending.get(key, 0) + 1
            self.lifetimes[key] = lifetime
            allowed = allowed and self.count(key) <= int(getattr(settings, limit.setting))
        if self.flush is None or self.flush.get_loop() is not loop:  # (a loop that ended took its flush along)
            self.flush = asyncio.ensure_future(self._flush_soon(loop), loop=loop)
        return allowed

    async def _flush_soon(self, loop: asyncio.AbstractEventLoop) -> None:
        try:
            await asyncio.sleep(self.FLUSH_S)
            self.sending, self.pending = self.pending, {}
            lifetimes = {key: self.lifetimes[key] for key in self.sending}
            if self.executor is None:
                self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="frame-tally")
            try:
                totals = await loop.run_in_executor(self.executor, _added, self.sending, lifetimes)
            except Exception:
                log.warning("frame limits could not reach the cache; these frames go uncounted", exc_info=True)
                totals = {}
        except BaseException:  # cancelled, or the loop is closing: nothing more is scheduled
            self.sending, self.flush = {}, None
            raise
        now = time.monotonic()
        for key, total in totals.items():
            self.known[key] = (total, now + lifetimes[key])
        self.known = {key: known for key, known in self.known.items() if known[1] > now}
        self.lifetimes = {key: self.lifetimes[key] for key in self.known.keys() | self.pending.keys()}
        self.sending, self.flush = {}, None
        if self.pending:
            self.flush = asyncio.ensure_future(self._flush_soon(loop), loop=loop)


frame_tally = FrameTally()


def _added(amounts: dict[str, int], lifetimes: dict[str, int]) -> dict[str, int]:
    """Add each amount to its counter on the cache (made, with its lifetime, when missing); the
    counters' new values. On Redis one pipelined round trip (INCRBY, EXPIRE); elsewhere the
    backend's ``add`` then ``incr``."""
    backend = caches["default"]
    if isinstance(backend, RedisCache):
        client = backend._cache.get_client(write=True)
        pipeline = client.pipeline(transaction=False)
        for key, amount in amounts.items():
            made = backend.make_and_validate_key(key)
            pipeline.incrby(made, amount)
            pipeline.expire(made, lifetimes[key])
        return {key: int(total) for key, total in zip(amounts, pipeline.execute()[0::2], strict=True)}
    totals = {}
    for key, amount in amounts.items():
        backend.add(key, 0, timeout=lifetimes[key])
        totals[key] = backend.incr(key, amount)
    return totals


def address(request: HttpRequest) -> str:
    """The client's address as the server sees it (behind a proxy: the proxy's, unless the proxy
    sets REMOTE_ADDR, as daphne does with ``--proxy-headers``)."""
    return str(request.META.get("REMOTE_ADDR") or "unknown")

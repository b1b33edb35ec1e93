"""Rate limits on Django's cache framework (local memory by default; Redis with ``REDIS_URL``):
fixed-window counters, one cache key per (what, who, window), counted atomically (Redis INCR, or
the backend's ``add`` then ``incr``), so several processes sharing Redis share a limit.

A limit fails open: if the cache cannot be reached the event is allowed and the failure logged,
so a cache outage never turns into refusing every player."""

from __future__ import annotations

import logging
import time
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
    """One more under each counter (made, with its lifetime, by the first event), as the counts.

    On Redis, one pipelined round trip for all of them (INCR makes a missing counter; EXPIRE sets
    its lifetime). Django's own ``add`` then ``incr`` cost three round trips a counter (its
    ``incr`` asks whether the key exists first), and a WebSocket frame counts two counters on the
    event loop, where every round trip holds up every socket of the process (issue 9).
    Elsewhere ``add`` then ``incr``, which is atomic in each backend."""
    backend = caches["default"]
    if isinstance(backend, RedisCache):
        client = backend._cache.get_client(write=True)
        pipeline = client.pipeline(transaction=False)
        for key, lifetime in counters:
            made = backend.make_and_validate_key(key)
            pipeline.incr(made)
            pipeline.expire(made, lifetime)
        return [int(count) for count in pipeline.execute()[0::2]]
    counts = []
    for key, lifetime in counters:
        backend.add(key, 0, timeout=lifetime)
        counts.append(backend.incr(key))
    return counts


CHAT_POSTS = Limit("chat", "RATE_CHAT_PER_MINUTE", 60)
TABLES_CREATED = Limit("tables", "RATE_TABLES_PER_HOUR", 3600)
SIGN_UPS = Limit("signups", "RATE_SIGNUPS_PER_HOUR", 3600)
GUESTS = Limit("guests", "RATE_GUESTS_PER_HOUR", 3600)
FRAMES_PER_SESSION = Limit("frames-session", "RATE_FRAMES_PER_SESSION_10S", 10)
FRAMES_PER_ADDRESS = Limit("frames-address", "RATE_FRAMES_PER_ADDRESS_10S", 10)


def frame_allowed(session: str, address: str) -> bool:
    """One more WebSocket frame from this session and address (both counted, whatever the verdict)."""
    events = [(FRAMES_PER_ADDRESS, address)] + ([(FRAMES_PER_SESSION, session)] if session else [])
    return _all_allow(events)


def address(request: HttpRequest) -> str:
    """The client's address as the server sees it (behind a proxy: the proxy's, unless the proxy
    sets REMOTE_ADDR, as daphne does with ``--proxy-headers``)."""
    return str(request.META.get("REMOTE_ADDR") or "unknown")

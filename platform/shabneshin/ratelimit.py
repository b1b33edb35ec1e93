"""Rate limits on Django's cache framework (local memory by default; Redis with ``REDIS_URL``):
fixed-window counters, one cache key per (what, who, window). ``cache.add`` starts a window's
counter and ``cache.incr`` counts atomically, so several processes sharing Redis share a limit.

A limit fails open: if the cache cannot be reached the event is allowed and the failure logged,
so a cache outage never turns into refusing every player."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
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
        bucket = int(time.time() // self.window_s)
        key = f"ratelimit:{self.name}:{who}:{bucket}"
        try:
            cache.add(key, 0, timeout=self.window_s + 5)
            count = cache.incr(key)
        except Exception:
            log.warning("rate limit %s could not reach the cache; allowing", self.name, exc_info=True)
            return True
        return count <= int(getattr(settings, self.setting))


CHAT_POSTS = Limit("chat", "RATE_CHAT_PER_MINUTE", 60)
TABLES_CREATED = Limit("tables", "RATE_TABLES_PER_HOUR", 3600)
SIGN_UPS = Limit("signups", "RATE_SIGNUPS_PER_HOUR", 3600)
GUESTS = Limit("guests", "RATE_GUESTS_PER_HOUR", 3600)
FRAMES_PER_SESSION = Limit("frames-session", "RATE_FRAMES_PER_SESSION_10S", 10)
FRAMES_PER_ADDRESS = Limit("frames-address", "RATE_FRAMES_PER_ADDRESS_10S", 10)


def frame_allowed(session: str, address: str) -> bool:
    """One more WebSocket frame from this session and address (both counted, whatever the verdict)."""
    by_session = FRAMES_PER_SESSION.allows(session) if session else True
    return FRAMES_PER_ADDRESS.allows(address) and by_session


def address(request: HttpRequest) -> str:
    """The client's address as the server sees it (behind a proxy: the proxy's, unless the proxy
    sets REMOTE_ADDR, as daphne does with ``--proxy-headers``)."""
    return str(request.META.get("REMOTE_ADDR") or "unknown")

"""Django's Redis cache with one client, so one connection pool, per process and server.

Django keeps a cache object per asyncio task as well as per thread (``django.core.cache.caches``
is an asgiref ``Local`` that is not thread-critical), and each of Django's ``RedisCache`` objects
makes its own client with its own connection pool, never closed. Every socket's consumer is a task
of its own, and its work on the database thread runs in a copy of its context, so each socket
came to hold a cache object and a Redis connection of its own for as long as it stayed open.
Measured (issue 9, ``make bench`` (b), 100 tables × 6 sockets): 657 Redis connections in one
server process, one made for each socket's first cache read on the database thread while 600
sockets connected; the TCP connect and handshake were about 4% of that thread's time then.

Here every cache object of a process shares one client per (servers, options), and so one pool:
redis-py's pools are thread-safe and hand each caller a connection of its own for the length of
a command. A forked child makes its own.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from django.core.cache.backends import redis
from django.utils.functional import cached_property

_clients: dict[tuple[Any, ...], redis.RedisCacheClient] = {}
_lock = threading.Lock()


class RedisCache(redis.RedisCache):
    @cached_property
    def _cache(self) -> redis.RedisCacheClient:
        key = (os.getpid(), self._class, tuple(self._servers), repr(sorted(self._options.items())))
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = self._class(self._servers, **self._options)
        return client

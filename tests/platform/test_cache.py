"""The Redis cache holds one connection pool a process, however many sockets read it
(shabneshin.cache): Django makes a cache object per asyncio task, and each of its own Redis
caches would open a connection of its own for every socket."""

from __future__ import annotations

import asyncio

import pytest
import redis
from asgiref.sync import sync_to_async
from django.core.cache import cache

from tests.redis_server import own_redis  # noqa: F401  (fixture)


def _clients(url: str) -> int:
    return len(redis.Redis.from_url(url).client_list()) - 1  # without this count's own


async def _a_hundred_sockets_read_the_cache() -> None:
    async def one_socket(n: int) -> None:  # each its own task, as each consumer is
        await sync_to_async(cache.get_many)([f"auth-generation:{n}", "chat-generation:1"])
        await sync_to_async(cache.set)(f"seen:{n}", n)

    await asyncio.gather(*(one_socket(n) for n in range(100)))


@pytest.mark.parametrize(
    ("backend", "most"),
    [
        ("shabneshin.cache.RedisCache", 3),
        pytest.param(
            "django.core.cache.backends.redis.RedisCache",
            3,
            marks=pytest.mark.xfail(strict=True, reason="Django's own: a pool per task"),
        ),
    ],
)
async def test_a_hundred_sockets_share_a_few_redis_connections(settings, own_redis, backend, most):  # noqa: F811
    settings.CACHES = {"default": {"BACKEND": backend, "LOCATION": own_redis.url}}
    await _a_hundred_sockets_read_the_cache()
    assert await sync_to_async(cache.get)("seen:99") == 99
    assert _clients(own_redis.url) <= most

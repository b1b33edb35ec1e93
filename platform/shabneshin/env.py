"""Typed environment helpers that fail loudly on a value they cannot read."""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import unquote, urlparse


class EnvError(ValueError):
    """An environment variable holds a value its setting cannot use."""


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    lowered = raw.strip().lower()
    if lowered in {"1", "true", "yes", "on"}:
        return True
    if lowered in {"0", "false", "no", "off"}:
        return False
    raise EnvError(f"{name}={raw!r} is not a boolean (use true/false, 1/0, yes/no, on/off)")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise EnvError(f"{name}={raw!r} is not a whole number") from None


def env_float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return float(raw)
    except ValueError:
        raise EnvError(f"{name}={raw!r} is not a number") from None


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return [part.strip() for part in raw.split(",") if part.strip()]


def database_from_url(url: str, test_suffix: str = "") -> dict[str, Any]:
    """``postgres://user:pass@host:port/name`` as a Django DATABASES entry. ``test_suffix`` keeps the
    test databases of two checkouts on one server apart."""
    parsed = urlparse(url)
    if parsed.scheme not in {"postgres", "postgresql"}:
        raise EnvError(f"DATABASE_URL scheme {parsed.scheme!r} is not supported (use postgres://)")
    name = unquote(parsed.path.lstrip("/"))
    if not name:
        raise EnvError("DATABASE_URL names no database")
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": name,
        "USER": unquote(parsed.username or ""),
        "PASSWORD": unquote(parsed.password or ""),
        "HOST": parsed.hostname or "",
        "PORT": str(parsed.port or ""),
        # psycopg's pool keeps connections open between database_sync_to_async calls (opening
        # one per call cost more than the move itself); Django requires CONN_MAX_AGE 0 with it.
        "CONN_MAX_AGE": 0,
        "OPTIONS": {"pool": {"min_size": 2, "max_size": 20, "timeout": 10}},
        "TEST": {"NAME": f"test_{name}{test_suffix}"},
    }


def redis_channel_layer(url: str, pool_size: int) -> dict[str, Any]:
    """channels-redis with a pool bigger than redis-py 8's default and a socket timeout above the
    layer's blocking receive (ARCHITECTURE §6)."""
    parsed = urlparse(url)
    if parsed.scheme not in {"redis", "rediss"}:
        raise EnvError(f"REDIS_URL scheme {parsed.scheme!r} is not supported (use redis://)")
    return {
        "BACKEND": "shabneshin.layers.RedisChannelLayer",
        "CONFIG": {
            "hosts": [{"address": url, "max_connections": pool_size, "socket_timeout": 10}],
            "capacity": 500,
            "expiry": 60,
        },
    }

"""Generations: a token on Django's cache framework (so on Redis, shared by every process) that
changes whenever something it stands for changes. A process keeps what it computed under the
generation it read *before* computing it; a later reader that finds another token computes again.
"""

from __future__ import annotations

import uuid

from django.core.cache import cache
from django.db import transaction


def current(key: str) -> str:
    """The key's generation (a new one if the cache holds none, evicted or never set)."""
    token = cache.get(key)
    if token is None:
        cache.add(key, uuid.uuid4().hex, None)
        token = cache.get(key)
    return str(token)


def current_many(*keys: str) -> tuple[str, ...]:
    """Several keys' generations in one read of the cache (one Redis round trip, not one a key)."""
    found = cache.get_many(keys)
    return tuple(str(found[key]) if found.get(key) is not None else current(key) for key in keys)


def bump(key: str, again_on_commit: bool = False) -> None:
    """The thing changed. ``again_on_commit``: bump once more when the transaction commits, so no
    reader keeps under the new token rows it read before the commit."""

    def new_token() -> None:
        cache.set(key, uuid.uuid4().hex, None)

    new_token()
    if again_on_commit:
        transaction.on_commit(new_token)

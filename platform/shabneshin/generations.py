"""Generations: a token on Django's cache framework (so on Redis, shared by every process) that
changes whenever something it stands for changes. A process keeps what it computed under the
generation it read *before* computing it; a later reader that finds another token computes again.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from django.core.cache import cache
from django.db import transaction

_ahead = threading.local()


@contextmanager
def read_ahead(*keys: str) -> Iterator[None]:
    """Within the block, these keys' generations as read at its start, all in one read of the
    cache. A move asks for its player's auth generation before the lock and for its table's chat
    generations after the commit: one Redis round trip instead of two on the database thread
    (issue 9). Reading earlier keeps the rule above (a token is read before what is computed
    under it). A bump in this thread within the block drops that key's value; a key the cache
    does not hold is read as usual. An inner block keeps the outer one's values."""
    found = cache.get_many(keys) if keys else {}
    values = getattr(_ahead, "values", None)
    outermost = values is None
    if values is None:
        values = _ahead.values = {}
    added = {key: str(token) for key, token in found.items() if token is not None and key not in values}
    values.update(added)
    try:
        yield
    finally:
        if outermost:
            _ahead.values = None
        else:
            for key in added:
                values.pop(key, None)


def _ahead_of(key: str) -> str | None:
    values = getattr(_ahead, "values", None)
    return values.get(key) if values else None


def _forget_ahead(key: str) -> None:
    values = getattr(_ahead, "values", None)
    if values:
        values.pop(key, None)


def current(key: str) -> str:
    """The key's generation (a new one if the cache holds none, evicted or never set)."""
    ahead = _ahead_of(key)
    if ahead is not None:
        return ahead
    token = cache.get(key)
    if token is None:
        cache.add(key, uuid.uuid4().hex, None)
        token = cache.get(key)
    return str(token)


def current_many(*keys: str) -> tuple[str, ...]:
    """Several keys' generations in one read of the cache (one Redis round trip, not one a key)."""
    ahead = tuple(_ahead_of(key) for key in keys)
    if all(token is not None for token in ahead):
        return ahead  # type: ignore[return-value]
    found = cache.get_many(keys)
    return tuple(str(found[key]) if found.get(key) is not None else current(key) for key in keys)


def bump(key: str, again_on_commit: bool = False) -> None:
    """The thing changed. ``again_on_commit``: bump once more when the transaction commits, so no
    reader keeps under the new token rows it read before the commit."""

    def new_token() -> None:
        _forget_ahead(key)
        cache.set(key, uuid.uuid4().hex, None)

    new_token()
    if again_on_commit:
        transaction.on_commit(new_token)

"""Wakes this process's clock early when a move here sets a deadline sooner than it planned to
look (ARCHITECTURE §5). Moves run in worker threads; the clock waits on its event loop."""

from __future__ import annotations

import asyncio
import threading
from datetime import datetime

from django.db import transaction

_lock = threading.Lock()
_sleepers: dict[asyncio.AbstractEventLoop, tuple[asyncio.Event, datetime | None]] = {}


def sleeping_until(loop: asyncio.AbstractEventLoop, event: asyncio.Event, until: datetime | None) -> None:
    """The clock of ``loop`` sleeps on ``event`` until ``until`` (``None``: its longest pause)."""
    with _lock:
        _sleepers[loop] = (event, until)


def forget(loop: asyncio.AbstractEventLoop) -> None:
    with _lock:
        _sleepers.pop(loop, None)


def _ring(when: datetime) -> None:
    with _lock:
        sleepers = list(_sleepers.items())
    for loop, (event, until) in sleepers:
        if until is None or when < until:
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:  # that loop has closed
                forget(loop)


def deadline_set(when: datetime | None) -> None:
    """After the current transaction commits, wake any clock that would look later than ``when``."""
    if when is None or not _sleepers:
        return
    transaction.on_commit(lambda: _ring(when))

"""Counts SQL queries, template renders, the garbage collector's pauses and how late the clock's
moves were, for the benchmark
(``make bench``) and a few tests.

Off unless ``BENCH_COUNTERS`` is set (or a test calls :func:`install`): it wraps Django's cursor
and Template.render at class level, so it sees every thread's connection (the WebSocket renders
run in database_sync_to_async's worker thread)."""

from __future__ import annotations

import gc
import threading
import time
from typing import Any

_lock = threading.Lock()
_counts = {
    "queries": 0,
    "renders": 0,
    "gc_us": 0,
    "gc_max_us": 0,
    "gc_full": 0,
    "clock_moves": 0,
    "clock_late_ms": 0,
    "clock_late_max_ms": 0,
}
_installed = False
_gc_began = 0.0


def _timed_gc(phase: str, info: dict[str, Any]) -> None:
    """The collector's pauses (all of them stop every thread): their total, the longest, and how
    many were full collections."""
    global _gc_began
    if phase == "start":
        _gc_began = time.perf_counter()
        return
    spent = int((time.perf_counter() - _gc_began) * 1e6)
    with _lock:
        _counts["gc_us"] += spent
        _counts["gc_max_us"] = max(_counts["gc_max_us"], spent)
        _counts["gc_full"] += info.get("generation") == 2


def _bump(name: str) -> None:
    with _lock:
        _counts[name] += 1


def also_queries(n: int) -> None:
    """``n`` more statements than executes (shabneshin.precompiled.run_together sends several in
    one): each statement counts as a query."""
    if _installed and n:
        with _lock:
            _counts["queries"] += n


def clock_late(seconds: float) -> None:
    """The clock applied a bot move or a timeout ``seconds`` after it was due (when it looked)."""
    if _installed:
        late = max(0, int(seconds * 1000))
        with _lock:
            _counts["clock_moves"] += 1
            _counts["clock_late_ms"] += late
            _counts["clock_late_max_ms"] = max(_counts["clock_late_max_ms"], late)


def install() -> None:
    global _installed
    if _installed:
        return
    from django.db.backends import utils
    from django.template import base

    execute, executemany, render = (
        utils.CursorWrapper.execute,
        utils.CursorWrapper.executemany,
        base.Template.render,
    )

    def counted_execute(self: Any, sql: Any, params: Any = None) -> Any:
        _bump("queries")
        return execute(self, sql, params)

    def counted_executemany(self: Any, sql: Any, param_list: Any) -> Any:
        _bump("queries")
        return executemany(self, sql, param_list)

    def counted_render(self: Any, context: Any) -> Any:
        _bump("renders")
        return render(self, context)

    utils.CursorWrapper.execute = counted_execute  # type: ignore[method-assign]
    utils.CursorWrapper.executemany = counted_executemany  # type: ignore[method-assign]
    base.Template.render = counted_render  # type: ignore[method-assign]
    gc.callbacks.append(_timed_gc)
    _installed = True


def snapshot() -> dict[str, int]:
    """The counts; ``clock_late_max_ms`` is the longest since the last snapshot (it starts again)."""
    with _lock:
        counts = dict(_counts)
        _counts["clock_late_max_ms"] = 0
        return counts


def installed() -> bool:
    return _installed

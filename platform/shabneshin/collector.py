"""The garbage collector, set for a long-running server process.

CPython's cyclic collector runs a young collection every 700 allocations and, now and then, a
full one that walks every object the process holds. A server holds hundreds of thousands of them
that live as long as it does (Django's apps, URL patterns, compiled templates, the renderer's
caches), so in the bench a full collection paused every thread for up to about half a second, a
few times a minute, and the young ones cost about a millisecond a move (issue 9).

:func:`tune_for_serving` moves everything alive at start-up out of the collector's sight
(``gc.freeze``: it is never freed anyway) and lets the young generation grow larger before it is
collected (measured with scripts/bench/render_path.py: 700 → 5,000 → 10,000 allocations cut a
move's CPU; 50,000 cost more than they saved, the young objects no longer fitting the processor's
caches). Reference cycles are still collected, only less often; what the renderer's caches hold is
bounded by their own limits."""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 10_000  # allocations between young collections (CPython's default: 700)
MIDDLE_THRESHOLD = 20  # young collections between collections of the middle generation (10)
OLD_THRESHOLD = 100  # middle collections before a full one is considered (10)


def tune_for_serving() -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, MIDDLE_THRESHOLD, OLD_THRESHOLD)

"""Real concurrent work: each worker in its own thread and database connection."""

from __future__ import annotations

import threading

from django.db import connection


def race(workers) -> list:
    """Run every worker at the same moment, each in its own thread and database connection."""
    barrier = threading.Barrier(len(workers))
    results: list = [None] * len(workers)
    errors: list = []

    def run(i, work):
        try:
            barrier.wait(timeout=10)
            results[i] = work()
        except Exception as exc:  # surfaced below, with the thread's failure
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, w)) for i, w in enumerate(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors
    return results

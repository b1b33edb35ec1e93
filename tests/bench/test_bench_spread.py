"""`make bench REPEAT=K`: each run K times, then one line per configuration and mode with the site's
median and range, since one run's p99 alone tells little on a shared machine (README "Performance")."""

from __future__ import annotations

from scripts.bench.run import spread


def _row(configuration: str, mode: str, p50: float, p99: float, cpu_ms: float, echo_cpu_ms: float, share: float):
    return {
        "configuration": configuration,
        "mode": mode,
        "site": {"p50": p50, "p99": p99, "cpu_ms": cpu_ms, "applied_share": share},
        "echo": {"cpu_ms": echo_cpu_ms},
    }


def test_repeated_runs_are_told_by_their_median_and_range_per_configuration_and_mode():
    rows = [
        _row("b", "staggered", 40, 1240, 7.0, 2.0, 1.0),
        _row("b", "staggered", 20, 233, 5.5, 2.5, 0.97),
        _row("b", "staggered", 30, 341, 6.2, 2.0, 1.0),
        _row("a", "staggered", 10, 45, 3.6, 1.2, 1.0),
    ]
    b, a = spread(rows)
    assert b == "| (b) site | staggered | 3 | 97% | 30 (20–40) | 341 (233–1240) | 3.1 (2.2–3.5) |"
    assert a == "| (a) site | staggered | 1 | 100% | 10 (10–10) | 45 (45–45) | 3.0 (3.0–3.0) |"


def test_an_echo_that_counted_no_cpu_leaves_the_ratio_out_rather_than_dividing_by_nothing():
    (line,) = spread([_row("c", "saturation", 500, 1000, 7.2, 0.0, 1.0)])
    assert line.endswith("| — |")

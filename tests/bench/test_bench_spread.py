"""`make bench REPEAT=K`: each run K times, then one line per configuration and mode with the site's
median and range, since one run's p99 alone tells little on a shared machine (README "Performance")."""

from __future__ import annotations

from scripts.bench.run import HEADER, spread, table_row


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


def test_each_server_process_shows_its_share_of_a_core_and_its_loops_in_the_row_of_its_run():
    def figures(busy: list[float], loop_busy: list[float]) -> dict[str, object]:
        return {
            "offered": 100.0, "applied": 99.0, "applied_share": 0.99, "p50": 10, "p95": 20, "p99": 30,
            "cpu_ms": 4.0, "busy": busy, "loop_busy": loop_busy, "rss_kib": 80, "bytes": 3000,
            "queries": 4.0, "renders": 9.0,
            "clock_moves": 30.0, "clock_late_mean_ms": 2, "clock_late_max_ms": 40,
        }  # fmt: skip

    site_figures = figures([0.714, 0.68], [0.45, 0.436])
    echo_figures = figures([0.5, 0.45], [0.5, 0.449])
    site, echo = table_row(
        {"configuration": "c", "mode": "saturation", "site": site_figures, "echo": echo_figures}
    ).splitlines()
    columns = [c.strip() for c in HEADER.splitlines()[0].strip("|").split("|")]
    busy = columns.index("busy % of a core")
    assert [c.strip() for c in site.strip("|").split("|")][busy] == "71 (loop 45) + 68 (loop 44)"
    assert [c.strip() for c in echo.strip("|").split("|")][busy] == "50 (loop 50) + 45 (loop 45)"
    assert len(site.strip("|").split("|")) == len(columns)

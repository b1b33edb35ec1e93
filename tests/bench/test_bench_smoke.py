"""A tiny run of `make bench` (two tables, a few seconds), so the benchmark keeps working. Its
figures are printed by `make bench`; here only that the site and the echo were really driven."""

from __future__ import annotations

import json
import subprocess
import sys

from scripts.bench.run import ROOT
from tests.components import require


def test_the_benchmark_drives_the_site_and_the_echo_with_real_sockets(tmp_path):
    require("playwright")  # the [test] extras: websockets comes with them
    out = tmp_path / "bench.json"
    # Its own process: the browser tests' event loop may still run in this one.
    subprocess.run([sys.executable, "scripts/bench/run.py", "--smoke", "--json", str(out)], cwd=ROOT, check=True)
    first, second = json.loads(out.read_text())
    assert second["site"]["applied"] > 0, "the second run's fresh tables, seated by the first run's guests, play"
    assert second["site"]["earlier_playing"] == 0, "the first run's tables were paused after it"
    site, echo = first["site"], first["echo"]
    assert site["applied"] > 0 and echo["applied"] > 0
    assert site["applied_share"] > 0.5, "moves read from the fragments are legal and applied"
    # Counted over all the servers' work, the clock's looks too (which a two-table smoke makes
    # weigh much more per move than the full benchmark): this says the hook works, the bound per
    # move itself is tests/platform/test_renderer.py's.
    assert 0 < site["queries"] <= 40 and site["renders"] > 0, "the counting hook saw the site's work"
    assert site["bytes"] > echo["bytes"] > 0
    assert len(site["busy"]) == len(echo["busy"]) == 1, "configuration (a): one server process"
    # The echo's smoke costs two or three ticks of /proc's clock, and may read none on a fast machine.
    assert 0 < site["busy"][0] < 1.5 and 0 <= echo["busy"][0] < 1.5, "a share of a core, from /proc"
    # /proc floors user and system times to whole ticks: the thread may read three above its process.
    slack = 3 * site["tick_share"]
    assert 0 < site["loop_busy"][0] <= site["busy"][0] + slack, "the event loop's thread is one of the process's"
    assert site["clock_moves"] > 0, "the night turns' timeouts, applied by the clock, are counted"
    assert 0 <= site["clock_late_mean_ms"] <= site["clock_late_max_ms"]

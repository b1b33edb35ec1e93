"""A tiny run of `scripts/bench/render_path.py` (the database thread's part of a move, without
sockets), so the tool that says where a move's CPU goes keeps working: its figure a move, and with
``--templates`` which templates cost that move most."""

from __future__ import annotations

import re
import subprocess
import sys

from scripts.bench.run import ROOT


def test_render_path_times_moves_and_names_the_templates_they_render():
    # Its own process: it sets Django up on a scratch SQLite file of its own.
    run = subprocess.run(
        [sys.executable, "scripts/bench/render_path.py", "--tables", "2", "--moves", "40", "--warmup", "10"]
        + ["--templates"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    figure = re.search(r"(\d+) moves at 2 tables: ([\d.]+) ms CPU a move", run.stdout)
    assert figure and int(figure[1]) > 0 and float(figure[2]) > 0, run.stdout
    rows = re.findall(r"^\s+([\d.]+) ms\s+([\d.]+) renders a move\s+(\S+)$", run.stdout, re.MULTILINE)
    names = [name for _, _, name in rows]
    assert "templates/games/werewolf/_board.html" in names, run.stdout
    own = [float(ms) for ms, _, _ in rows]
    assert own == sorted(own, reverse=True), "the most costly first"
    total = float(re.search(r"templates: ([\d.]+) ms a move", run.stdout)[1])
    assert sum(own) <= total + 0.01 * len(own), "each template's own time is a part of the total"

"""The server's event loop (``shabneshin.serve``): daphne runs on uvloop, as `make run`, the
tests' servers and the bench start it, and on asyncio's own loop with ``SERVER_UVLOOP=0``. Each
case is a real daphne process that serves a page and its ``/healthz`` (the clock included)."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest

from tests.e2e.conftest import Daphne, migrate, server_env


def _loop_named_in(log: Path) -> str:
    """The loop daphne's reactor runs on, as shabneshin.serve reports it at start."""
    lines = [line for line in log.read_text().splitlines() if line.startswith("shabneshin.serve: event loop ")]
    assert len(lines) == 1, log.read_text()[-2000:]
    return lines[0].rsplit(" ", 1)[1]


@pytest.mark.parametrize(("setting", "on_uvloop"), [(None, True), ("0", False)])
def test_the_server_runs_on_uvloop_unless_told_not_to(tmp_path, setting, on_uvloop):
    env = server_env(SQLITE_PATH=str(tmp_path / "loop.sqlite3"))
    if setting is not None:
        env["SERVER_UVLOOP"] = setting
    migrate(env)
    server = Daphne(env, tmp_path / "daphne.log")
    try:
        with urllib.request.urlopen(server.url + "/healthz", timeout=30) as response:
            body = json.loads(response.read())
        assert response.status == 200 and body["checks"]["clock"]["state"] in ("ok", "not started"), body
        with urllib.request.urlopen(server.url + "/", timeout=30) as response:
            assert response.status == 200
        assert _loop_named_in(tmp_path / "daphne.log").startswith("uvloop.") is on_uvloop
    finally:
        server.stop()

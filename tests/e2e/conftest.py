"""A real daphne server (SQLite file, in-memory layer, its own moderator clock) and a real
headless Chromium driven by Playwright."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.components import CHROMIUM, CHROMIUM_ARGS, require

ROOT = Path(__file__).resolve().parent.parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    require("chromium", "playwright")
    db = tmp_path_factory.mktemp("e2e") / "e2e.sqlite3"
    port = _free_port()
    env = {
        **os.environ,
        "SQLITE_PATH": str(db),
        "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
        "DJANGO_SETTINGS_MODULE": "shabneshin.settings",
        "BOT_DELAY_S": "0.05",
        "CLOCK_TICK_S": "0.05",
        "TIMER_SCALE": os.environ.get("E2E_TIMER_SCALE", "0.15"),
        "DATABASE_URL": "",
        "REDIS_URL": "",
    }
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    log = open(db.with_suffix(".log"), "w")  # noqa: SIM115 - closed at teardown
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "shabneshin.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            time.sleep(0.2)
    else:
        proc.kill()
        raise RuntimeError(f"daphne did not start: {db.with_suffix('.log').read_text()}")
    yield base
    proc.terminate()
    proc.wait(timeout=10)
    log.close()


@pytest.fixture(scope="session")
def browser(server):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser):
    contexts = []

    def make(language: str = "en"):
        context = browser.new_context(locale=language, extra_http_headers={"Accept-Language": language})
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()

"""A real daphne server (SQLite file, in-memory layer, its own moderator clock) and a real
headless Chromium driven by Playwright."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.components import CHROMIUM, CHROMIUM_ARGS, require
from tests.servers import ROOT, Daphne


def server_env(**extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
        "DJANGO_SETTINGS_MODULE": "shabneshin.settings",
        "BOT_DELAY_S": "0.05",
        "CLOCK_TICK_S": "0.05",
        "TIMER_SCALE": os.environ.get("E2E_TIMER_SCALE", "0.15"),
        "DATABASE_URL": "",
        "REDIS_URL": "",
        # Browser tests create many guests and tables from one address: no rate limit in the way.
        **{
            f"RATE_{name}": "100000"
            for name in ("CHAT_PER_MINUTE", "TABLES_PER_HOUR", "SIGNUPS_PER_HOUR", "GUESTS_PER_HOUR")
        },
        **extra,
    }


def migrate(env: dict[str, str]) -> None:
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)


@pytest.fixture(scope="session")
def server_settings(tmp_path_factory) -> dict[str, str]:
    """The environment the ``server`` runs with (its SQLite file migrated): a test that must set
    up what no page can (a werewolf deal) runs the site's code with it (``flows.run_in_site``)."""
    require("chromium", "playwright")
    db = tmp_path_factory.mktemp("e2e") / "e2e.sqlite3"
    env = server_env(SQLITE_PATH=str(db))
    migrate(env)
    return env


@pytest.fixture(scope="session")
def server(server_settings):
    """The embedded default: SQLite file, in-memory channel layer, one process."""
    daphne = Daphne(server_settings, Path(server_settings["SQLITE_PATH"]).with_suffix(".log"))
    yield daphne.url
    daphne.stop()


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

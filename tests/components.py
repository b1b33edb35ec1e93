"""Which real components this machine has (PostgreSQL, Redis, Chromium), and what to do when one
is missing: say exactly what and how to get it; under ``CI=true`` fail instead of skipping."""

from __future__ import annotations

import os
import shutil
import socket
from urllib.parse import urlparse

import pytest

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

HOW_TO = {
    "postgresql": "PostgreSQL on 127.0.0.1:5432 (apt-get install postgresql; .ci/run starts it)",
    "redis": "Redis on 127.0.0.1:6379 (apt-get install redis-server; .ci/run starts it)",
    "chromium": f"Chromium at {CHROMIUM} (apt-get install chromium)",
    "playwright": "the playwright Python package (pip install -e '.[test]')",
    "msgfmt": "GNU gettext's msgfmt (apt-get install gettext)",
}


def _reachable(url: str, default_port: int) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or default_port), timeout=2):
            return True
    except OSError:
        return False


def missing(database_url: str = "", redis_url: str = "") -> list[str]:
    database_url = database_url or os.environ.get("SERVICES_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
    redis_url = redis_url or os.environ.get("SERVICES_REDIS_URL", "redis://127.0.0.1:6379/0")
    gone = []
    if not _reachable(database_url, 5432):
        gone.append("postgresql")
    if not _reachable(redis_url, 6379):
        gone.append("redis")
    if not (os.path.exists(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        gone.append("chromium")
    try:
        import playwright  # noqa: F401
    except ImportError:
        gone.append("playwright")
    if shutil.which("msgfmt") is None:
        gone.append("msgfmt")
    return gone


def require(*names: str) -> None:
    """Skip (loudly) or, under CI, fail when one of ``names`` is missing."""
    absent = [n for n in names if n in missing()]
    if not absent:
        return
    text = "missing: " + "; ".join(HOW_TO[n] for n in absent)
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(text + " — CI needs every component", pytrace=False)
    pytest.skip(text)

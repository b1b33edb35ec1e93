"""Personas and helpers for the platform tests.

alice hosts, bob sits at her table, charlie has the link but no seat (a spectator), and dave is
an outsider who should have no access to alice's private table.
"""

from __future__ import annotations

import os
from uuid import uuid4

import pytest
from django.conf import settings

from tests.components import require

EXPECT_SERVICES = os.environ.get("SHABNESHIN_EXPECT_SERVICES") == "1"


def pytest_sessionstart(session: pytest.Session) -> None:
    _own_channel_layer_prefix()
    if EXPECT_SERVICES:
        from tests.components import HOW_TO, missing

        absent = [n for n in ("postgresql", "redis") if n in missing()]
        if absent:
            text = "missing: " + "; ".join(HOW_TO[n] for n in absent)
            if os.environ.get("CI", "").lower() == "true":
                pytest.exit(text + " — CI needs every component", returncode=1)
            pytest.exit(text + " — the PostgreSQL/Redis run was skipped", returncode=0)


def _own_channel_layer_prefix() -> None:
    """Each test process its own keys on the shared Redis: two xdist workers each have a night
    (or a table) with the same id in their own database, and its group ("night.1") would
    otherwise be one group for both, so one worker's message reached the other's test (seen: a
    "nothing moved: nothing sent" check that heard the other worker's night). Set before any
    layer is made (the layers read their settings once)."""
    from django.conf import settings

    layer = settings.CHANNEL_LAYERS["default"]
    if layer["BACKEND"] == "shabneshin.layers.RedisChannelLayer":
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        layer.setdefault("CONFIG", {})["prefix"] = f"asgi-{worker}-{uuid4().hex[:8]}"


@pytest.fixture(scope="session", autouse=True)
def _no_database_session_outlives_the_tests(django_db_setup, django_db_blocker):
    """PostgreSQL refuses to drop a test database while a session is open on it, and a thread of
    the site (the database thread a socket test used, the clock's, the mail thread) can keep one
    past its test: the database was then left behind on the server, with a warning. Before the
    test databases are dropped, every other session on this worker's is ended."""
    yield
    from django.db import connection

    with django_db_blocker.unblock():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
        connection.close()


@pytest.fixture(autouse=True)
def _platform_settings(settings):
    settings.BOT_DELAY_S = 0
    settings.CLOCK_ENABLED = False
    settings.CLOCK_CHORES_EVERY_S = 0  # every look runs the chores; tests/platform/test_clock.py tests the spacing
    settings.MAIL_PAUSE_AFTER_FAILURE_S = 0  # each test's first tries inline; test_outbox.py tests the pause
    settings.MAIL_RETRY_EVERY_S = 0  # no mail thread behind a test's back: tests/platform/clubs/test_outbox.py runs it
    # A cache of its own per test: rate-limit counters never leak between tests or workers.
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": uuid4().hex}}
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _own_frame_tally(monkeypatch):
    """A frame tally of its own per test: the process's tally remembers counts for a window, which
    would otherwise carry one test's frames into the next."""
    from shabneshin import ratelimit

    monkeypatch.setattr(ratelimit, "frame_tally", ratelimit.FrameTally())


@pytest.fixture
def one_rate_window(monkeypatch):
    """The rate limits' fixed windows stay where they are for the test: a test that counts to a
    limit and crosses a window's end (every 10 s for frames) would start again from zero."""
    import time
    from types import SimpleNamespace

    from shabneshin import ratelimit

    now = time.time()
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(time=lambda: now, monotonic=time.monotonic))


@pytest.fixture
def services_in_use():
    """Asserts that this run really talks to PostgreSQL and Redis when it was asked to."""
    if EXPECT_SERVICES:
        require("postgresql", "redis")
        assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
        assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "shabneshin.layers.RedisChannelLayer"


def _user(username: str, display: str):
    from accounts.models import User

    return User.objects.create_user(username=username, password="a-long-password-1", display_name=display)


@pytest.fixture
def alice(db):
    return _user("alice", "Alice")


@pytest.fixture
def bob(db):
    return _user("bob", "Bob")


@pytest.fixture
def charlie(db):
    return _user("charlie", "Charlie")


@pytest.fixture
def dave(db):
    return _user("dave", "Dave")


@pytest.fixture
def werewolf_table(alice):
    from tables import seating

    return seating.create_table(alice, "werewolf", 5, "private")


@pytest.fixture
def client():
    """A browser that asks for English unless a test says otherwise (the site falls back to Persian)."""
    from django.test import Client

    return Client(HTTP_ACCEPT_LANGUAGE="en")


@pytest.fixture
def fresh_renderer_caches():
    """The renderer's per-process caches, empty before and after the test."""
    from tables import renderer

    renderer.clear_caches()
    yield
    renderer.clear_caches()

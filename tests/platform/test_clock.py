"""The moderator's clock: started with the server process (or at the latest by its first request),
applying what is due."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import HttpCommunicator

from shabneshin.asgi import application
from tables import clock
from tables.models import Match
from tests.platform.helpers import fresh, started_werewolf
from tests.platform.sockets import close_thread_connections

pytestmark = pytest.mark.django_db(transaction=True)


async def test_the_clock_starts_with_the_first_request_of_a_process(settings, db):
    settings.CLOCK_ENABLED = True
    assert asyncio.get_running_loop() not in clock._tasks
    headers = [(b"host", b"testserver")]
    response = await HttpCommunicator(application, "GET", "/", headers=headers).get_response()
    assert response["status"] == 200
    task = clock._tasks[asyncio.get_running_loop()]
    assert not task.done()
    await HttpCommunicator(application, "GET", "/", headers=headers).get_response()
    assert clock._tasks[asyncio.get_running_loop()] is task, "one clock per process"
    await clock.stop()
    await close_thread_connections()


@database_sync_to_async
def _overdue_match(host) -> Match:
    match = started_werewolf(host)
    Match.objects.filter(pk=match.pk).update(
        window_started_at=match.window_started_at - timedelta(minutes=5),
        next_deadline=match.next_deadline - timedelta(minutes=5),
    )
    return match


async def test_a_tick_applies_what_is_due_and_sleeps_at_most_a_tick(settings, alice):
    match = await _overdue_match(alice)
    pause = await clock.tick()
    assert 0 < pause <= settings.CLOCK_TICK_S
    after = await database_sync_to_async(fresh)(match)
    assert after.version >= 1, "the overdue night turn was timed out by the clock"
    await close_thread_connections()


_ALL_BOT_TABLE = """
from accounts.models import User
from tables import seating
host = User.create_guest("Host")
table = seating.create_table(host, "werewolf", 5, "private")
seating.fill_with_bots(table, host)
seating.start(table, host, seed=3)
table.seats.filter(number=0).update(autopilot=True)
"""


def test_a_daphne_process_starts_its_clock_without_any_request(tmp_path):
    """After a restart, an all-bot table moves on with nobody visiting (the clock starts with
    the process, scheduled on daphne's reactor; daphne has no lifespan)."""
    import sqlite3
    import subprocess
    import sys
    import time

    from tests.e2e.conftest import ROOT, Daphne, migrate, server_env

    db = tmp_path / "clock.sqlite3"
    env = server_env(SQLITE_PATH=str(db), BOT_DELAY_S="0.02", CLOCK_TICK_S="0.05")
    migrate(env)
    subprocess.run([sys.executable, "manage.py", "shell", "-c", _ALL_BOT_TABLE], cwd=ROOT, env=env, check=True)
    daphne = Daphne(env, tmp_path / "daphne.log")  # waits for the port only: no HTTP request is made
    try:
        deadline = time.monotonic() + 20
        version = 0
        while time.monotonic() < deadline and version < 3:
            time.sleep(0.2)
            with sqlite3.connect(db) as conn:
                version = conn.execute("select version from tables_match").fetchone()[0]
        assert version >= 3, (tmp_path / "daphne.log").read_text()
    finally:
        daphne.stop()

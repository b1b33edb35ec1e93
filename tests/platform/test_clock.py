"""The moderator's clock: started with the server process (or at the latest by its first request),
applying what is due."""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import HttpCommunicator
from django.utils import timezone

from shabneshin.asgi import application
from shabneshin.loop_db import clock_work
from tables import clock, moderator
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


def _make_overdue(host) -> Match:
    match = started_werewolf(host)
    Match.objects.filter(pk=match.pk).update(
        window_started_at=match.window_started_at - timedelta(minutes=5),
        next_deadline=match.next_deadline - timedelta(minutes=5),
    )
    return match


_overdue_match = database_sync_to_async(_make_overdue)


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


async def test_a_look_does_not_wait_behind_the_sockets_database_work(settings, alice):
    """With the consumers' work on Channels' worker thread (PostgreSQL), the clock looks on a
    thread of its own: a worker busy with a slow call does not hold back the night's timeout."""
    settings.DATABASE_WORK_ON_LOOP = False
    match = await _overdue_match(alice)
    release = threading.Event()
    busy = asyncio.ensure_future(database_sync_to_async(release.wait)(10))
    try:
        await asyncio.sleep(0.05)  # the worker thread is taken
        await asyncio.wait_for(clock.tick(), 5)
        after = await asyncio.wait_for(clock_work(fresh)(match), 5)
        assert after.version >= 1, "the overdue turn was timed out while the worker was busy"
        assert not busy.done(), "the worker was still busy all along"
    finally:
        release.set()
        await busy
        await close_thread_connections()


@database_sync_to_async
def _overdue_matches(host, n: int) -> list[Match]:
    return [_make_overdue(host) for _ in range(n)]


async def test_a_full_slice_of_due_matches_makes_the_clock_look_again_at_once(alice):
    await _overdue_matches(alice, 3)
    now = timezone.now()
    applied, next_look = await database_sync_to_async(moderator.tick)(now, limit=2)
    assert applied >= 2 and next_look == now, "two of three due matches done: the third is looked at now"
    applied, next_look = await database_sync_to_async(moderator.tick)(now, limit=2)
    assert applied >= 1 and next_look is not None and next_look > now, "the slice was not all due"
    await close_thread_connections()


async def test_one_failing_part_of_a_look_does_not_stop_the_others(alice, monkeypatch, caplog):
    match = await _overdue_match(alice)
    looked = []

    def broken() -> int:
        raise RuntimeError("clubs are down")

    monkeypatch.setattr(clock.clubs_due, "run_due", broken)
    monkeypatch.setattr(clock.bot_chat, "run_due", lambda: looked.append("bots") or 0)
    await clock.tick()
    assert looked == ["bots"], "the parts after the failing one ran"
    assert "clubs are down" in caplog.text
    assert (await database_sync_to_async(fresh)(match)).version >= 1
    await close_thread_connections()


def test_a_turn_the_clock_opens_starts_when_its_move_is_applied_not_when_the_look_began(alice, monkeypatch):
    """A look of many due matches takes a while under load: the turn each of its moves opens must
    get its whole length from that moment (here the time moves on 3 s at every reading)."""
    first, second = _make_overdue(alice), _make_overdue(alice)
    start = timezone.now()
    readings = iter(range(1, 1000))
    monkeypatch.setattr(moderator.timezone, "now", lambda: start + timedelta(seconds=3 * next(readings)))
    applied, _ = moderator.tick()
    assert applied >= 2
    monkeypatch.undo()
    opened = sorted([fresh(first).window_started_at, fresh(second).window_started_at])
    assert opened[1] - opened[0] >= timedelta(seconds=3), "the later match's turn opened when it was applied"


def test_the_chores_run_at_most_every_clock_chores_every_s_while_the_moderator_looks_every_time(
    settings, monkeypatch, db
):
    """Under load the clock looks dozens of times a second for the games' deadlines; the club
    reminders, lobby clean-up, away hosts and talking bots are looked at no more often than
    ``CLOCK_CHORES_EVERY_S``."""
    settings.CLOCK_CHORES_EVERY_S = 0.5
    now = [1000.0]
    monkeypatch.setattr(clock.time, "monotonic", lambda: now[0])
    monkeypatch.setattr(clock, "_last_chores", [float("-inf")])
    looks, chores = [], []
    monkeypatch.setattr(clock.moderator, "tick", lambda: looks.append(now[0]) or (0, None))
    for part in ("clubs_due", "janitor", "host", "bot_chat"):
        monkeypatch.setattr(getattr(clock, part), "run_due", lambda part=part: chores.append((part, now[0])) or 0)
    for t in (1000.0, 1000.1, 1000.4, 1000.5, 1000.7, 1001.2):
        now[0] = t
        clock.look()
    assert looks == [1000.0, 1000.1, 1000.4, 1000.5, 1000.7, 1001.2], "the moderator looks every time"
    assert sorted({t for _, t in chores}) == [1000.0, 1000.5, 1001.2]
    assert len(chores) == 12, "each chore once a run"

"""The moderator's clock: started by the first request a process serves, applying what is due."""

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

"""The consumers' database work on the event loop's own thread (shabneshin.loop_db): the ORM works
there, every call shares the thread's one connection, the loop is running again after every call
(one that raises included), and a group message sent by a call goes out once the call is over."""

from __future__ import annotations

import asyncio
import gc
import threading
import weakref

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections

from shabneshin import loop_db
from shabneshin.loop_db import database_work
from tables import broadcast

pytestmark = pytest.mark.django_db(transaction=True)


@database_work
def _where_and_which_connection() -> tuple[int, int]:
    connection.ensure_connection()  # Django's one wrapper (with PostgreSQL, over the pool's connections)
    return threading.get_ident(), id(connections["default"])


@database_work
def _count_users() -> int:
    return get_user_model().objects.count()


@database_work
def _fails() -> None:
    raise ValueError("the work failed")


async def test_the_orm_works_on_the_loop_and_every_socket_shares_one_connection(settings):
    settings.DATABASE_WORK_ON_LOOP = True
    await database_work(get_user_model().objects.create_user)("amir", password="x-long-password")
    # two sockets are two tasks: each with its own context, as Channels runs consumers
    first, second = await asyncio.gather(
        asyncio.create_task(_where_and_which_connection()), asyncio.create_task(_where_and_which_connection())
    )
    assert first == second
    assert first[0] == threading.get_ident(), "the work ran on the loop's own thread"
    assert await _count_users() == 1


async def test_the_loop_is_running_again_after_work_that_raises(settings):
    settings.DATABASE_WORK_ON_LOOP = True
    loop = asyncio.get_running_loop()
    with pytest.raises(ValueError, match="the work failed"):
        await _fails()
    assert asyncio.get_running_loop() is loop
    assert loop_db.loop_at_work() is None
    await asyncio.sleep(0)  # the loop still schedules


async def test_a_group_message_sent_by_the_work_goes_out_after_it(settings, monkeypatch):
    settings.DATABASE_WORK_ON_LOOP = True
    sent: list[tuple[str, bool]] = []

    class Layer:
        async def group_send(self, group: str, message: dict) -> None:
            sent.append((group, loop_db.loop_at_work() is None))

    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: Layer())

    @database_work
    def move() -> list[tuple[str, bool]]:
        broadcast.send("table.t", {"type": "table.changed"})
        return list(sent)

    assert await move() == [], "nothing is sent while the work still holds the loop"
    for _ in range(50):
        if sent:
            break
        await asyncio.sleep(0.01)
    assert sent == [("table.t", True)]


async def test_with_the_setting_off_the_work_runs_on_channels_worker_thread(settings):
    settings.DATABASE_WORK_ON_LOOP = False

    @database_work
    def where() -> int:  # opens no connection on the worker thread, which outlives the test
        return threading.get_ident()

    assert await where() != threading.get_ident()


async def _wait_on_a_future_nobody_holds(done: list[bool]) -> None:
    loop = asyncio.get_running_loop()
    future = loop.create_future()
    only_weakly = weakref.ref(future)
    loop.call_later(0.05, lambda: (f := only_weakly()) is not None and f.set_result(None))
    await future
    done.append(True)


async def test_a_send_handed_to_the_loop_is_kept_until_it_is_done():
    """The loop holds its tasks only weakly: a send waiting on something nobody else holds (a
    socket's reply, say) would be collected mid-way unless ``soon`` keeps it (with a bare
    ``create_task`` instead, this test fails: checked when it was written)."""
    loop = asyncio.get_running_loop()
    done: list[bool] = []
    loop_db.soon(loop, _wait_on_a_future_nobody_holds(done))
    await asyncio.sleep(0.01)
    gc.collect()
    await asyncio.sleep(0.1)
    assert done == [True]

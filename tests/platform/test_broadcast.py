"""A group send from the database thread is handed to the event loop and not waited for
(tables.broadcast): the one database thread never waits for the loop or the channel layer."""

from __future__ import annotations

import asyncio
import logging

import pytest
from channels.db import database_sync_to_async

from tables import broadcast


class SlowLayer:
    """A channel layer whose group send waits until the test lets it through."""

    def __init__(self, fail: bool = False) -> None:
        self.release = asyncio.Event()
        self.sent: list[tuple[str, dict]] = []
        self.fail = fail

    async def group_send(self, group: str, message: dict) -> None:
        await self.release.wait()
        if self.fail:
            raise ConnectionError("the layer is down")
        self.sent.append((group, message))


async def test_the_database_thread_does_not_wait_for_the_send(monkeypatch):
    layer = SlowLayer()
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    await asyncio.wait_for(
        database_sync_to_async(broadcast.send)("table.x", {"type": "table.changed", "version": 3}), timeout=2
    )
    assert layer.sent == [], "the send is still waiting on the loop, and the thread went on"
    layer.release.set()
    for _ in range(50):
        await asyncio.sleep(0.01)
        if layer.sent:
            break
    assert layer.sent == [("table.x", {"type": "table.changed", "version": 3})]


async def test_a_send_that_fails_on_the_loop_is_logged(monkeypatch, caplog):
    layer = SlowLayer(fail=True)
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    await database_sync_to_async(broadcast.send)("table.y", {"type": "table.changed"})
    with caplog.at_level(logging.WARNING, logger="tables.broadcast"):
        layer.release.set()
        for _ in range(50):
            await asyncio.sleep(0.01)
            if "group send to table.y failed" in caplog.text:
                break
    assert "group send to table.y failed" in caplog.text


@pytest.mark.parametrize("version", [1, 2])
def test_outside_the_server_the_send_is_waited_for(monkeypatch, version):
    sent = []

    class Layer:
        async def group_send(self, group, message):
            sent.append((group, message["version"]))

    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: Layer())
    broadcast.send("table.z", {"type": "table.changed", "version": version})
    assert sent == [("table.z", version)]

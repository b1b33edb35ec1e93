"""A consumer outlives a channel-layer outage by itself (shabneshin.rejoin): its receive waits
and tries again, joins every group it is in anew once the layer answers, and then sends its view
afresh. Here with a layer that fails on cue; tests/faults restarts a real Redis under daphne."""

from __future__ import annotations

import asyncio

from shabneshin import rejoin
from shabneshin.rejoin import RejoinsItsGroups


class FlakyLayer:
    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.joined: list[tuple[str, str]] = []

    async def receive(self) -> dict:
        if self.failures:
            self.failures -= 1
            raise ConnectionError("Connection closed by server.")
        return {"type": "table.changed"}

    async def group_add(self, group: str, channel: str) -> None:
        if self.failures:  # still down: joining fails too, and is tried again
            self.failures -= 1
            raise ConnectionError("down")
        self.joined.append((group, channel))


class Consumer(RejoinsItsGroups):
    channel_name = "specific.abc"

    def __init__(self, layer: FlakyLayer) -> None:
        self.channel_layer = layer
        self.channel_receive = layer.receive  # what channels' consumer does in __call__
        self.views_sent = 0

    def groups_to_rejoin(self) -> list[str]:
        return ["table.tok", "lobby"]

    async def rejoined(self) -> None:
        self.views_sent += 1


def test_a_lost_layer_is_waited_out_then_every_group_is_joined_again_and_the_view_resent(monkeypatch):
    monkeypatch.setattr(rejoin, "FIRST_RETRY_S", 0.001)
    layer = FlakyLayer(failures=3)
    consumer = Consumer(layer)
    message = asyncio.run(asyncio.wait_for(consumer.channel_receive(), 5))
    assert message == {"type": "table.changed"}
    assert layer.joined == [("table.tok", "specific.abc"), ("lobby", "specific.abc")]
    assert consumer.views_sent == 1


def test_a_healthy_layer_is_received_from_without_rejoining():
    layer = FlakyLayer(failures=0)
    consumer = Consumer(layer)
    assert asyncio.run(consumer.channel_receive()) == {"type": "table.changed"}
    assert layer.joined == [] and consumer.views_sent == 0


def test_every_consumer_of_the_site_rejoins_its_groups():
    from clubs.consumers import NightConsumer
    from tables.consumers import LobbyConsumer, TableConsumer

    for consumer in (TableConsumer, LobbyConsumer, NightConsumer):
        assert issubclass(consumer, RejoinsItsGroups)
        assert consumer.groups_to_rejoin is not RejoinsItsGroups.groups_to_rejoin, consumer

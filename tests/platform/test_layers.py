"""The embedded default's channel layer (shabneshin.layers) cleans expired messages at most once a
period, and still cleans them."""

from __future__ import annotations

import asyncio

from shabneshin.layers import InMemoryChannelLayer


def test_an_expired_message_is_still_dropped_once_the_period_has_passed(monkeypatch):
    layer = InMemoryChannelLayer(expiry=0.05)
    walks = []
    monkeypatch.setattr(layer, "_remove_from_groups", lambda channel: walks.append(channel))

    async def scenario():
        layer._clean_expired()  # a walk: the period starts
        await layer.send("a-channel", {"type": "hello"})
        await asyncio.sleep(0.1)  # expired now
        layer._clean_expired()
        assert "a-channel" in layer.channels, "cleaned within the period: kept a moment longer"
        layer._cleaned_at -= InMemoryChannelLayer.CLEAN_EVERY_S
        layer._clean_expired()
        assert "a-channel" not in layer.channels and walks == ["a-channel"]

    asyncio.run(scenario())


def test_sends_and_receives_within_the_period_walk_the_channels_once(monkeypatch):
    layer = InMemoryChannelLayer()
    walked = []
    real = type(layer).__mro__[1]._clean_expired
    monkeypatch.setattr(type(layer).__mro__[1], "_clean_expired", lambda self: walked.append(1) or real(self))

    async def scenario():
        await layer.group_add("table", "one")
        await layer.group_add("table", "two")
        for _ in range(20):
            await layer.group_send("table", {"type": "table.changed"})
            await layer.receive("one")
            await layer.receive("two")

    asyncio.run(scenario())
    assert len(walked) == 1


def test_a_group_send_reaches_every_member_once_and_skips_a_full_channel():
    layer = InMemoryChannelLayer(capacity=1)

    async def scenario():
        for channel in ("one", "two", "three"):
            await layer.group_add("table", channel)
        await layer.send("two", {"type": "earlier"})  # "two" is full now
        await layer.group_send("table", {"type": "table.changed", "event": "e1"})
        assert await layer.receive("one") == {"type": "table.changed", "event": "e1"}
        assert await layer.receive("two") == {"type": "earlier"}
        assert await layer.receive("three") == {"type": "table.changed", "event": "e1"}
        assert layer.channels == {}, "every message was received once"
        await layer.group_send("nobody-here", {"type": "table.changed"})

    asyncio.run(scenario())


def test_a_member_receives_its_own_copy_of_a_group_message():
    layer = InMemoryChannelLayer()

    async def scenario():
        await layer.group_add("table", "one")
        await layer.group_add("table", "two")
        message = {"type": "table.changed", "seen": []}
        await layer.group_send("table", message)
        first = await layer.receive("one")
        first["seen"].append("one")
        assert await layer.receive("two") == {"type": "table.changed", "seen": []}
        assert message == {"type": "table.changed", "seen": []}

    asyncio.run(scenario())


def test_each_receiver_gets_its_own_copy_of_a_message():
    layer = InMemoryChannelLayer()

    async def scenario():
        await layer.group_add("table", "one")
        await layer.group_add("table", "two")
        message = {"type": "table.changed", "event": "e1", "version": 3, "nested": {"seats": [1, 2]}}
        await layer.group_send("table", message)
        one, two = await layer.receive("one"), await layer.receive("two")
        one["event"] = "changed by one"
        one["nested"]["seats"].append(99)
        assert two == {"type": "table.changed", "event": "e1", "version": 3, "nested": {"seats": [1, 2]}}
        assert message["nested"]["seats"] == [1, 2], "the sender's message is its own"
        flat = {"type": "table.changed", "event": "e2"}
        await layer.send("one", flat)
        received = await layer.receive("one")
        assert received == flat and received is not flat

    asyncio.run(scenario())

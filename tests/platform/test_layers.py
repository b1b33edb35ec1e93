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

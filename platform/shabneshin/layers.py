"""The embedded default's channel layer: Channels' in-memory layer, cleaning less often and
sending to a group without a task a member.

``channels.layers.InMemoryChannelLayer`` walks every channel's queue and every group's members to
drop expired messages on **every** send and receive, and a group send makes one send a member. At a
club night's 600 sockets that walk is most of what the event loop does (6% of the server's CPU in
the bench, issue 9). Here it runs at most every ``CLEAN_EVERY_S``: a message then lives at most that
much past its expiry (60 s by default) before it is dropped.

Its group send also wraps each member's send in a task and waits for them with
``asyncio.as_completed`` (another queue and task each), and every send builds a new
``asyncio.Queue`` that it throws away when the channel has one (``setdefault``'s default is built
first). A send here never waits (``put_nowait``), so the group send makes the sends one after the
other, in the same order, with the same messages; a full channel is still skipped. That was about
6% of the server's CPU a move in the bench.
"""

from __future__ import annotations

import asyncio
import time
from copy import deepcopy
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer as ChannelsInMemoryChannelLayer


def copied_message(message: dict[str, Any]) -> dict[str, Any]:
    """Each receiver's own copy of ``message``, as a layer that serialises gives it: a flat dict
    of strings, numbers and ``None`` (every message of ours) is copied shallowly, anything else
    deeply. ``copy.deepcopy`` of the table's two-key message was 5% of a move's CPU in the bench."""
    if all(value is None or type(value) in _IMMUTABLE for value in message.values()):
        return dict(message)
    return deepcopy(message)


_IMMUTABLE = frozenset({str, int, float, bool, bytes})


class InMemoryChannelLayer(ChannelsInMemoryChannelLayer):
    CLEAN_EVERY_S = 1.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._cleaned_at = float("-inf")

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._cleaned_at < self.CLEAN_EVERY_S:
            return
        self._cleaned_at = now
        super()._clean_expired()

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        queue = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = asyncio.Queue(maxsize=self.get_capacity(channel))
        try:
            queue.put_nowait((time.time() + self.expiry, copied_message(message)))
        except asyncio.QueueFull:
            raise ChannelFull(channel) from None

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, ())):
            try:
                await self.send(channel, message)
            except ChannelFull:
                pass

"""The embedded default's channel layer: Channels' in-memory layer, cleaning less often.

``channels.layers.InMemoryChannelLayer`` walks every channel's queue and every group's members to
drop expired messages on **every** send and receive, and a group send makes one send a member. At a
club night's 600 sockets that walk is most of what the event loop does (6% of the server's CPU in
the bench, issue 9). Here it runs at most every ``CLEAN_EVERY_S``: a message then lives at most that
much past its expiry (60 s by default) before it is dropped. Nothing else changes.
"""

from __future__ import annotations

import time
from typing import Any

from channels.layers import InMemoryChannelLayer as ChannelsInMemoryChannelLayer


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

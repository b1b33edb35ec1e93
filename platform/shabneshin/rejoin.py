"""Consumers that outlive a channel-layer outage (a Redis restart): instead of failing with the
connection (daphne then closes the socket with 1011 and the tab has to reconnect), a consumer's
receive from the layer waits and tries again, joins its groups anew once the layer answers (a
restarted Redis has forgotten every membership) and then sends its view afresh, since what was
broadcast meanwhile never reached it. The socket to the browser stays open throughout.

Channels' consumer assigns ``self.channel_receive`` once and hands it to its dispatch loop;
:class:`RejoinsItsGroups` makes that attribute a property whose setter keeps the layer's receive
and whose getter hands out the resilient one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger(__name__)
FIRST_RETRY_S = 0.2
MAX_RETRY_S = 2.0


class RejoinsItsGroups:
    """Mixin for a channels consumer (put it first among the bases)."""

    _layer_receive: Callable[[], Awaitable[dict[str, Any]]] | None = None

    def groups_to_rejoin(self) -> list[str]:
        """The groups this consumer is in now (overridden by each consumer)."""
        return []

    async def rejoined(self) -> None:
        """Called once the consumer is back in its groups: send the current view."""

    @property
    def channel_receive(self) -> Callable[[], Awaitable[dict[str, Any]]]:
        return self._receive_through_outages

    @channel_receive.setter
    def channel_receive(self, receive: Callable[[], Awaitable[dict[str, Any]]]) -> None:
        self._layer_receive = receive

    async def _receive_through_outages(self) -> dict[str, Any]:
        assert self._layer_receive is not None
        wait = FIRST_RETRY_S
        lost = False
        while True:
            try:
                if lost:
                    await self._rejoin()
                    lost = False
                    await self.rejoined()
                    wait = FIRST_RETRY_S
                return await self._layer_receive()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the layer's connection is gone: wait, then join again
                if not lost:
                    log.warning("channel layer lost (%s); rejoining its groups when it is back", exc)
                lost = True
                await asyncio.sleep(wait)
                wait = min(MAX_RETRY_S, wait * 2)

    async def _rejoin(self) -> None:
        layer = getattr(self, "channel_layer", None)
        for group in self.groups_to_rejoin():
            await layer.group_add(group, self.channel_name)  # type: ignore[attr-defined, union-attr]

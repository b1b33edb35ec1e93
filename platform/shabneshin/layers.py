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
import collections
import logging
import time
from copy import deepcopy
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer as ChannelsInMemoryChannelLayer
from channels_redis import core

log = logging.getLogger(__name__)


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


class RedisChannelLayer(core.RedisChannelLayer):
    """channels-redis's layer, with one reader a process for the process's own channels.

    channels-redis stores a group message once for every process with a member in the group (the
    message names this process's members), and its ``receive`` hands it out: each waiting
    consumer makes two tasks (one for the process's receive lock, one for its own queue), waits
    for either, cancels the other, and drops its queue once empty, to make a new one at its next
    receive. At a club night's 600 sockets that was 10% of the server's CPU a move in the bench
    (issue 9, py-spy).

    Here a consumer's receive of a process-local channel (``specific.<process>!<id>``) is a
    future. One task of the process (the pump) reads the process's messages from Redis with the
    parent's own ``receive_single`` (its backup queue keeps a message through a cancellation)
    and resolves each named channel's oldest waiter, or holds the message until that channel's
    next receive (at most ``capacity`` a channel, the oldest dropped first, as the parent's
    buffer does). The pump reads while anyone waits: it stops once nobody does, and a receive
    starts it again. If Redis fails, every waiting receive raises its error, as the parent's
    lock holder would (shabneshin.rejoin then waits and joins its groups again). A held message
    whose channel nobody receives from is dropped once it is older than the layer's expiry.

    Channels that are not process-local (no ``!``) are received by the parent.

    A group send takes two round trips to Redis instead of the parent's four: the group's expired
    members are dropped and the rest read in one pipeline, and each shard's channels lose their
    expired messages in the same script that adds the new one (the parent sends those removals
    in a pipeline of their own first). The keys, scores, capacities and expiries are the parent's.

    A member of this process is handed the message here, as the pump would once Redis gave it
    back, when the send runs on the loop that receives (a server's sends all do: tables.broadcast
    runs them there): its copy is not written to Redis and read back. Each of those is four more
    commands (the script that adds it; the pump's clean-up script, its blocking pop and its backup
    write; then the backup's removal), which at one daphne was every receive of the bench (issue
    9). The members are still read from Redis, so those of other processes get it as before. A
    send from another loop (a management command, a thread's own loop) goes through Redis for
    everyone. Each channel keeps its messages in the order this process sent them; a message from
    another process may come before or after one sent here meanwhile, as between two processes
    already (every consumer of ours renders the state it reads, not the message).
    """

    SWEEP_EVERY_S = 1.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._waiters: dict[str, collections.deque[asyncio.Future[dict[str, Any]]]] = {}
        self._held: dict[str, collections.deque[tuple[float, dict[str, Any]]]] = {}
        self._pump: asyncio.Task[None] | None = None
        self._swept_at = time.monotonic()
        self._receiving_loop: asyncio.AbstractEventLoop | None = None  # where this process's channels wait

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert self.require_valid_group_name(group), "Group name not valid"
        key = self._group_key(group)
        pipe = self.connection(self.consistent_hash(group)).pipeline(transaction=False)
        pipe.zremrangebyscore(key, min=0, max=int(time.time()) - self.group_expiry)
        pipe.zrange(key, 0, -1)
        _, members = await pipe.execute()
        channel_names = self._handed_here([member.decode("utf8") for member in members], message)
        if not channel_names:
            return
        by_connection, key_message, key_capacity = self._map_channel_keys_to_connection(channel_names, message)
        for index, keys in by_connection.items():
            now = time.time()
            arguments = [key_message[k] for k in keys] + [key_capacity[k] for k in keys]
            arguments += [int(now) - int(self.expiry), now, self.expiry]
            over = await self.connection(index).eval(_GROUP_SEND, len(keys), *keys, *arguments)
            if over > 0:
                log.info("%s of %s channels over capacity in group %s", over, len(channel_names), group)

    def _handed_here(self, channel_names: list[str], message: dict[str, Any]) -> list[str]:
        """Hands ``message`` to this process's own members when the send runs on the loop they
        receive on (one copy for them all, as the pump shares one decoded message between the
        channels it names); the members left for Redis."""
        try:
            here = asyncio.get_running_loop() is self._receiving_loop
        except RuntimeError:
            here = False
        if not here:
            return channel_names
        ours = self.client_prefix + "!"
        mine = [name for name in channel_names if "!" in name and self.non_local_name(name).endswith(ours)]
        if not mine:
            return channel_names
        handed = copied_message(message)
        for channel in mine:
            self._deliver(channel, handed)
        self._sweep()
        handed_to = set(mine)
        return [name for name in channel_names if name not in handed_to]

    async def receive(self, channel: str) -> dict[str, Any]:
        if "!" not in channel:
            return await super().receive(channel)  # type: ignore[no-any-return]
        assert self.require_valid_channel_name(channel)
        held = self._held.get(channel)
        if held:
            _, message = held.popleft()
            if not held:
                del self._held[channel]
            return message
        loop = asyncio.get_running_loop()
        self._receiving_loop = loop
        future: asyncio.Future[dict[str, Any]] = loop.create_future()
        self._waiters.setdefault(channel, collections.deque()).append(future)
        self._start_pump(loop, self.non_local_name(channel))
        try:
            return await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled() and future.exception() is None:
                self._hold(channel, future.result(), first=True)  # delivered, then cancelled: kept
            raise
        finally:
            self._forget(channel, future)

    def _start_pump(self, loop: asyncio.AbstractEventLoop, real_channel: str) -> None:
        assert real_channel.endswith(self.client_prefix + "!"), "Wrong client prefix"
        if self._pump is not None and not self._pump.done():
            if self._pump.get_loop() is not loop:
                raise RuntimeError("Two event loops are trying to receive() on one channel layer at once!")
            return
        self._pump = loop.create_task(self._pump_messages(real_channel))

    def _forget(self, channel: str, future: asyncio.Future[dict[str, Any]]) -> None:
        waiters = self._waiters.get(channel)
        if waiters is not None and future in waiters:
            waiters.remove(future)
            if not waiters:
                del self._waiters[channel]
        if not self._waiters and self._pump is not None and not self._pump.done():
            self._pump.cancel()  # nobody left to read for (the parent cancels its reader likewise)

    async def _pump_messages(self, real_channel: str) -> None:
        while self._waiters:
            try:
                named, message = await self.receive_single(real_channel)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis is gone: every waiting receive hears it
                waiting = [future for waiters in self._waiters.values() for future in waiters]
                self._waiters.clear()
                for future in waiting:
                    if not future.done():
                        future.set_exception(error)
                return
            for channel in named if isinstance(named, list) else [named]:
                self._deliver(channel, message)
            self._sweep()

    def _deliver(self, channel: str, message: dict[str, Any]) -> None:
        waiters = self._waiters.get(channel)
        while waiters:
            future = waiters.popleft()
            if not waiters:
                del self._waiters[channel]
            if not future.done():
                future.set_result(message)
                return
        self._hold(channel, message)

    def _hold(self, channel: str, message: dict[str, Any], first: bool = False) -> None:
        held = self._held.setdefault(channel, collections.deque())
        if first:
            held.appendleft((time.monotonic(), message))
        else:
            held.append((time.monotonic(), message))
        while len(held) > self.get_capacity(channel):
            held.popleft()

    def _sweep(self) -> None:
        """Drops held messages older than the expiry, at most once a ``SWEEP_EVERY_S``."""
        now = time.monotonic()
        if now - self._swept_at < self.SWEEP_EVERY_S:
            return
        self._swept_at = now
        for channel in [channel for channel, held in self._held.items() if held[-1][0] < now - self.expiry]:
            del self._held[channel]


# channels-redis's group send script, with each channel's expired messages dropped first.
_GROUP_SEND = """
    local over_capacity = 0
    local expired_before = ARGV[#ARGV - 2]
    local current_time = ARGV[#ARGV - 1]
    local expiry = ARGV[#ARGV]
    for i=1,#KEYS do
        redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, expired_before)
        if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[i + #KEYS]) then
            redis.call('ZADD', KEYS[i], current_time, ARGV[i])
            redis.call('EXPIRE', KEYS[i], expiry)
        else
            over_capacity = over_capacity + 1
        end
    end
    return over_capacity
"""

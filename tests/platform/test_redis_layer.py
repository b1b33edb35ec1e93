"""The Redis channel layer's one reader a process (shabneshin.layers.RedisChannelLayer), on a
redis-server of the tests' own: every process-local channel gets each of its messages once and in
order, a message nobody waits for is kept for the channel's next receive, a receive cancelled
after its message came loses nothing, the reader stops when nobody waits, and a Redis that goes
away reaches every waiting receive as an error."""

from __future__ import annotations

import asyncio

import pytest

from shabneshin.env import redis_channel_layer
from shabneshin.layers import RedisChannelLayer
from tests.redis_server import OwnRedis

pytestmark = pytest.mark.timeout(60)


@pytest.fixture(scope="module")
def redis_url():
    server = OwnRedis()
    server.start()
    yield server.url
    server.stop()


def layer_at(url: str, **config) -> RedisChannelLayer:
    settings = redis_channel_layer(url, 10)
    assert settings["BACKEND"] == "shabneshin.layers.RedisChannelLayer"
    return RedisChannelLayer(**{**settings["CONFIG"], **config})


async def until(condition, within_s: float = 5.0) -> None:
    for _ in range(int(within_s / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("condition not reached")


def test_a_group_message_reaches_each_local_member_once_and_each_channel_in_order(redis_url):
    layer = layer_at(redis_url)

    async def scenario():
        seats = [await layer.new_channel() for _ in range(3)]
        for seat in seats:
            await layer.group_add("table-7", seat)
        waiting = [asyncio.ensure_future(layer.receive(seat)) for seat in seats]
        await layer.group_send("table-7", {"type": "table.changed", "event": "v1"})
        assert [await w for w in waiting] == [{"type": "table.changed", "event": "v1"}] * 3
        for n in range(5):
            await layer.send(seats[0], {"type": "n", "n": n})
        assert [(await layer.receive(seats[0]))["n"] for _ in range(5)] == list(range(5))
        await asyncio.sleep(0.05)
        assert layer._held == {} and layer._waiters == {}, "nothing left over"
        await layer.flush()

    asyncio.run(scenario())


def test_a_message_for_a_channel_nobody_waits_on_is_kept_for_its_next_receive(redis_url):
    layer = layer_at(redis_url)

    async def scenario():
        idle, busy = await layer.new_channel(), await layer.new_channel()
        busy_receive = asyncio.ensure_future(layer.receive(busy))
        await layer.send(idle, {"type": "for.idle"})
        await layer.send(busy, {"type": "for.busy"})
        assert await busy_receive == {"type": "for.busy"}
        await until(lambda: idle in layer._held)
        assert await layer.receive(idle) == {"type": "for.idle"}
        await layer.flush()

    asyncio.run(scenario())


def test_a_channel_keeps_at_most_its_capacity_of_unreceived_messages_dropping_the_oldest(redis_url):
    layer = layer_at(redis_url, capacity=2)

    async def scenario():
        idle, busy = await layer.new_channel(), await layer.new_channel()
        busy_receive = asyncio.ensure_future(layer.receive(busy))  # the reader reads for busy
        for n in range(4):  # Redis refuses a third unread message of the process: send as it reads
            await layer.send(idle, {"type": "n", "n": n})
            await until(lambda n=n: len(layer._held.get(idle, ())) == min(n + 1, 2))
        await until(lambda: [m["n"] for _, m in layer._held.get(idle, ())] == [2, 3])
        await layer.send(busy, {"type": "last"})
        assert await busy_receive == {"type": "last"}
        assert [(await layer.receive(idle))["n"] for _ in range(2)] == [2, 3]
        await layer.flush()

    asyncio.run(scenario())


def test_a_kept_message_older_than_the_expiry_is_dropped(redis_url):
    layer = layer_at(redis_url, expiry=1)
    layer.SWEEP_EVERY_S = 0.0

    async def scenario():
        idle, busy = await layer.new_channel(), await layer.new_channel()
        await layer.send(idle, {"type": "stale"})
        await layer.send(busy, {"type": "first"})
        assert await layer.receive(busy) == {"type": "first"}
        assert idle in layer._held
        await asyncio.sleep(1.1)
        await layer.send(busy, {"type": "second"})
        assert await layer.receive(busy) == {"type": "second"}
        assert idle not in layer._held
        await layer.flush()

    asyncio.run(scenario())


def test_a_receive_cancelled_after_its_message_came_leaves_it_for_the_next_receive(redis_url, monkeypatch):
    layer = layer_at(redis_url)
    deliver = RedisChannelLayer._deliver

    async def scenario():
        seat = await layer.new_channel()
        first = asyncio.ensure_future(layer.receive(seat))

        def deliver_then_cancel(self, channel, message):
            deliver(self, channel, message)
            first.cancel()  # the consumer went away before it took the message

        monkeypatch.setattr(RedisChannelLayer, "_deliver", deliver_then_cancel)
        await until(lambda: seat in layer._waiters)
        await layer.send(seat, {"type": "kept"})
        with pytest.raises(asyncio.CancelledError):
            await first
        monkeypatch.setattr(RedisChannelLayer, "_deliver", deliver)
        assert await layer.receive(seat) == {"type": "kept"}
        await layer.flush()

    asyncio.run(scenario())


def test_the_reader_stops_when_nobody_waits_and_starts_again_at_the_next_receive(redis_url):
    layer = layer_at(redis_url)

    async def scenario():
        seat = await layer.new_channel()
        waiting = asyncio.ensure_future(layer.receive(seat))
        await until(lambda: layer._pump is not None and not layer._pump.done())
        waiting.cancel()
        await until(lambda: layer._pump.done())
        assert layer._waiters == {}
        await layer.send(seat, {"type": "later"})
        assert await layer.receive(seat) == {"type": "later"}, "a cancelled read loses nothing"
        await layer.flush()

    asyncio.run(scenario())


def test_redis_going_away_reaches_every_waiting_receive_as_an_error():
    server = OwnRedis()
    server.start()
    layer = layer_at(server.url)

    async def scenario():
        seats = [await layer.new_channel() for _ in range(3)]
        waiting = [asyncio.ensure_future(layer.receive(seat)) for seat in seats]
        await until(lambda: len(layer._waiters) == 3)
        await asyncio.sleep(0.1)  # the reader is in its blocking read
        server.stop()
        results = await asyncio.wait_for(asyncio.gather(*waiting, return_exceptions=True), 15)
        assert all(isinstance(result, Exception) for result in results), results
        assert layer._waiters == {}

    try:
        asyncio.run(scenario())
    finally:
        server.stop()


def test_a_channel_of_no_process_is_received_by_channels_redis_itself(redis_url):
    layer = layer_at(redis_url)

    async def scenario():
        await layer.send("janitor", {"type": "sweep"})
        assert await layer.receive("janitor") == {"type": "sweep"}
        assert layer._pump is None
        await layer.flush()

    asyncio.run(scenario())


def _counting_trips(monkeypatch) -> list:
    from redis.asyncio.client import Pipeline, Redis

    trips: list = []
    command, execute = Redis.execute_command, Pipeline.execute

    async def counted_command(self, *args, **options):
        if not isinstance(self, Pipeline):
            trips.append(args[0])
        return await command(self, *args, **options)

    async def counted_execute(self, *args, **options):
        trips.append("pipeline")
        return await execute(self, *args, **options)

    monkeypatch.setattr(Redis, "execute_command", counted_command)
    monkeypatch.setattr(Pipeline, "execute", counted_execute)
    return trips


def test_a_group_send_reaches_members_in_two_processes_in_two_round_trips(redis_url, monkeypatch):
    here, there = layer_at(redis_url), layer_at(redis_url)  # two processes: two client prefixes

    async def scenario():
        mine, yours = await here.new_channel(), await there.new_channel()
        await here.group_add("table-9", mine)
        await there.group_add("table-9", yours)
        await here.group_add("table-9", await here.new_channel())  # a second member here
        trips = _counting_trips(monkeypatch)
        await here.group_send("table-9", {"type": "table.changed", "event": "v2"})
        monkeypatch.undo()
        assert trips == ["pipeline", "EVAL"], "one pipeline and one script for the shard"
        assert await here.receive(mine) == {"type": "table.changed", "event": "v2"}
        assert await there.receive(yours) == {"type": "table.changed", "event": "v2"}
        await here.flush()

    asyncio.run(scenario())


def test_a_group_send_on_the_receiving_loop_hands_this_processs_members_their_copy_without_redis(
    redis_url, monkeypatch
):
    """Kaveh's and Shirin's sockets are in this process, Babak's in another: the members are read
    from Redis, Babak's copy goes through it, and Kaveh and Shirin get theirs here, once each and
    in the order sent, none of it written to Redis and read back."""
    here, there = layer_at(redis_url), layer_at(redis_url)

    async def scenario():
        kaveh, shirin, babak = await here.new_channel(), await here.new_channel(), await there.new_channel()
        for channel, layer in ((kaveh, here), (shirin, here), (babak, there)):
            await layer.group_add("table-11", channel)
        first = asyncio.ensure_future(here.receive(kaveh))  # this process receives on this loop
        await until(lambda: kaveh in here._waiters)
        trips = _counting_trips(monkeypatch)
        for n in range(3):
            await here.group_send("table-11", {"type": "table.changed", "event": f"v{n}"})
        monkeypatch.undo()
        assert trips == ["pipeline", "EVAL"] * 3, "the members read, and one script for the other process"
        assert (await first)["event"] == "v0"
        assert [(await here.receive(kaveh))["event"] for _ in range(2)] == ["v1", "v2"]
        assert [(await here.receive(shirin))["event"] for _ in range(3)] == ["v0", "v1", "v2"]
        assert [(await there.receive(babak))["event"] for _ in range(3)] == ["v0", "v1", "v2"]
        await asyncio.sleep(0.1)
        assert here._held == {} and here._waiters == {}, "no second copy came through Redis"
        await there.group_discard("table-11", babak)
        trips = _counting_trips(monkeypatch)
        await here.group_send("table-11", {"type": "table.changed", "event": "v3"})
        monkeypatch.undo()
        assert trips == ["pipeline"], "every member here: nothing but the members is read"
        assert (await here.receive(shirin))["event"] == "v3"
        await here.flush()

    asyncio.run(scenario())


def test_a_group_send_from_another_loop_reaches_this_processs_members_through_redis(redis_url):
    """A management command's or a thread's own loop: its send goes through Redis, and the loop
    that receives still gets it (a future of one loop is never resolved from another)."""
    import threading

    layer = layer_at(redis_url)

    async def scenario():
        seat = await layer.new_channel()
        await layer.group_add("table-12", seat)
        waiting = asyncio.ensure_future(layer.receive(seat))
        await until(lambda: seat in layer._waiters)
        sender = threading.Thread(
            target=lambda: asyncio.run(layer.group_send("table-12", {"type": "table.changed", "event": "far"}))
        )
        sender.start()
        await asyncio.get_running_loop().run_in_executor(None, sender.join)
        assert (await asyncio.wait_for(waiting, 5))["event"] == "far"
        await layer.flush()

    asyncio.run(scenario())


def test_a_group_send_skips_a_full_process_and_counts_expired_messages_as_gone(redis_url):
    """As channels-redis's: the sender's capacity and expiry apply to every member's queue."""
    sender = layer_at(redis_url, capacity=1, expiry=1)
    full, stale = layer_at(redis_url), layer_at(redis_url)

    async def scenario():
        channels = {layer: await layer.new_channel() for layer in (full, stale)}
        for layer, channel in channels.items():
            await layer.group_add("table-3", channel)
        await stale.send(channels[stale], {"type": "old"})  # kept 60 s by its own layer's expiry
        await asyncio.sleep(2.1)  # older than the sender's expiry (whole seconds, as scored)
        await full.send(channels[full], {"type": "unread"})
        await sender.group_send("table-3", {"type": "table.changed"})
        assert await full.receive(channels[full]) == {"type": "unread"}, "full: skipped, nothing lost"
        assert await stale.receive(channels[stale]) == {"type": "table.changed"}, "old was dropped"
        await sender.flush()

    asyncio.run(scenario())

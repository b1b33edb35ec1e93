"""One piece of database work per table change, for all of a process's sockets at that table.

Every socket of a table hears the same group message ("version N is out", with its event id).
Without this, each would read the table on its own (shabneshin.loop_db: on the loop's thread
with SQLite, on Channels' one worker thread with PostgreSQL, where each of six hops would queue
behind every other table's work and cost a thread hand-off).
Here the first socket of this process to hear an event renders, in one hop, the fragments of every
socket of this process at that table (:func:`tables.renderer.fragments_for`, cached per audience);
the others await that result and only do their own cheap part on the event loop: what changed
since they last sent, and their own CSRF token.

Renders stay with the database work: run in the loop's thread pool instead, several renders at
once only fought over the GIL (measured: 14 → 18 ms of CPU a move in the embedded default, 18 → 24
on PostgreSQL and Redis, and fewer moves a second in both). One exception, with the database work
on Channels' worker thread (PostgreSQL): a move this process made left its snapshot primed, which
renders without the database, so it is rendered on the loop's thread (:func:`_render_all_where_it_pays`)
and the worker, whose moves mostly wait for PostgreSQL, goes on to the next move (``make bench``
(b) staggered, 15 s runs, alternated: p99 692–770 ms before, 301–597 after).

A socket that joined after the hop began, or whose result is missing, falls back to its own hop.

A socket's arrival (its presence, its first "does this session still act" check and its first
render) is one hop too, shared by the sockets of the table that arrive before that hop takes its
list (:class:`Arrivals`): a restart or a deploy reconnects every socket at once, and each table's
sockets then load it once instead of once each. A socket that arrives after the hop took its list
waits for the next one, so the load it is shown always began after it joined the table's group.

The registry is touched only on the event loop, from consumers' coroutines (no locks), except an
arrivals' list, which its hop takes on the database thread (:class:`Arrivals` has a lock).

The hub also keeps its sockets' presence (tables.presence): every ``PRESENCE_HEARTBEAT_S``, one
query refreshes the seat of every signed-in player with a socket here, instead of one write per
socket (600 sockets would be 40 writes a second on the one worker thread).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from shabneshin.loop_db import database_work, run_here
from tables import presence, renderer

log = logging.getLogger(__name__)

KEEP_RESULT_S = 10.0  # a socket slow to read its queue still finds the shared result


@dataclass(frozen=True)
class Rendered:
    snapshot: renderer.Snapshot
    audience: renderer.Audience
    fragments: dict[str, str]


class Arrivals:
    """The sockets of one table that connected since its last arrivals' hop began: they share one
    load of the table. A socket joins only while the hop has not taken the list (its load then
    begins after the socket joined the table's group, so no change can fall between)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.consumers: list[Any] = []
        self.taken = False
        self.lock = threading.Lock()  # the hop takes the list on the database thread
        self.result: asyncio.Future[dict[Any, Rendered]] = loop.create_future()

    def join(self, consumer: Any) -> bool:
        with self.lock:
            if self.taken:
                return False
            self.consumers.append(consumer)
            return True

    def take(self) -> list[Any]:
        with self.lock:
            self.taken = True
            return list(self.consumers)


class Hub:
    def __init__(self) -> None:
        self.members: dict[int, set[Any]] = defaultdict(set)
        self.results: dict[tuple[int, str], asyncio.Future[dict[Any, Rendered]]] = {}
        self.arriving: dict[int, Arrivals] = {}
        self.beating: asyncio.Task[None] | None = None

    def join(self, table_id: int, consumer: Any) -> None:
        self.members[table_id].add(consumer)
        if self.beating is None or self.beating.done() or self.beating.get_loop() is not asyncio.get_running_loop():
            self.beating = asyncio.get_running_loop().create_task(self._beat_while_anyone_is_here())

    def present(self) -> dict[int, set[int]]:
        """table id -> the signed-in players with a socket of this process there."""
        out: dict[int, set[int]] = {}
        for table_id, consumers in self.members.items():
            for consumer in consumers:
                user = consumer.scope.get("user")
                if user is not None and getattr(user, "is_authenticated", False):
                    out.setdefault(table_id, set()).add(user.pk)
        return out

    async def _beat_while_anyone_is_here(self) -> None:
        while self.members:
            await asyncio.sleep(settings.PRESENCE_HEARTBEAT_S)
            here = self.present()
            if not here:
                continue
            try:
                await database_work(presence.heartbeat_many)(here)
            except Exception:  # a missed beat is only a later one
                log.warning("presence heartbeats failed", exc_info=True)

    def leave(self, table_id: int, consumer: Any) -> None:
        members = self.members.get(table_id)
        if members is not None:
            members.discard(consumer)
            if not members:
                del self.members[table_id]

    async def rendered_for(self, table_id: int, event: str, consumer: Any) -> Rendered | None:
        """This consumer's audience and fragments for ``event``: shared with the process's other
        sockets at the table. None when the table is gone."""
        key = (table_id, event)
        future = self.results.get(key)
        if future is None:
            loop = asyncio.get_running_loop()
            future = loop.create_future()
            self.results[key] = future
            loop.call_later(KEEP_RESULT_S, self.results.pop, key, None)
            viewers = [(c, c.scope.get("user"), c.language) for c in self.members.get(table_id, ())]
            try:
                future.set_result(await _render_all_where_it_pays(table_id, event, viewers))
            except BaseException as exc:
                self.results.pop(key, None)
                future.set_exception(exc)
                future.exception()  # retrieved: the sockets waiting on it fall back to their own hop
                raise
        try:
            result = await asyncio.shield(future)
        except Exception:
            result = {}
        mine = result.get(consumer)
        if mine is not None:
            return mine
        return await _render_one(table_id, event, consumer.scope.get("user"), consumer.language)

    async def arrive(self, table_id: int, consumer: Any) -> Rendered | None:
        """A socket that just joined the table's group: its presence, its first "does this session
        still act" check and its first render, in one hop shared with the other sockets of this
        process arriving at the table meanwhile (a reconnect after a restart is every socket at
        once). None when the table is gone."""
        arrivals = self.arriving.get(table_id)
        if arrivals is not None and arrivals.join(consumer):
            try:
                result = await asyncio.shield(arrivals.result)
            except Exception:
                result = {}
        else:
            arrivals = Arrivals(asyncio.get_running_loop())
            arrivals.join(consumer)
            self.arriving[table_id] = arrivals
            try:
                result = await _arrive_all(table_id, arrivals)
                arrivals.result.set_result(result)
            except BaseException as exc:
                arrivals.result.set_exception(exc)
                arrivals.result.exception()  # retrieved: the others fall back to their own hop
                raise
            finally:
                if self.arriving.get(table_id) is arrivals:
                    del self.arriving[table_id]
        mine = result.get(consumer)
        if mine is not None:
            return mine
        return await _render_one(table_id, None, consumer.scope.get("user"), consumer.language)


@database_work
def _arrive_all(table_id: int, arrivals: Arrivals) -> dict[Any, Rendered]:
    consumers = arrivals.take()
    here: dict[int, set[int]] = {}
    for consumer in consumers:
        user = consumer.scope.get("user")
        if user is not None and getattr(user, "is_authenticated", False):
            here.setdefault(table_id, set()).add(user.pk)
            consumer._acting_user()  # its first full check now: a first move does not wait for it
    if here:
        try:
            presence.heartbeat_many(here)
            presence.came_to_watch(here)
        except Exception:  # a missed beat is only a later one; the sockets go on
            log.warning("presence heartbeat failed", exc_info=True)
    snapshot = renderer.snapshot_for_event(table_id, None)
    if snapshot is None:
        return {}
    return _renders_of(snapshot, [(c, c.scope.get("user"), c.language) for c in consumers])


def _renders_of(snapshot: renderer.Snapshot, viewers: list[tuple[Any, Any, str]]) -> dict[Any, Rendered]:
    out = {}
    for consumer, user, language in viewers:
        audience = snapshot.audience(user, language)
        out[consumer] = Rendered(snapshot, audience, renderer.fragments_for(snapshot, audience))
    return out


async def _render_all_where_it_pays(
    table_id: int, event: str, viewers: list[tuple[Any, Any, str]]
) -> dict[Any, Rendered]:
    """With the database work on Channels' worker thread (PostgreSQL), a snapshot this process
    already holds (the moderator's own move, primed) is rendered here on the loop's thread: it
    reads no database, and the worker, whose moves mostly wait for PostgreSQL's round trips, is
    not kept from the next move by a render. Anything else goes to :func:`_render_all`."""
    snapshot = None if settings.DATABASE_WORK_ON_LOOP else renderer.primed(table_id, event)
    if snapshot is None:
        return await _render_all(table_id, event, viewers)
    return run_here(_renders_of, snapshot, viewers)


@database_work
def _render_all(table_id: int, event: str, viewers: list[tuple[Any, Any, str]]) -> dict[Any, Rendered]:
    snapshot = renderer.snapshot_for_event(table_id, event)
    if snapshot is None:
        return {}
    return _renders_of(snapshot, viewers)


@database_work
def _render_one(table_id: int, event: str, user: Any, language: str) -> Rendered | None:
    snapshot = renderer.snapshot_for_event(table_id, event)
    if snapshot is None:
        return None
    audience = snapshot.audience(user, language)
    return Rendered(snapshot, audience, renderer.fragments_for(snapshot, audience))


hub = Hub()

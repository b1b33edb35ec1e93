"""Deploy-safe shutdown: on SIGTERM each server process closes its open WebSockets with 1012
("service restart"), so the htmx ws extension reconnects at once (it reconnects by itself only
after 1006, 1011, 1012 and 1013) to whichever process the load balancer offers, instead of
waiting out its back-off; the new socket sends the full current view (ARCHITECTURE §4).

Daphne stops its Twisted reactor on SIGTERM. :func:`install` (called when ``shabneshin.asgi`` is
imported, before daphne's server runs) adds a "before shutdown" trigger, which runs before the
reactor drops its connections: it sends every open socket a close frame with 1012 and lets the
frames go out for ``GRACE_S`` before the reactor goes on stopping. :class:`TracksSockets` is the
ASGI middleware that knows the open sockets: the ``send`` of every accepted WebSocket, until it
closes or its application returns. A server with ASGI lifespan calls :func:`close_all` itself.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from functools import partial
from typing import Any

log = logging.getLogger(__name__)
SERVICE_RESTART = 1012
GRACE_S = 0.5
_open: dict[int, Any] = {}  # id of a socket's scope -> its ASGI send


class TracksSockets:
    """ASGI middleware: remembers the ``send`` of each accepted WebSocket while it is open."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            return await self.app(scope, receive, send)
        key = id(scope)

        async def tracked_send(message: dict[str, Any]) -> None:
            if message["type"] == "websocket.accept":
                _open[key] = send
            elif message["type"] == "websocket.close":
                _open.pop(key, None)
            await send(message)

        try:
            return await self.app(scope, receive, tracked_send)
        finally:
            _open.pop(key, None)


def open_sockets() -> int:
    return len(_open)


def _daphne_protocol(send: Any) -> Any:
    """Daphne's WebSocket protocol behind an ASGI ``send`` (daphne passes
    ``partial(server.handle_reply, protocol)``), or None under another server."""
    protocol = send.args[0] if isinstance(send, partial) and send.args else None
    return protocol if hasattr(protocol, "sendCloseFrame") else None


async def _close(send: Any, code: int) -> None:
    protocol = _daphne_protocol(send)
    if protocol is None:
        await send({"type": "websocket.close", "code": code})
    elif protocol.state == protocol.STATE_OPEN:
        # Autobahn's sendClose (what daphne's "websocket.close" calls) takes only 1000 and
        # 3000-4999; its close frame itself carries any code, as daphne's own 1011 does.
        protocol.sendCloseFrame(code=code, isReply=False)


async def close_all(code: int = SERVICE_RESTART) -> int:
    """Close every open socket of this process with ``code``; return how many."""
    sends = list(_open.values())
    _open.clear()
    results = await asyncio.gather(*(_close(send, code) for send in sends), return_exceptions=True)
    failed = [r for r in results if isinstance(r, BaseException)]
    if failed:
        log.warning("shutdown: %d of %d sockets could not be closed: %r", len(failed), len(sends), failed[0])
    return len(sends)


async def _close_all_and_wait() -> None:
    closed = await close_all()
    log.info("shutdown: closed %d sockets with %d", closed, SERVICE_RESTART)
    if closed:
        await asyncio.sleep(GRACE_S)  # let the close frames leave before the reactor drops the connections


def _before_shutdown() -> Any:
    from twisted.internet import defer

    return defer.Deferred.fromFuture(asyncio.ensure_future(_close_all_and_wait()))


def install() -> bool:
    """Under daphne: close the sockets with 1012 when the reactor is told to stop (SIGTERM, SIGINT).
    Returns whether the trigger was added. Only a reactor that is already installed is used."""
    reactor = sys.modules.get("twisted.internet.reactor")
    if reactor is None or not hasattr(reactor, "_asyncioEventloop"):
        return False
    reactor.addSystemEventTrigger("before", "shutdown", _before_shutdown)
    return True

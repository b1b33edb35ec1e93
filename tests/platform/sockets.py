"""Connecting to the real ASGI application as a logged-in browser tab would."""

from __future__ import annotations

import json
import re

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from shabneshin.asgi import application
from tests.platform.helpers import started_werewolf


@database_sync_to_async
def start_werewolf(host, players=()):
    """A started five-seat werewolf table (helpers.started_werewolf), its table loaded here, in the
    database thread, so async code can read ``match.table.token``."""
    match = started_werewolf(host, players)
    match.table  # noqa: B018 - loaded in the thread
    return match


@database_sync_to_async
def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


async def connect(
    token: str, user=None, origin: str = "http://testserver", language: str = "en", csrf: str = "", session: str = ""
):
    """A socket at the table; ``session``: this session key (another tab of one browser) instead of
    a new session for ``user``."""
    headers = [(b"origin", origin.encode()), (b"host", b"testserver"), (b"accept-language", language.encode())]
    cookies = []
    if session:
        cookies.append(f"{settings.SESSION_COOKIE_NAME}={session}")
    elif user is not None:
        cookies.append(f"{settings.SESSION_COOKIE_NAME}={await session_cookie(user)}")
    if csrf:
        cookies.append(f"{settings.CSRF_COOKIE_NAME}={csrf}")
    if cookies:
        headers.append((b"cookie", "; ".join(cookies).encode()))
    communicator = WebsocketCommunicator(application, f"/ws/tables/{token}/", headers=headers)
    connected, code = await communicator.connect(timeout=5)
    if not connected:
        # As a browser's socket would: the refused consumer then stops instead of lingering on
        # its channel-layer receive until the event loop is torn down.
        await communicator.disconnect()
    return communicator, connected, code


async def receive_html(communicator, timeout: float = 5) -> str:
    return await communicator.receive_from(timeout=timeout)


async def drain(communicator, quiet: float = 0.3) -> list[str]:
    """Every message until the socket is quiet for ``quiet`` seconds."""
    out = []
    while not await communicator.receive_nothing(timeout=quiet):
        out.append(await communicator.receive_from(timeout=5))
    return out


def version_in(html: str) -> int:
    return int(re.search(r'data-version="(\d+)"', html).group(1))


def action_message(action: dict, version: int) -> str:
    return json.dumps({"action": json.dumps(action), "version": str(version), "HEADERS": {"HX-Request": "true"}})


async def receive_until(communicator, needle: str, timeout: float = 5) -> str:
    """Messages joined, up to the first that contains ``needle`` (``""`` if it never comes)."""
    import time

    seen = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if await communicator.receive_nothing(timeout=0.05):
            continue
        seen.append(await communicator.receive_from(timeout=5))
        if needle in seen[-1]:
            return "".join(seen)
    return ""


async def close_thread_connections() -> None:
    """Close the database connections of the thread that ``database_sync_to_async`` runs in, so
    the test database can be dropped at the end (PostgreSQL refuses while a session is open)."""
    from channels.layers import get_channel_layer
    from django.db import connections

    from shabneshin.loop_db import close_clock_connections

    await database_sync_to_async(connections.close_all)()
    await close_clock_connections()  # the clock's own thread (PostgreSQL), when a test ticked it
    layer = get_channel_layer()
    if hasattr(layer, "close_pools"):  # channels-redis: no connection outlives this test's loop
        await layer.close_pools()

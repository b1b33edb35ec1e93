"""The lobby's public-table list updates live as tables open, fill and start."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from shabneshin.asgi import application
from tables import seating
from tests.platform.sockets import close_thread_connections, receive_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services_in_use")]


@pytest.fixture(autouse=True)
async def _close_connections_after():
    yield
    await close_thread_connections()


async def _lobby():
    tab = WebsocketCommunicator(
        application, "/ws/lobby/", headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")]
    )
    connected, _ = await tab.connect(timeout=5)
    assert connected
    return tab


async def test_the_lobby_hears_a_new_public_table_and_its_seats_filling(alice, bob):
    tab = await _lobby()
    table = await database_sync_to_async(seating.create_table)(alice, "werewolf", 5, "public")
    html = await receive_until(tab, table.token)
    assert 'id="lobby-tables"' in html and "۱/۵" in html  # the lobby speaks Persian by default
    await database_sync_to_async(seating.sit)(table, bob)
    assert "۲/۵" in await receive_until(tab, "۲/۵")
    await database_sync_to_async(seating.fill_with_bots)(table, alice)
    await database_sync_to_async(seating.start)(table, alice)
    while not await tab.receive_nothing(timeout=0.3):
        html = await tab.receive_from(timeout=5)
    assert "Watch" in html or "تماشا" in html
    await tab.disconnect()


async def test_a_private_table_never_reaches_the_lobby(alice):
    tab = await _lobby()
    table = await database_sync_to_async(seating.create_table)(alice, "werewolf", 5, "private")
    while not await tab.receive_nothing(timeout=0.3):
        assert table.token not in await tab.receive_from(timeout=5)
    await tab.disconnect()

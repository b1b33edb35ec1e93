"""The lobby's public-table list updates live as tables open, fill and start."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from moderation.models import Block
from shabneshin.asgi import application
from tables import host, seating
from tests.platform.sockets import close_thread_connections, receive_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services_in_use")]


@pytest.fixture(autouse=True)
async def _close_connections_after():
    yield
    await close_thread_connections()


async def _lobby(user=None):  # noqa: ANN001, ANN202
    tab = WebsocketCommunicator(
        application, "/ws/lobby/", headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")]
    )
    if user is not None:
        tab.scope["user"] = user
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


async def _last_list(tab) -> str:
    html = await tab.receive_from(timeout=5)
    while not await tab.receive_nothing(timeout=0.3):
        html = await tab.receive_from(timeout=5)
    return html


async def test_the_lobby_stops_listing_a_table_to_the_player_the_host_removed_from_it(alice, bob, charlie):
    table = await database_sync_to_async(seating.create_table)(alice, "werewolf", 5, "public")
    await database_sync_to_async(seating.sit)(table, bob)
    bob_tab, charlie_tab = await _lobby(bob), await _lobby(charlie)
    await database_sync_to_async(host.kick)(table, alice, 1, bob.pk)
    assert table.token not in await _last_list(bob_tab), "bob may not sit there again: not listed to him"
    assert table.token in await _last_list(charlie_tab)
    await bob_tab.disconnect()
    await charlie_tab.disconnect()


def _lobby_page(user) -> str:
    client = Client()
    client.force_login(user)
    return client.get(reverse("tables:lobby")).content.decode()


@pytest.mark.django_db
def test_the_lobby_page_hides_a_removed_players_table_and_a_blockers_tables_from_them(alice, bob, charlie, dave):
    kicked_from = seating.create_table(alice, "werewolf", 5, "public")
    seating.sit(kicked_from, bob)
    host.kick(kicked_from, alice, 1, bob.pk)
    daves = seating.create_table(dave, "werewolf", 5, "public")
    Block.objects.create(blocker=dave, blocked=bob)
    others = seating.create_table(alice, "insidejob", 4, "public")
    bobs = _lobby_page(bob)
    assert kicked_from.token not in bobs and daves.token not in bobs and others.token in bobs
    charlies = _lobby_page(charlie)
    assert kicked_from.token in charlies and daves.token in charlies and others.token in charlies


def _lobby_queries(user) -> int:
    client = Client()
    client.force_login(user)
    client.get(reverse("tables:lobby"))  # the session, the site's caches
    with CaptureQueriesContext(connection) as captured:
        client.get(reverse("tables:lobby"))
    return len(captured.captured_queries)


@pytest.mark.django_db
def test_hiding_tables_from_a_player_costs_the_lobby_one_query_whatever_their_number(alice, bob, charlie, dave):
    before = _lobby_queries(charlie)
    assert _lobby_queries(bob) == before
    seating.sit(seating.create_table(alice, "werewolf", 5, "public"), charlie)
    with_tables = _lobby_queries(bob)
    assert with_tables <= before + 1
    for n in range(4):
        table = seating.create_table(alice if n % 2 else dave, "werewolf", 5, "public")
        seating.sit(table, bob)
        host.kick(table, table.host, 1, bob.pk)
    Block.objects.create(blocker=dave, blocked=bob)
    assert _lobby_queries(bob) == with_tables

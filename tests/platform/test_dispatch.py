"""Our consumers dispatch each message on the event loop (shabneshin.dispatch): no hop to the
database thread before a handler, since their database work goes through
``database_sync_to_async``, which closes old connections on that thread itself. A move still
reaches every socket. Run twice by `make test`: SQLite and the in-memory layer, then PostgreSQL and
Redis.

Personas: alice hosts and plays the seer, bob plays beside her.
"""

from __future__ import annotations

import pytest
from channels import consumer as channels_consumer

from clubs.consumers import NightConsumer
from tables.consumers import LobbyConsumer, TableConsumer
from tests.platform.sockets import (
    action_message,
    close_thread_connections,
    connect,
    receive_html,
    start_werewolf,
    version_in,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services_in_use")]


@pytest.fixture(autouse=True)
async def _close_connections_after():
    yield
    await close_thread_connections()


def test_every_consumer_of_the_site_dispatches_on_the_loop():
    for consumer in (TableConsumer, LobbyConsumer, NightConsumer):
        assert consumer.dispatch.__module__ == "shabneshin.dispatch", consumer


async def test_a_move_reaches_every_socket_without_a_hop_to_the_database_thread_per_message(alice, bob, monkeypatch):
    hops = []

    async def recorded() -> None:
        hops.append(1)

    monkeypatch.setattr(channels_consumer, "aclose_old_connections", recorded)
    match = await start_werewolf(alice, [bob])  # W5: alice SEER at 0, bob VILLAGER at 1
    alice_tab, ok_a, _ = await connect(match.table.token, alice)
    bob_tab, ok_b, _ = await connect(match.table.token, bob)
    assert ok_a and ok_b
    alice_html = await receive_html(alice_tab)
    await receive_html(bob_tab)
    await alice_tab.send_to(text_data=action_message({"type": "pick", "target": 2}, version_in(alice_html)))
    assert version_in(await receive_html(bob_tab)) == 1
    assert version_in(await receive_html(alice_tab)) == 1
    assert hops == [], "no message waited for the database thread before its handler"
    for tab in (alice_tab, bob_tab):
        await tab.disconnect()

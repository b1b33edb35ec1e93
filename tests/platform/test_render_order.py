"""A socket never goes back a version: when two changes' messages reach it in the other order (the
clock's thread and the database thread each hand their own to the loop; two processes each send
their own), the older one's render is not shown over the newer one. Run with SQLite and the
in-memory layer, and against PostgreSQL and Redis."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from tables import broadcast, moderator
from tables.models import Move
from tests.platform.sockets import close_thread_connections, connect, drain, receive_html, start_werewolf, version_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services_in_use")]


@database_sync_to_async
def _two_moves_with_their_messages_held(match) -> list[tuple[str, dict]]:
    """The seer's night pick (version 1) and the clock's close of her turn (version 2), their group
    messages kept back instead of sent."""
    held: list[tuple[str, dict]] = []
    with mock.patch.object(broadcast, "send", side_effect=lambda group, message: held.append((group, message))):
        moderator.submit(match.pk, 0, {"type": "pick", "target": 2}, None)
        moderator.submit(match.pk, 0, {"type": "timeout"}, None, source=Move.Source.CLOCK)
    return [(group, message) for group, message in held if message["type"] == "table.changed"]


def _versions(messages: list[str]) -> list[int]:
    return [int(v) for html in messages for v in re.findall(r'<section id="status"[^>]*data-version="(\d+)"', html)]


async def test_an_older_versions_message_arriving_after_a_newer_one_does_not_take_the_table_back(alice, bob):
    match = await start_werewolf(alice, [bob])  # W5: alice SEER at 0 (on turn), bob VILLAGER at 1
    tab, connected, _ = await connect(match.table.token, bob)
    assert connected
    assert version_in(await receive_html(tab)) == 0
    held = await _two_moves_with_their_messages_held(match)
    assert [message["version"] for _, message in held] == [1, 2]
    layer = get_channel_layer()
    for group, message in reversed(held):  # version 2's message first, then version 1's
        await layer.group_send(group, message)
    shown = _versions(await drain(tab, quiet=0.5))
    assert shown and shown[0] == 2, "the newer version is shown"
    assert all(v >= 2 for v in shown), f"went back to an older version: {shown}"
    await tab.disconnect()
    await close_thread_connections()

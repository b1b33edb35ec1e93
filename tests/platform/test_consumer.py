"""The table's WebSocket: each tab renders only its own seat's view, stale and bad input are
answered in #errors and change nothing. Run twice by `make test`: with SQLite and the in-memory
layer, and against real PostgreSQL and Redis."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async

from tables.models import Match, Move
from tests.platform.helpers import play_until
from tests.platform.sockets import (
    action_message,
    close_thread_connections,
    connect,
    drain,
    receive_html,
    receive_until,
    start_werewolf,
    version_in,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services_in_use")]


@pytest.fixture(autouse=True)
async def _close_connections_after():
    yield
    await close_thread_connections()


@database_sync_to_async
def _version(match) -> int:
    return Match.objects.get(pk=match.pk).version


@database_sync_to_async
def _moves(match) -> int:
    return Move.objects.filter(match=match).count()


async def test_each_player_receives_only_their_own_view(alice, bob, charlie):
    match = await start_werewolf(alice, [bob])  # W5: alice SEER at 0, bob VILLAGER at 1
    token = match.table.token
    alice_tab, ok_a, _ = await connect(token, alice)
    bob_tab, ok_b, _ = await connect(token, bob)
    charlie_tab, ok_c, _ = await connect(token, charlie)
    assert ok_a and ok_b and ok_c
    alice_html, bob_html, charlie_html = [await receive_html(t) for t in (alice_tab, bob_tab, charlie_tab)]
    assert "Seer" in alice_html and 'data-testid="your-turn"' in alice_html
    assert "Villager" in bob_html and "Seer" not in bob_html and "Wolf" not in bob_html
    assert 'data-testid="spectator"' in charlie_html
    assert not any(role in charlie_html for role in ("Seer", "Villager", "Wolf", "Doctor"))

    await alice_tab.send_to(text_data=action_message({"type": "pick", "target": 2}, version_in(alice_html)))
    alice_after = await receive_until(alice_tab, "is a wolf")
    bob_after = await receive_until(bob_tab, 'data-version="1"') + "".join(await drain(bob_tab))
    assert "is a wolf" in alice_after, "the seer's private result reaches the seer"
    assert "is a wolf" not in bob_after and "Wolf" not in bob_after
    assert version_in(bob_after) == 1, "everyone hears that version 1 is out"
    for tab in (alice_tab, bob_tab, charlie_tab):
        await tab.disconnect()


async def test_a_stale_version_is_refused_with_the_current_view(alice, bob):
    match = await start_werewolf(alice, [bob])
    tab, _, _ = await connect(match.table.token, alice)
    first = await receive_html(tab)
    await tab.send_to(text_data=action_message({"type": "pick", "target": 2}, version_in(first)))
    await receive_until(tab, "is a wolf")
    await drain(tab)
    await tab.send_to(text_data=action_message({"type": "pick", "target": 3}, version_in(first)))
    reply = await receive_until(tab, "moved on")
    assert "moved on" in reply and version_in(reply) == 1
    assert await _version(match) == 1 and await _moves(match) == 1
    await tab.disconnect()


BAD_INPUT = [
    ("not json", "not understood"),
    (json.dumps([1, 2]), "not understood"),
    (json.dumps({"action": "{not json", "version": 0}), "not understood"),
    (json.dumps({"action": json.dumps({"type": "pick", "target": 2})}), "not understood"),
    (json.dumps({"action": json.dumps({"type": "dance"}), "version": 0}), "does not exist"),
    (json.dumps({"action": json.dumps({"type": "pick", "target": 0}), "version": 0}), "not allowed"),
    (json.dumps({"action": json.dumps({"type": "pick", "target": "2"}), "version": 0}), "not allowed"),
    (json.dumps({"action": json.dumps({"type": "timeout"}), "version": 0}), "cannot do that"),
    # Wrong types and sizes: a boolean or a fraction is no version (True == 1, int(0.5) == 0), a
    # version too large for a float, nesting deeper than the parser's recursion limit, a chat
    # message that is not text.
    (json.dumps({"action": json.dumps({"type": "pick", "target": 2}), "version": True}), "not understood"),
    (json.dumps({"action": json.dumps({"type": "pick", "target": 2}), "version": 0.5}), "not understood"),
    (json.dumps({"action": json.dumps({"type": "pick", "target": 2}), "version": "-1"}), "not understood"),
    ('{"action": {"type": "pick", "target": 2}, "version": 1e400}', "not understood"),
    ('{"action": ' + "[" * 3000 + "]" * 3000 + ', "version": 0}', "not understood"),
    (json.dumps({"action": "[" * 3000 + "]" * 3000, "version": 0}), "not understood"),
    (json.dumps({"chat": None}), "not understood"),
    (json.dumps({"chat": ["hello"]}), "not understood"),
]


@pytest.mark.parametrize(("message", "answer"), BAD_INPUT)
async def test_bad_input_is_answered_and_changes_nothing(alice, bob, message, answer):
    match = await start_werewolf(alice, [bob])
    tab, _, _ = await connect(match.table.token, alice)
    await receive_html(tab)
    await tab.send_to(text_data=message)
    reply = await receive_html(tab)
    assert 'id="errors"' in reply and answer in reply
    assert await _version(match) == 0 and await _moves(match) == 0
    await tab.send_to(text_data=action_message({"type": "pick", "target": 2}, 0))
    assert "is a wolf" in await receive_until(tab, "is a wolf"), "the connection stays open and usable"
    await tab.disconnect()


async def test_a_move_out_of_turn_or_by_a_spectator_is_refused(alice, bob, charlie):
    match = await start_werewolf(alice, [bob])
    bob_tab, _, _ = await connect(match.table.token, bob)
    charlie_tab, _, _ = await connect(match.table.token, charlie)
    await receive_html(bob_tab)
    await receive_html(charlie_tab)
    await bob_tab.send_to(text_data=action_message({"type": "pick", "target": 2}, 0))
    assert "not your decision" in await receive_html(bob_tab)
    await charlie_tab.send_to(text_data=action_message({"type": "pick", "target": 2}, 0))
    assert "cannot do that" in await receive_html(charlie_tab)
    assert await _version(match) == 0
    for tab in (bob_tab, charlie_tab):
        await tab.disconnect()


async def test_a_socket_from_another_origin_is_refused(alice, bob):
    match = await start_werewolf(alice, [bob])
    _, connected, _ = await connect(match.table.token, alice, origin="http://evil.example")
    assert not connected


async def test_an_unknown_table_token_is_refused(alice):
    _, connected, _ = await connect("no-such-table", alice)
    assert not connected


async def test_a_socket_at_a_table_this_process_has_seen_asks_no_database_for_its_id(alice, bob, monkeypatch):
    """Alice's first tab reads the table's id by its token; her second tab, and Bob's, do not."""
    from tables import consumers

    match = await start_werewolf(alice, [bob])
    first, _, _ = await connect(match.table.token, alice)
    await receive_html(first)
    monkeypatch.setattr(consumers.TableConsumer, "_table_id", None)  # asked again, it would fail
    second, connected, _ = await connect(match.table.token, alice)
    assert connected and version_in(await receive_html(second)) == 0
    bobs, connected, _ = await connect(match.table.token, bob)
    assert connected and "Your role" in await receive_html(bobs)
    for tab in (first, second, bobs):
        await tab.disconnect()


async def test_a_socket_at_a_table_deleted_since_its_id_was_read_is_closed_4404(alice, bob):
    from tables import consumers
    from tables.models import Table

    match = await start_werewolf(alice, [bob])
    token = match.table.token
    first, _, _ = await connect(token, alice)
    await receive_html(first)
    await first.disconnect()
    await database_sync_to_async(lambda: Table.objects.filter(token=token).delete())()
    again, connected, _ = await connect(token, alice)
    assert connected, "the id was known: accepted, then the table was not found"
    assert (await again.receive_output(timeout=5)) == {"type": "websocket.close", "code": 4404}
    assert consumers._table_ids.get(token) is None, "forgotten: the next socket asks the database"
    _, connected, code = await connect(token, alice)
    assert not connected and code == 4404


async def test_reconnecting_resumes_the_current_view(alice, bob):
    match = await start_werewolf(alice, [bob])
    tab, _, _ = await connect(match.table.token, alice)
    await receive_html(tab)
    await tab.send_to(text_data=action_message({"type": "pick", "target": 2}, 0))
    await receive_until(tab, "is a wolf")
    await tab.disconnect()
    again, _, _ = await connect(match.table.token, alice)
    html = await receive_html(again)
    assert version_in(html) == 1 and "is a wolf" in html
    await again.disconnect()


async def test_chat_is_closed_at_night(alice, bob):
    match = await start_werewolf(alice, [bob])
    tab, _, _ = await connect(match.table.token, bob)
    html = await receive_html(tab)
    assert 'data-testid="chat-closed"' in html
    await tab.send_to(text_data=json.dumps({"chat": "hello"}))
    assert "closed" in await receive_html(tab)
    await tab.disconnect()


@database_sync_to_async
def _to_discussion(match):
    return play_until(match, lambda m: m.state["public"]["phase"] == "day_discussion")


async def test_living_players_chat_during_the_day_and_everyone_reads_it(alice, bob, charlie):
    match = await start_werewolf(alice, [bob])
    await _to_discussion(match)
    alice_tab, _, _ = await connect(match.table.token, alice)
    charlie_tab, _, _ = await connect(match.table.token, charlie)
    assert 'data-testid="chat-form"' in await receive_html(alice_tab)
    assert 'data-testid="chat-form"' not in await receive_html(charlie_tab), "spectators only read"
    await alice_tab.send_to(text_data=json.dumps({"chat": "I saw <b>nothing</b>", "HEADERS": {}}))
    heard = await receive_until(charlie_tab, "I saw")
    assert "I saw &lt;b&gt;nothing&lt;/b&gt;" in heard, "chat reaches spectators, escaped"
    await charlie_tab.send_to(text_data=json.dumps({"chat": "me too"}))
    assert "Only seated players" in await receive_html(charlie_tab)
    for tab in (alice_tab, charlie_tab):
        await tab.disconnect()


@database_sync_to_async
def _end_sessions_of(user) -> None:
    from django.contrib.sessions.models import Session

    for session in Session.objects.all():
        if session.get_decoded().get("_auth_user_id") == str(user.pk):
            session.delete()


async def test_a_tab_left_open_after_logging_out_may_watch_but_not_act(alice, bob):
    match = await start_werewolf(alice, [bob])
    tab, _, _ = await connect(match.table.token, alice)
    await receive_html(tab)
    await _end_sessions_of(alice)
    await tab.send_to(text_data=action_message({"type": "pick", "target": 2}, 0))
    assert "cannot do that" in await receive_until(tab, "cannot do that")
    assert await _version(match) == 0 and await _moves(match) == 0
    await tab.disconnect()


async def test_a_refusal_stays_readable_when_another_seat_moves(alice, bob):
    """Bob's bad click is refused; Alice's move a moment later re-renders Bob's table, and the
    refusal must still be there to read (it stays ``ERROR_KEPT_S``)."""
    match = await start_werewolf(alice, [bob])  # W5: alice SEER at 0 moves first at night
    token = match.table.token
    alice_tab, _, _ = await connect(token, alice)
    bob_tab, _, _ = await connect(token, bob)
    first_alice, first_bob = await receive_html(alice_tab), await receive_html(bob_tab)
    await bob_tab.send_to(text_data=action_message({"type": "pick", "target": 0}, version_in(first_bob) - 1))
    refused = await receive_html(bob_tab)
    assert 'data-testid="error"' in refused
    await alice_tab.send_to(text_data=action_message({"type": "pick", "target": 2}, version_in(first_alice)))
    after = await receive_until(bob_tab, 'data-version="1"') + "".join(await drain(bob_tab))
    assert version_in(after) == 1, "Bob's table moved on"
    assert '<div id="errors"' not in after or 'data-testid="error"' in after, "the refusal was not wiped"
    for tab in (alice_tab, bob_tab):
        await tab.disconnect()

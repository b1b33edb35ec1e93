"""A table's chat is read again only when its chat generation or the site's moved (tables.chat):
every change a reader could see moves one of them, and nothing else costs a chat query."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts import claims
from accounts.models import User
from moderation import actions
from moderation.models import PersonalMute
from tables import chat, renderer, seating
from tables.models import ChatMessage, Table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh():
    renderer.clear_caches()
    yield
    renderer.clear_caches()


@pytest.fixture
def table(alice, bob):
    """Alice's open table where Bob sits: both may chat."""
    table = seating.create_table(alice, "werewolf", 5, Table.Visibility.PRIVATE)
    seating.sit(table, bob)
    return table


def _texts(table) -> list[str]:
    messages, _ = chat.recent_with_mutes(table.pk)
    return [("(hidden) " if getattr(m, "is_hidden", False) else "") + f"{m.author}: {m.text}" for m in messages]


def _chat_queries(table) -> int:
    with CaptureQueriesContext(connection) as queries:
        chat.recent_with_mutes(table.pk)
    return sum("tables_chatmessage" in q["sql"] for q in queries.captured_queries)


def test_an_unchanged_chat_costs_no_query(table, bob):
    chat.post(table, bob, "hello")
    assert _chat_queries(table) == 1
    assert _chat_queries(table) == 0


def test_a_new_line_is_read_at_once(table, alice, bob):
    chat.post(table, bob, "hello")
    assert _texts(table) == ["Bob: hello"]
    chat.post(table, alice, "hi Bob")
    assert _texts(table) == ["Bob: hello", "Alice: hi Bob"]


def test_a_hidden_line_is_shown_hidden_at_once(table, bob):
    staff = User.objects.create_superuser("warden", "warden@example.com", "a-long-password-1", display_name="Warden")
    line = chat.post(table, bob, "something rude")
    assert _texts(table) == ["Bob: something rude"]
    actions.hide_message(staff, line)
    assert _texts(table) == ["(hidden) Bob: something rude"]


def test_a_mute_reaches_the_muters_audience_at_once(table, alice, bob):
    chat.post(table, bob, "hello")
    assert chat.recent_with_mutes(table.pk)[1] == {}
    PersonalMute.objects.create(muter=alice, muted=bob)
    assert chat.recent_with_mutes(table.pk)[1] == {alice.pk: frozenset({bob.pk})}
    PersonalMute.objects.filter(muter=alice).delete()
    assert chat.recent_with_mutes(table.pk)[1] == {}


def test_a_renamed_author_is_read_at_once(table, bob):
    chat.post(table, bob, "hello")
    assert _texts(table) == ["Bob: hello"]
    bob.display_name = "Robert"
    bob.save()
    assert _texts(table) == ["Robert: hello"]


def test_a_guest_merged_into_an_account_is_read_as_the_account_at_once(alice):
    guest = User.objects.create_user(username="guest-x", display_name="Guesty", is_guest=True)
    table = seating.create_table(alice, "werewolf", 5, Table.Visibility.PRIVATE)
    seating.sit(table, guest)
    chat.post(table, guest, "hello")
    assert _texts(table) == ["Guesty: hello"]
    account = User.objects.create_user(username="someone", password="a-long-password-1", display_name="Someone")
    claims.merge_guest_into(guest, account)
    assert _texts(table) == ["Someone: hello"]


def test_a_bulk_update_of_lines_is_read_once_the_table_is_marked_changed(table, bob):
    chat.post(table, bob, "hello")
    assert _texts(table) == ["Bob: hello"]
    ChatMessage.objects.filter(table=table).update(text="edited")  # no signal
    assert _texts(table) == ["Bob: hello"], "kept until told"
    chat.changed(table.pk)
    assert _texts(table) == ["Bob: edited"]


def test_generations_read_together_are_each_keys_own_and_made_when_missing():
    from shabneshin import generations

    generations.bump("generation:a")
    a = generations.current("generation:a")
    read_a, read_b = generations.current_many("generation:a", "generation:b")
    assert read_a == a
    assert read_b == generations.current("generation:b")  # made on first read, then kept
    generations.bump("generation:b")
    assert generations.current_many("generation:a", "generation:b") == (a, generations.current("generation:b"))
    assert generations.current("generation:b") != read_b

"""A socket keeps its last "this session still acts" answer only while nothing that could change
it happened (accounts.sessions.ActingCheck): a socket that already acted loses the right at once
on a log-out, a password change, a deactivation or a ban, and without any such event the full
check runs again after ``ACTING_RECHECK_S``."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts import sessions
from moderation.models import Sanction
from tables import seating
from tables.models import ChatMessage, Table
from tests.platform.sockets import close_thread_connections, connect, receive_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services_in_use")]


@pytest.fixture(autouse=True)
async def _close_connections_after():
    yield
    await close_thread_connections()


@pytest.fixture
def bobs_table(alice, bob):
    """An open werewolf table of Alice's where Bob sits (seated players may chat)."""
    table = seating.create_table(alice, "werewolf", 5, Table.Visibility.PRIVATE)
    seating.sit(table, bob)
    return table


@database_sync_to_async
def _log_out_everywhere(user) -> None:
    for session in Session.objects.all():
        if session.get_decoded().get("_auth_user_id") == str(user.pk):
            session.delete()


@database_sync_to_async
def _change_password(user) -> None:
    user.refresh_from_db()
    user.set_password("a-brand-new-password-2")
    user.save()


@database_sync_to_async
def _deactivate(user) -> None:
    user.refresh_from_db()
    user.is_active = False
    user.save()


@database_sync_to_async
def _ban(user) -> None:
    staff = get_user_model().objects.create_user(username="warden", password="a-long-password-1", is_staff=True)
    Sanction.objects.create(user=user, kind="ban", reason="abusive", created_by=staff)


@pytest.mark.parametrize("event", [_log_out_everywhere, _change_password, _deactivate, _ban])
async def test_a_socket_that_already_acted_loses_the_right_at_once(bobs_table, bob, event):
    """Bob chats once (his answer is kept), then the event happens elsewhere: his next line is
    refused, and nothing of it is stored."""
    tab, _, _ = await connect(bobs_table.token, bob)
    await tab.send_to(text_data='{"chat": "first line"}')
    await receive_until(tab, "first line")
    await event(bob)
    await tab.send_to(text_data='{"chat": "second line"}')
    assert "Only seated players" in await receive_until(tab, "Only seated players")
    texts = await database_sync_to_async(lambda: list(ChatMessage.objects.values_list("text", flat=True)))()
    assert texts == ["first line"]
    await tab.disconnect()


def test_a_kept_answer_costs_no_query_until_its_generation_moves(bob, client):
    client.force_login(bob)
    key = client.session.session_key
    check = sessions.ActingCheck()
    assert check.still_acts(key, bob)
    with CaptureQueriesContext(connection) as kept:
        assert check.still_acts(key, bob)
    assert len(kept) == 0
    sessions.bump_generation(bob.pk)
    with CaptureQueriesContext(connection) as again:
        assert check.still_acts(key, bob)
    assert len(again) > 0


def test_without_any_event_the_full_check_runs_again_after_the_recheck_period(bob, client, monkeypatch):
    """A session that ends unseen by any signal (a bulk update, say) is caught within the period."""
    client.force_login(bob)
    key = client.session.session_key
    check = sessions.ActingCheck()
    assert check.still_acts(key, bob)
    get_user_model().objects.filter(pk=bob.pk).update(is_active=False)  # no signal
    assert check.still_acts(key, bob), "inside the period the kept answer stands"
    monkeypatch.setattr(sessions, "ACTING_RECHECK_S", 0.0)
    assert not check.still_acts(key, bob)


def test_a_refusal_is_never_kept(bob, client):
    client.force_login(bob)
    key = client.session.session_key
    check = sessions.ActingCheck()
    assert not check.still_acts("not-a-session", bob)
    assert check.still_acts(key, bob)


def test_a_check_made_while_a_ban_is_not_yet_committed_is_not_kept_after_the_commit(bob, client, monkeypatch):
    """The ban's signal moves Bob's generation inside the staff's transaction. A socket checking in
    that moment reads the rows committed before the ban (acts) and keeps the answer under the new
    token; the commit moves the generation again, so Bob's next action runs the full check."""
    client.force_login(bob)
    key = client.session.session_key
    check = sessions.ActingCheck()
    staff = get_user_model().objects.create_user(username="warden", password="a-long-password-1", is_staff=True)
    with transaction.atomic():
        Sanction.objects.create(user=bob, kind="ban", reason="abusive", created_by=staff)
        with monkeypatch.context() as before_the_commit:  # another connection sees no ban yet
            before_the_commit.setattr(sessions, "session_still_acts", lambda *args: True)
            assert check.still_acts(key, bob)
    assert not check.still_acts(key, bob)


def _warden():
    return get_user_model().objects.create_user(username="warden", password="a-long-password-1", is_staff=True)


def test_the_full_check_reads_the_session_as_djangos_store_does(bob, alice, client):
    """Bob's session acts for Bob alone, while it is unexpired and its data untouched; a ban in
    force ends it, a lifted or ended ban does not. Three reads, one round trip on PostgreSQL."""
    client.force_login(bob)
    key = client.session.session_key
    with CaptureQueriesContext(connection) as trips:
        assert sessions.session_still_acts(key, bob)
    assert len(trips) == (1 if connection.vendor == "postgresql" else 3)
    assert not sessions.session_still_acts(key, alice), "it names Bob, not Alice"
    assert not sessions.session_still_acts("no-such-session", bob)
    row = Session.objects.get(session_key=key)
    data = row.session_data
    Session.objects.filter(pk=key).update(session_data=data[:-3] + "xyz")
    assert not sessions.session_still_acts(key, bob), "a tampered session decodes to nothing"
    Session.objects.filter(pk=key).update(session_data=data, expire_date=timezone.now() - timedelta(seconds=1))
    assert not sessions.session_still_acts(key, bob), "an expired session"
    Session.objects.filter(pk=key).update(expire_date=timezone.now() + timedelta(days=1))
    assert sessions.session_still_acts(key, bob)
    ended = Sanction.objects.create(
        user=bob, kind="ban", reason="r", created_by=_warden(), until=timezone.now() - timedelta(minutes=1)
    )
    lifted = Sanction.objects.create(
        user=bob, kind="ban", reason="r", created_by=ended.created_by, lifted_at=timezone.now()
    )
    Sanction.objects.create(user=bob, kind="mute", reason="r", created_by=ended.created_by)
    assert sessions.session_still_acts(key, bob), "an ended ban, a lifted one and a mute"
    Sanction.objects.create(user=bob, kind="ban", reason="r", created_by=lifted.created_by)
    assert not sessions.session_still_acts(key, bob)


def test_another_session_engine_is_read_through_its_own_store(bob, client, settings):
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
    client.force_login(bob)
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert sessions.session_still_acts(key, bob)
    bob.set_password("a-brand-new-password-2")
    bob.save()
    assert not sessions.session_still_acts(key, bob)

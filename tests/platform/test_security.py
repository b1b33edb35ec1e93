"""Origins are checked in full (scheme://host:port); an open socket re-checks its session on
every act; a public server cannot keep the development SECRET_KEY."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.core import checks
from django.core.management import call_command
from django.core.management.base import SystemCheckError

from shabneshin.origins import normalised
from tables.models import ChatMessage, Match, Move
from tests.platform.sockets import (
    action_message,
    close_thread_connections,
    connect,
    receive_html,
    receive_until,
    start_werewolf,
)


@pytest.fixture(autouse=True)
async def _close_connections_after():
    yield
    await close_thread_connections()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "origin",
    ["http://testserver:9999", "https://testserver", "http://evil.example", "null", "http://testserver.evil.example"],
)
async def test_a_socket_from_another_port_scheme_or_host_is_refused(alice, origin):
    match = await start_werewolf(alice)
    _, connected, _ = await connect(match.table.token, alice, origin=origin)
    assert not connected


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("origin", ["http://testserver", "http://testserver:80", "HTTP://TestServer"])
async def test_a_socket_from_the_sites_own_origin_is_accepted(alice, origin):
    match = await start_werewolf(alice)
    tab, connected, _ = await connect(match.table.token, alice, origin=origin)
    assert connected
    await tab.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_configured_origin_is_accepted_and_only_with_its_own_port(settings, alice):
    settings.WEBSOCKET_ORIGINS = ["https://play.example"]
    match = await start_werewolf(alice)
    tab, connected, _ = await connect(match.table.token, alice, origin="https://play.example")
    assert connected
    await tab.disconnect()
    _, connected, _ = await connect(match.table.token, alice, origin="https://play.example:8443")
    assert not connected


def test_origins_are_compared_with_their_default_ports_written_out():
    assert normalised("http://a.example") == normalised("http://a.example:80") == "http://a.example:80"
    assert normalised("https://a.example") == "https://a.example:443"
    assert normalised("ws://a.example") is None and normalised("null") is None
    assert normalised("http://user@a.example") is None and normalised("http://a.example:99999") is None


@database_sync_to_async
def _change_password_elsewhere(user) -> None:
    user.refresh_from_db()
    user.set_password("a-brand-new-password-2")
    user.save()


@pytest.mark.django_db(transaction=True)
async def test_after_a_password_change_an_open_socket_may_watch_but_not_act(alice):
    match = await start_werewolf(alice)
    tab, _, _ = await connect(match.table.token, alice)
    await receive_html(tab)
    await _change_password_elsewhere(alice)
    await tab.send_to(text_data=action_message({"type": "pick", "target": 2}, 0))
    assert "cannot do that" in await receive_until(tab, "cannot do that")
    await tab.send_to(text_data='{"chat": "still here?"}')
    assert "Only seated players" in await receive_until(tab, "Only seated players")
    counts = await database_sync_to_async(
        lambda: (Match.objects.get(pk=match.pk).version, Move.objects.count(), ChatMessage.objects.count())
    )()
    assert counts == (0, 0, 0)
    await tab.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_with_the_session_unchanged_the_same_move_is_applied(alice):
    match = await start_werewolf(alice)
    tab, _, _ = await connect(match.table.token, alice)
    await receive_html(tab)
    await tab.send_to(text_data=action_message({"type": "pick", "target": 2}, 0))
    await receive_until(tab, 'data-version="1"')
    assert await database_sync_to_async(Move.objects.count)() == 1
    await tab.disconnect()


def test_check_deploy_fails_on_the_development_secret_key_with_debug_off(settings):
    settings.DEBUG = False
    settings.SECRET_KEY = settings.DEV_SECRET_KEY
    ids = {m.id for m in checks.run_checks(include_deployment_checks=True)}
    assert "shabneshin.E003" in ids
    with pytest.raises(SystemCheckError, match="shabneshin.E003"):
        call_command("check", "--deploy", "--fail-level", "ERROR")


def test_check_deploy_accepts_a_real_secret_key_and_a_debug_server(settings):
    settings.DEBUG = False
    settings.SECRET_KEY = "x7" * 40
    assert "shabneshin.E003" not in {m.id for m in checks.run_checks(include_deployment_checks=True)}
    settings.DEBUG = True
    settings.SECRET_KEY = settings.DEV_SECRET_KEY
    assert "shabneshin.E003" not in {m.id for m in checks.run_checks(include_deployment_checks=True)}

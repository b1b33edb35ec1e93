"""The lobby cleans itself: abandoned open tables close, matches left to bots by every human are
aborted, each once, by the clock; the lobby lists only tables someone can join or watch, newest
first, a few per host; a private table never re-renders the lobby."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from accounts.models import User
from shabneshin.asgi import application
from tables import clock, janitor, lobby, seating
from tables.models import Match, Seat, Table
from tests.platform.helpers import fresh, play_until_over, started_werewolf
from tests.platform.sockets import close_thread_connections

pytestmark = pytest.mark.django_db


def _age(table: Table, seconds: float) -> None:
    Table.objects.filter(pk=table.pk).update(updated_at=timezone.now() - timedelta(seconds=seconds))


def _humanless_open_table(host) -> Table:
    table = seating.create_table(host, "werewolf", 5, Table.Visibility.PUBLIC)
    Seat.objects.filter(table=table).update(user=None)  # e.g. its guest host logged in elsewhere
    return table


def test_an_open_table_with_no_human_seated_closes_after_the_set_time_once(settings, alice):
    old = _humanless_open_table(alice)
    _age(old, settings.OPEN_TABLE_IDLE_S + 5)
    young = _humanless_open_table(alice)
    _age(young, settings.OPEN_TABLE_IDLE_S - 60)
    waiting = seating.create_table(alice, "werewolf", 5, Table.Visibility.PUBLIC)
    _age(waiting, settings.OPEN_TABLE_IDLE_S * 10)  # alice still sits there
    assert janitor.run_due(force=True) == 1
    assert janitor.run_due(force=True) == 0
    statuses = {t.pk: t.status for t in Table.objects.all()}
    assert statuses == {old.pk: "aborted", young.pk: "open", waiting.pk: "open"}


def _leave_to_bots(match: Match, idle_s: float) -> None:
    Seat.objects.filter(table=match.table, user__isnull=False).update(autopilot=True)
    Match.objects.filter(pk=match.pk).update(started_at=timezone.now() - timedelta(seconds=idle_s))


def test_a_match_every_human_left_to_bots_is_aborted_after_the_set_time(settings, alice, bob):
    abandoned = started_werewolf(alice, [bob])
    _leave_to_bots(abandoned, settings.ABANDONED_MATCH_IDLE_S + 5)
    recent = started_werewolf(bob)
    _leave_to_bots(recent, settings.ABANDONED_MATCH_IDLE_S - 60)
    answering = started_werewolf(User.objects.create_user("erin", password="x-long-pass-1"))
    Match.objects.filter(pk=answering.pk).update(started_at=timezone.now() - timedelta(days=1))
    assert janitor.run_due(force=True) == 1
    assert janitor.run_due(force=True) == 0
    assert [fresh(m).status for m in (abandoned, recent, answering)] == ["aborted", "playing", "playing"]
    assert fresh(abandoned).table.status == "aborted"


def test_a_match_of_bots_only_is_left_for_the_bots_to_finish(settings, alice):
    match = started_werewolf(alice)
    Seat.objects.filter(table=match.table, number=0).update(user=None, autopilot=True)
    Match.objects.filter(pk=match.pk).update(started_at=timezone.now() - timedelta(days=1))
    assert janitor.run_due(force=True) == 0
    assert play_until_over(match).status == "finished"


@pytest.mark.django_db(transaction=True)
async def test_the_clock_tick_runs_the_clean_up(settings, alice):
    table = await database_sync_to_async(_humanless_open_table)(alice)
    await database_sync_to_async(_age)(table, settings.OPEN_TABLE_IDLE_S + 5)
    janitor._last_run[0] = 0.0
    await clock.tick()
    status = await database_sync_to_async(lambda: Table.objects.get(pk=table.pk).status)()
    assert status == "aborted"
    await close_thread_connections()


def test_the_lobby_lists_joinable_tables_newest_first_and_a_few_per_host(settings, alice, bob, charlie):
    settings.LOBBY_PER_HOST = 3
    real = seating.create_table(bob, "werewolf", 5, Table.Visibility.PUBLIC)
    full = seating.create_table(charlie, "dracula", 2, Table.Visibility.PUBLIC)
    seating.fill_with_bots(full, charlie)
    spam = [seating.create_table(alice, "werewolf", 5, Table.Visibility.PUBLIC) for _ in range(150)]
    listed = lobby.listed_tables()
    assert [t.pk for t in listed] == [spam[-1].pk, spam[-2].pk, spam[-3].pk, real.pk]
    assert full not in listed, "a full table waiting for its start cannot be joined"


def test_running_public_matches_stay_listed_to_watch(alice):
    match = started_werewolf(alice)
    Table.objects.filter(pk=match.table_id).update(visibility=Table.Visibility.PUBLIC)
    assert [t.pk for t in lobby.listed_tables()] == [match.table_id]


@pytest.mark.django_db(transaction=True)
async def test_creating_or_starting_a_private_table_does_not_re_render_the_lobby(alice):
    tab = WebsocketCommunicator(
        application, "/ws/lobby/", headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")]
    )
    assert (await tab.connect(timeout=5))[0]
    await database_sync_to_async(started_werewolf)(alice)  # private: create, fill, start
    assert await tab.receive_nothing(timeout=0.5)
    await database_sync_to_async(seating.create_table)(alice, "werewolf", 5, "public")
    assert not await tab.receive_nothing(timeout=2), "a public table does re-render it"
    await tab.disconnect()
    await close_thread_connections()


def test_a_match_left_to_bots_is_kept_while_a_player_is_still_connected(settings, alice, bob):
    """Presence, from the seats' heartbeats: a player watching the bot play their seat (handed to
    it by the host, say) is still there, so the match goes on; once their sockets stop beating for
    the set time, it is abandoned."""
    from tables import presence

    match = started_werewolf(alice, [bob])
    _leave_to_bots(match, settings.ABANDONED_MATCH_IDLE_S + 5)
    now = timezone.now()
    presence.heartbeat_many({match.table_id: {bob.pk}}, now - timedelta(seconds=60))
    assert janitor.run_due(now, force=True) == 0
    assert fresh(match).status == "playing"
    Seat.objects.filter(table=match.table).update(seen_at=now - timedelta(seconds=settings.ABANDONED_MATCH_IDLE_S + 60))
    assert janitor.run_due(now, force=True) == 1
    ended = fresh(match)
    assert (ended.status, ended.end_reason) == ("aborted", "abandoned")

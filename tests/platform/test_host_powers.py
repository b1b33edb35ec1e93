"""The host's powers (issue 14): alice hosts, bob sits at her table, charlie watches with the link,
dave is an outsider. Every power goes through the moderator's one write path (or the table's row
lock before the start), is logged for everyone, and is refused to anyone but the host."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games.base import IllegalAction
from moderation.models import Block
from tables import decisions, host, host_views, moderator, presence, seating
from tables.models import Match, Move, Seat, Table, TableEvent
from tests.platform.helpers import fresh, play_until, started_werewolf, words_of
from tests.platform.sockets import close_thread_connections, connect, drain

pytestmark = pytest.mark.django_db


def _waiting_for_alice(alice, bob) -> Match:
    """A werewolf night where the bots have moved and alice's (the seer's) decision is open."""
    match = started_werewolf(alice, [bob])
    return play_until(match, lambda m: 0 in m.engine.awaiting(m.state) and m.next_deadline > timezone.now())


def _post(client, user, table: Table, **data):  # noqa: ANN001, ANN202
    client.force_login(user)
    return client.post(f"/t/{table.token}/host/", data, follow=True)


# --- pause and resume ------------------------------------------------------------------------------


def test_pause_shifts_every_deadline_by_the_paused_time_exactly(alice, bob):
    match = _waiting_for_alice(alice, bob)
    deadline, own = match.next_deadline, decisions.own_deadline(match, 0)
    paused_at = timezone.now()
    moderator.pause(match.pk, alice.pk, match.version, now=paused_at)
    paused = fresh(match)
    assert paused.paused_at == paused_at and decisions.own_deadline(paused, 0) is None
    later = paused_at + timedelta(minutes=7, seconds=3, microseconds=1234)
    assert moderator.run_due(later) == 0, "bots and the clock wait while paused"
    with pytest.raises(IllegalAction) as refused:
        moderator.submit(match.pk, 1, {"type": "ready"}, match.version, user_id=bob.pk)
    assert refused.value.code == "paused"
    moderator.resume(match.pk, alice.pk, match.version, now=later)
    resumed = fresh(match)
    shift = later - paused_at
    assert resumed.next_deadline == deadline + shift
    assert decisions.own_deadline(resumed, 0) == own + shift
    assert resumed.paused_at is None and resumed.version == match.version, "no move, no version"
    assert list(TableEvent.objects.filter(table=match.table).values_list("kind", flat=True)) == ["pause", "resume"]


def test_pausing_twice_or_resuming_a_running_game_is_refused_and_changes_nothing(alice, bob):
    match = _waiting_for_alice(alice, bob)
    with pytest.raises(IllegalAction) as refused:
        moderator.resume(match.pk, alice.pk, match.version)
    assert refused.value.code == "not_paused"
    moderator.pause(match.pk, alice.pk, match.version)
    with pytest.raises(IllegalAction) as refused:
        moderator.pause(match.pk, alice.pk, match.version)
    assert refused.value.code == "already_paused"
    with pytest.raises(IllegalAction) as refused:
        moderator.pause(match.pk, alice.pk, match.version + 5)  # a version the match never reached
    assert TableEvent.objects.filter(table=match.table).count() == 1


def test_a_pause_longer_than_the_limit_aborts_the_match_with_a_clear_message(settings, client, alice, bob):
    match = _waiting_for_alice(alice, bob)
    paused_at = timezone.now()
    moderator.pause(match.pk, alice.pk, match.version, now=paused_at)
    assert fresh(match).next_deadline == paused_at + timedelta(seconds=settings.HOST_PAUSE_LIMIT_S)
    moderator.run_due(paused_at + timedelta(seconds=settings.HOST_PAUSE_LIMIT_S - 1))
    assert fresh(match).status == "playing"
    moderator.run_due(paused_at + timedelta(seconds=settings.HOST_PAUSE_LIMIT_S + 1))
    ended = fresh(match)
    assert (ended.status, ended.end_reason, ended.table.status) == ("aborted", "paused", "aborted")
    client.force_login(bob)
    page = words_of(client.get(f"/t/{match.table.token}/").content.decode())
    assert "it stayed paused longer than allowed" in page
    assert "The game was paused for too long, so it was aborted." in page


def test_everyone_sees_paused_by_the_host_and_the_log_line(client, alice, bob, charlie):
    match = _waiting_for_alice(alice, bob)
    _post(client, alice, match.table, power="pause", version=match.version)
    for viewer in (bob, charlie, alice):
        client.force_login(viewer)
        page = words_of(client.get(f"/t/{match.table.token}/").content.decode())
        assert "Paused by Alice." in page, viewer
        assert "Alice paused the game." in page
        assert 'data-deadline=' not in page, "no countdown runs while paused"
    client.force_login(charlie)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "fa"
    page = words_of(client.get(f"/t/{match.table.token}/").content.decode())
    assert "Paused by" not in page and "Alice" in page


# --- extend ----------------------------------------------------------------------------------------


def test_extend_gives_the_current_decision_its_time_once_more_and_only_once(alice, bob):
    match = _waiting_for_alice(alice, bob)
    own = decisions.own_deadline(match, 0)
    limit = match.engine.time_limit(match.state, 0, match.table.timers())
    moderator.extend(match.pk, alice.pk, match.version)
    extended = fresh(match)
    assert decisions.own_deadline(extended, 0) == own + timedelta(seconds=limit)
    with pytest.raises(IllegalAction) as refused:
        moderator.extend(match.pk, alice.pk, match.version)
    assert refused.value.code == "already_extended"
    # A new decision window opens: its own extension is allowed, and one asked for before it is stale.
    before = extended.version
    moved_on = play_until(extended, lambda m: m.window_version > before and 0 in m.engine.awaiting(m.state))
    assert not decisions.is_extended(moved_on)
    with pytest.raises(IllegalAction) as refused:
        moderator.extend(match.pk, alice.pk, before)
    assert refused.value.code == "stale_version"
    moderator.extend(match.pk, alice.pk, moved_on.version)
    assert decisions.is_extended(fresh(match))
    assert TableEvent.objects.filter(table=match.table, kind="extend").count() == 2


def test_a_paused_and_extended_decision_keeps_its_extension_after_the_resume(alice, bob):
    match = _waiting_for_alice(alice, bob)
    moderator.extend(match.pk, alice.pk, match.version)
    own = decisions.own_deadline(fresh(match), 0)
    now = timezone.now()
    moderator.pause(match.pk, alice.pk, match.version, now=now)
    moderator.resume(match.pk, alice.pk, match.version, now=now + timedelta(seconds=30))
    assert decisions.own_deadline(fresh(match), 0) == own + timedelta(seconds=30)


# --- kick-to-bot -----------------------------------------------------------------------------------


def test_kick_to_bot_hands_the_seat_to_a_bot_until_the_player_takes_it_back(client, alice, bob):
    match = started_werewolf(alice, [bob])
    response = _post(client, alice, match.table, power="to_bot", target=f"1:{bob.pk}", version=match.version)
    assert b'data-testid="host-confirm"' in response.content, "asked first"
    assert not Seat.objects.get(table=match.table, number=1).autopilot
    _post(client, alice, match.table, power="to_bot", target=f"1:{bob.pk}", version=match.version, confirm="1")
    assert Seat.objects.get(table=match.table, number=1).autopilot
    played = play_until(match, lambda m: m.moves.filter(seat=1).exists())
    assert played.moves.get(seat=1).source == Move.Source.BOT, "the bot played bob's decision"
    client.force_login(bob)
    assert b'data-testid="take-back"' in client.get(f"/t/{match.table.token}/").content
    assert moderator.take_back_seat(played, 1)
    assert not Seat.objects.get(table=match.table, number=1).autopilot
    page = words_of(client.get(f"/t/{match.table.token}/").content.decode())
    assert "Alice handed Bob's seat to a practice bot until they take it back." in page


def test_kick_to_bot_of_a_seat_that_changed_hands_or_of_the_host_is_refused(alice, bob):
    match = started_werewolf(alice, [bob])
    for seat, player in ((1, alice.pk), (2, bob.pk), (0, alice.pk)):
        with pytest.raises(IllegalAction) as refused:
            moderator.hand_to_bot(match.pk, alice.pk, seat, player, match.version)
        assert refused.value.code == "no_such_player"
    moderator.hand_to_bot(match.pk, alice.pk, 1, bob.pk, match.version)
    with pytest.raises(IllegalAction) as refused:
        moderator.hand_to_bot(match.pk, alice.pk, 1, bob.pk, match.version)
    assert refused.value.code == "already_bot"


# --- before the start ------------------------------------------------------------------------------


def test_the_host_removes_a_seated_player_whose_seat_empties_and_who_cannot_sit_again(client, alice, bob):
    table = seating.create_table(alice, "werewolf", 5, "private")
    seating.sit(table, bob)
    _post(client, alice, table, power="kick", target=f"1:{bob.pk}", confirm="1")
    assert Seat.objects.get(table=table, number=1).is_empty
    with pytest.raises(seating.SeatingError) as refused:
        seating.sit(table, bob)
    assert "removed you" in refused.value.message
    client.force_login(bob)
    assert "Alice removed Bob from the table." in words_of(client.get(f"/t/{table.token}/").content.decode())


def _offers_a_seat(html: str) -> bool:
    return 'data-testid="sit' in html or "/sit/" in html


def test_a_removed_player_is_offered_no_seat_on_the_page_but_told_why(client, alice, bob, charlie):
    table = seating.create_table(alice, "werewolf", 5, "private")
    seating.sit(table, bob)
    _post(client, alice, table, power="kick", target=f"1:{bob.pk}", confirm="1")
    client.force_login(bob)
    page = client.get(f"/t/{table.token}/").content.decode()
    assert not _offers_a_seat(page), "neither 'Take a seat' nor any 'Sit here'"
    assert 'data-testid="removed-note"' in page and "The host removed you from this table." in words_of(page)
    client.force_login(charlie)  # a spectator the host did not remove still may sit
    page = client.get(f"/t/{table.token}/").content.decode()
    assert 'data-testid="sit"' in page and 'data-testid="sit-1"' in page and "removed-note" not in page
    response = client.post(f"/t/{table.token}/sit/", {"seat": "1"}, follow=True)
    assert Seat.objects.get(table=table, number=1).user_id == charlie.pk
    client.force_login(bob)  # the server still refuses a forged or stale form
    response = client.post(f"/t/{table.token}/sit/", {"seat": "2"}, follow=True)
    assert b"The host removed you from this table." in response.content
    assert not Seat.objects.filter(table=table, user=bob).exists()


@pytest.mark.django_db(transaction=True)
async def test_a_removed_players_socket_stops_offering_seats_and_a_new_one_never_offers_them(alice, bob, charlie):
    table = await database_sync_to_async(lambda: seating.create_table(alice, "werewolf", 5, "private"))()
    await database_sync_to_async(seating.sit)(table, bob)
    bob_tab, ok, _ = await connect(table.token, bob)
    charlie_tab, ok_c, _ = await connect(table.token, charlie)
    assert ok and ok_c
    await drain(bob_tab)
    await drain(charlie_tab)
    await database_sync_to_async(host.kick)(table, alice, 1, bob.pk)
    pushed = "".join(await drain(bob_tab))
    assert 'id="seats"' in pushed and not _offers_a_seat(pushed), "the push after the kick offers bob no seat"
    assert 'data-testid="removed-note"' in pushed
    assert _offers_a_seat("".join(await drain(charlie_tab))), "charlie, watching, still may sit"
    await bob_tab.disconnect()
    bob_again, ok, _ = await connect(table.token, bob)  # a reload, or another tab
    assert ok
    first = "".join(await drain(bob_again))
    assert 'id="seats"' in first and not _offers_a_seat(first) and 'data-testid="removed-note"' in first
    await bob_again.disconnect()
    await charlie_tab.disconnect()
    await close_thread_connections()


def test_a_player_the_host_blocked_is_offered_no_seat_at_their_tables_but_told_why(client, alice, bob, charlie):
    Block.objects.create(blocker=alice, blocked=bob)
    table = seating.create_table(alice, "werewolf", 5, "public")
    client.force_login(bob)
    page = client.get(f"/t/{table.token}/").content.decode()
    assert not _offers_a_seat(page), "neither 'Take a seat' nor any 'Sit here'"
    assert 'data-testid="blocked-note"' in page
    assert "The host of this table does not want you at their tables." in words_of(page)
    client.force_login(charlie)  # a player the host did not block still may sit
    page = client.get(f"/t/{table.token}/").content.decode()
    assert 'data-testid="sit"' in page and 'data-testid="sit-1"' in page and "blocked-note" not in page
    client.force_login(bob)  # the server still refuses a forged or stale form
    response = client.post(f"/t/{table.token}/sit/", {"seat": "1"}, follow=True)
    assert b"does not want you at their tables" in response.content
    assert not Seat.objects.filter(table=table, user=bob).exists()


def test_a_block_costs_an_open_tables_load_one_query_and_a_running_tables_none(alice, bob):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tables import renderer

    table = seating.create_table(alice, "werewolf", 5, "public")
    renderer.load(table.pk)  # the chat and the log, read once
    with CaptureQueriesContext(connection) as captured:
        renderer.load(table.pk)
    assert sum("moderation_block" in q["sql"] for q in captured.captured_queries) == 1
    match = started_werewolf(alice, [bob])
    renderer.load(match.table_id)
    with CaptureQueriesContext(connection) as captured:
        renderer.load(match.table_id)
    assert not any("moderation_block" in q["sql"] for q in captured.captured_queries)


@pytest.mark.django_db(transaction=True)
async def test_a_spectators_socket_stops_offering_seats_once_the_host_blocks_them(alice, bob, charlie):
    table = await database_sync_to_async(lambda: seating.create_table(alice, "werewolf", 5, "public"))()
    earlier = await database_sync_to_async(lambda: seating.create_table(alice, "werewolf", 5, "private"))()
    await database_sync_to_async(seating.sit)(earlier, bob)  # where alice meets him, and blocks him
    bob_tab, ok, _ = await connect(table.token, bob)
    charlie_tab, ok_c, _ = await connect(table.token, charlie)
    assert ok and ok_c
    assert _offers_a_seat("".join(await drain(bob_tab)))
    await drain(charlie_tab)
    await database_sync_to_async(_block_from_the_players_page)(earlier, alice, bob)
    pushed = "".join(await drain(bob_tab))
    assert 'id="seats"' in pushed and not _offers_a_seat(pushed) and 'data-testid="blocked-note"' in pushed
    assert "blocked-note" not in "".join(await drain(charlie_tab)), "charlie, watching, is not told so"
    await bob_tab.disconnect()
    await charlie_tab.disconnect()
    await close_thread_connections()


def _block_from_the_players_page(table: Table, blocker, blocked) -> None:  # noqa: ANN001
    from django.test import Client
    from django.urls import reverse

    client = Client()
    client.force_login(blocker)
    assert client.post(reverse("moderation:block", args=[table.token, blocked.pk]), {"on": "1"}).status_code == 302


def test_the_host_changes_options_and_seat_count_checked_like_a_new_table(client, alice, bob):
    table = seating.create_table(alice, "insidejob", 4, "private")
    seating.sit(table, bob)
    seating.add_bot(table, alice, 3)
    client.force_login(alice)
    url = f"/t/{table.token}/host/settings/"
    assert client.get(url).status_code == 200
    form = {**host_views._initial(table), "seat_count": "3", "visibility": "public", "speed": "fast"}
    form["opt_wagers"] = "on"
    assert client.post(url, form).status_code == 302
    table.refresh_from_db()
    assert (table.seat_count, table.visibility, table.speed, table.options["wagers"]) == (3, "public", "fast", True)
    assert list(table.seats.values_list("number", flat=True)) == [0, 1, 2], "the bot's seat went"
    refused = client.post(url, {**form, "seat_count": "9"})
    assert refused.status_code == 200 and table.seats.count() == 3
    seating.sit(table, User_named("erin"), 2)
    refused = client.post(url, {**form, "seat_count": "2"})
    assert b"Seat 3 is taken" in refused.content
    table.refresh_from_db()
    assert table.seat_count == 3 and table.seats.count() == 3
    form["seat_count"] = "5"
    assert client.post(url, form).status_code == 302
    assert list(table.seats.values_list("number", flat=True)) == [0, 1, 2, 3, 4], "new seats are empty"
    client.force_login(bob)
    page = words_of(client.get(f"/t/{table.token}/").content.decode())
    assert "Alice changed the table's settings (3 seats)." in page


def User_named(name: str):  # noqa: N802, ANN201
    from accounts.models import User

    return User.objects.create_user(name, password="a-long-password-1", display_name=name.title())


def test_the_host_hands_the_role_to_another_seated_player_before_and_during_the_match(client, alice, bob, charlie):
    table = seating.create_table(alice, "werewolf", 5, "private")
    seating.sit(table, bob)
    seating.sit(table, charlie)
    _post(client, alice, table, power="hand_over", target=f"2:{charlie.pk}", confirm="1")
    assert Table.objects.get(pk=table.pk).host_id == charlie.pk
    seating.fill_with_bots(table, charlie)
    seating.start(table, charlie, seed=1)
    match = Match.objects.get(table=table)
    _post(client, charlie, table, power="hand_over", target=f"1:{bob.pk}", confirm="1")
    assert Table.objects.get(pk=table.pk).host_id == bob.pk
    moderator.pause(match.pk, bob.pk, match.version)  # the new host's powers work at once
    with pytest.raises(IllegalAction):
        moderator.resume(match.pk, charlie.pk, match.version)  # and the old host's are gone
    kinds = list(TableEvent.objects.filter(table=table).values_list("kind", flat=True))
    assert kinds == ["host", "host", "pause"]


# --- the host away -------------------------------------------------------------------------------


def test_a_host_away_longer_than_the_set_time_hands_the_role_to_the_longest_seated_connected_human(
    settings, alice, bob, charlie, dave
):
    table = seating.create_table(alice, "werewolf", 5, "private")
    for player in (bob, charlie, dave):
        seating.sit(table, player)
    now = timezone.now()
    long_ago = now - timedelta(seconds=settings.HOST_AWAY_S + 10)
    Seat.objects.filter(table=table, user=alice).update(seated_at=long_ago, seen_at=long_ago)
    Seat.objects.filter(table=table, user=bob).update(seated_at=long_ago)  # seated long ago, but gone
    Seat.objects.filter(table=table, user=charlie).update(seated_at=now - timedelta(seconds=60))
    presence.heartbeat_many({table.pk: {charlie.pk, dave.pk}}, now)
    assert host.pass_from_away_hosts(now) == 1
    assert Table.objects.get(pk=table.pk).host_id == charlie.pk, "the longest seated of those connected"
    assert host.pass_from_away_hosts(now) == 0, "once"
    event = TableEvent.objects.get(table=table)
    assert (event.kind, event.params["actor"], event.params["target"]) == ("host_away", "Alice", "Charlie")


def test_a_connected_host_or_a_table_with_nobody_else_connected_keeps_its_host(settings, alice, bob):
    table = seating.create_table(alice, "werewolf", 5, "private")
    seating.sit(table, bob)
    now = timezone.now()
    long_ago = now - timedelta(seconds=settings.HOST_AWAY_S + 10)
    Seat.objects.filter(table=table).update(seated_at=long_ago, seen_at=long_ago)
    assert host.pass_from_away_hosts(now) == 0, "nobody connected to take it"
    presence.heartbeat_many({table.pk: {alice.pk, bob.pk}}, now)
    assert host.pass_from_away_hosts(now) == 0, "the host is here"
    assert Table.objects.get(pk=table.pk).host_id == alice.pk


@pytest.mark.django_db(transaction=True)
async def test_host_hand_over_on_disconnect_read_from_the_sockets_heartbeats(settings, alice, bob):
    settings.HOST_AWAY_S = 0.6
    settings.PRESENCE_STALE_S = 0.4
    settings.PRESENCE_HEARTBEAT_S = 0.1
    match = await database_sync_to_async(started_werewolf)(alice, [bob])
    token = (await database_sync_to_async(lambda: match.table.token)())
    alice_tab, ok_a, _ = await connect(token, alice)
    bob_tab, ok_b, _ = await connect(token, bob)
    assert ok_a and ok_b
    await drain(alice_tab)
    await drain(bob_tab)
    assert await database_sync_to_async(host.pass_from_away_hosts)() == 0, "both are connected"
    await alice_tab.disconnect()  # alice's tab closes: her heartbeat stops
    import asyncio

    await asyncio.sleep(1.0)
    assert await database_sync_to_async(host.pass_from_away_hosts)() == 1
    host_id = await database_sync_to_async(lambda: Table.objects.get(pk=match.table_id).host_id)()
    assert host_id == bob.pk
    html = "".join(await drain(bob_tab, quiet=0.5))
    assert 'data-testid="host-menu"' in html, "bob's page now shows him the host's menu"
    await bob_tab.disconnect()
    await close_thread_connections()


# --- nobody but the host -----------------------------------------------------------------------------


def _state(table: Table) -> tuple:
    table = Table.objects.get(pk=table.pk)
    match = Match.objects.filter(table=table).first()
    seats = tuple(Seat.objects.filter(table=table).values_list("number", "user_id", "is_bot", "autopilot"))
    match_bits = (match.paused_at, match.extended_window, match.next_deadline, match.version) if match else None
    return (table.host_id, table.seat_count, table.options, table.speed, seats, match_bits, table.events.count())


@pytest.mark.parametrize("persona", ["bob", "charlie", "dave"])
def test_nobody_but_the_host_can_use_any_power_and_none_sees_the_menu(client, persona, alice, bob, charlie, dave):
    who = {"bob": bob, "charlie": charlie, "dave": dave}[persona]
    table = seating.create_table(alice, "werewolf", 5, "private")
    seating.sit(table, bob)
    before = _state(table)
    for power, target in (("kick", f"0:{alice.pk}"), ("kick", f"1:{bob.pk}"), ("hand_over", f"0:{alice.pk}")):
        for confirm in ("", "1"):
            response = _post(client, who, table, power=power, target=target, confirm=confirm)
            assert b"Only the host can do that." in response.content, (power, confirm)
            assert b'data-testid="host-confirm"' not in response.content
    response = client.post(f"/t/{table.token}/host/settings/", {"seat_count": "6", "visibility": "public"}, follow=True)
    assert b"Only the host can change the settings" in response.content
    assert client.get(f"/t/{table.token}/host/settings/").status_code == 302
    assert _state(table) == before
    seating.fill_with_bots(table, alice)
    seating.start(table, alice, seed=1)
    match = Match.objects.get(table=table)
    before = _state(table)
    for power in ("pause", "resume", "extend", "to_bot", "hand_over", "end"):
        response = _post(client, who, table, power=power, target=f"1:{bob.pk}", version=match.version, confirm="1")
        assert b"Only the host can do that." in response.content, power
    for power in ("pause", "extend", "resume", "end_practice"):
        with pytest.raises(IllegalAction) as refused:
            getattr(moderator, power)(match.pk, who.pk, match.version)
        assert refused.value.code == "not_host"
    assert _state(table) == before
    page = client.get(f"/t/{table.token}/").content
    assert b'data-testid="host-menu"' not in page and b"/host/" not in page
    client.force_login(alice)
    assert b'data-testid="host-menu"' in client.get(f"/t/{table.token}/").content


def test_a_forged_power_or_target_is_refused_with_a_message_and_changes_nothing(client, alice, bob):
    match = started_werewolf(alice, [bob])
    before = _state(match.table)
    for data in (
        {"power": "explode"},
        {"power": "to_bot", "target": "1", "version": match.version, "confirm": "1"},
        {"power": "to_bot", "target": f"1:{bob.pk}", "version": "x", "confirm": "1"},
        {"power": "to_bot", "target": f"9999999999999:{bob.pk}", "version": match.version, "confirm": "1"},
        {"power": "pause", "version": match.version + 1},
        {"power": "kick", "target": f"1:{bob.pk}", "confirm": "1"},  # the game has started
    ):
        response = _post(client, alice, match.table, **data)
        assert b'class="error"' in response.content or b"messages" in response.content, data
    assert _state(match.table) == before


@pytest.mark.django_db(transaction=True)
async def test_a_forged_frame_for_a_power_is_refused_on_the_socket_and_changes_nothing(alice, bob):
    import json

    match = await database_sync_to_async(started_werewolf)(alice, [bob])
    token = await database_sync_to_async(lambda: match.table.token)()
    for who in (bob, alice):  # the powers have no frame, not even for the host: forms only
        tab, ok, _ = await connect(token, who)
        assert ok
        await drain(tab)
        for frame in (
            {"power": "pause", "version": match.version},
            {"action": json.dumps({"type": "pause"}), "version": str(match.version)},
        ):
            await tab.send_to(text_data=json.dumps(frame))
            answer = "".join(await drain(tab))
            assert 'data-testid="error"' in answer, answer  # a readable refusal (no power by frame)
        await tab.disconnect()
    state = await database_sync_to_async(lambda: (fresh(match).paused_at, TableEvent.objects.count()))()
    assert state == (None, 0)
    await close_thread_connections()


def test_bots_wait_in_the_chat_too_while_the_game_is_paused(alice):
    from tables import bot_chat

    match = started_werewolf(alice)
    day = play_until(match, lambda m: m.state["public"]["phase"] == "day_discussion")
    later = day.window_started_at + timedelta(seconds=0.9 * day.table.timers()["discussion_s"])
    moderator.pause(day.pk, alice.pk, day.version)
    assert bot_chat.run_due(later) == 0
    assert not day.table.chat.filter(author__isnull=True).exists()
    moderator.resume(day.pk, alice.pk, day.version, now=day.window_started_at)  # a pause of no time
    assert bot_chat.run_due(later) >= 1, "the same moment, unpaused, has a wolf bot talking"


@pytest.mark.django_db(transaction=True)
def test_a_pause_racing_the_clock_stops_every_move_after_it(settings, alice, bob, services_in_use):
    """Row locks, for real (PostgreSQL in the services run): the clock applies bot moves in a
    thread of its own while the host pauses; once the pause is committed no move follows it, and
    every move before it is in the log once."""
    import threading

    from django.db import connection

    settings.TIMER_SCALE = 0.001  # timeouts at once: the clock has a move due at every look
    match = started_werewolf(alice, [bob])
    stop = threading.Event()

    def clock() -> None:
        try:
            while not stop.is_set():
                moderator.run_due()
        finally:
            connection.close()

    racing = threading.Thread(target=clock)
    racing.start()
    try:
        import time

        until = time.monotonic() + 30
        while fresh(match).version < 3 and time.monotonic() < until:
            time.sleep(0.01)
        assert fresh(match).version >= 3, "the clock thread moved the match"
        moderator.pause(match.pk, alice.pk, fresh(match).version)
        paused = fresh(match)
        for _ in range(50):
            moderator.run_due()
    finally:
        stop.set()
        racing.join(timeout=30)
    after = fresh(match)
    assert after.status == "playing" and after.version == paused.version, "no move after the pause"
    seqs = list(after.moves.order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, after.version + 1))


def test_a_host_event_sits_at_its_moment_in_each_seats_log(alice, bob):
    from games.base import visible_log
    from tables import renderer

    match = _waiting_for_alice(alice, bob)
    moderator.pause(match.pk, alice.pk, match.version)
    then = list(match.state["log"])
    moderator.resume(match.pk, alice.pk, match.version)
    later = play_until(match, lambda m: len(m.state["log"]) > len(then) + 2)
    snapshot = renderer.load(later.table_id)
    for user, seat in ((bob, 1), (alice, 0), (None, None)):
        items = renderer.build_context(snapshot, snapshot.audience(user, "en"))["log_items"]
        kinds = [i for i, item in enumerate(items) if "host-event-" in item]
        before = len(visible_log(then, seat))
        assert kinds == [before, before + 1], (seat, kinds)  # the pause, then the resume, at that moment
        assert len(items) == len(visible_log(later.state["log"], seat)) + 2


def test_the_menu_is_gone_once_the_match_is_over(client, alice, bob):
    from tests.platform.helpers import play_until_over

    match = started_werewolf(alice, [bob])
    client.force_login(alice)
    assert b'data-testid="host-menu"' in client.get(f"/t/{match.table.token}/").content
    play_until_over(match)
    assert b'data-testid="host-menu"' not in client.get(f"/t/{match.table.token}/").content



# --- ending a practice game ------------------------------------------------------------------------


def test_a_host_alone_with_bots_ends_the_practice_game_after_confirming(client, alice):
    """Alice plays alone with bots and wants to stop: asked first, then the game ends, unrated, and
    everyone reads why."""
    match = started_werewolf(alice)
    client.force_login(alice)
    assert b'data-testid="host-end"' in client.get(f"/t/{match.table.token}/").content
    asked = _post(client, alice, match.table, power="end", version=match.version)
    assert b'data-testid="host-confirm"' in asked.content and fresh(match).status == Match.Status.PLAYING
    _post(client, alice, match.table, power="end", version=match.version, confirm="1")
    ended = fresh(match)
    assert (ended.status, ended.end_reason) == (Match.Status.ABORTED, "host")
    assert TableEvent.objects.filter(table=match.table, kind=TableEvent.Kind.END, actor=alice).exists()
    page = words_of(client.get(f"/t/{match.table.token}/", HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert "This practice game was ended by its host." in page and "Alice ended this practice game." in page
    assert "It is your night turn." not in page and "Waiting for" not in page, "nobody's turn any more"


def test_a_game_another_person_still_plays_cannot_be_ended_by_the_host(client, alice, bob):
    """Bob plays too: Alice cannot end the game on him, and is not offered to."""
    match = started_werewolf(alice, [bob])
    client.force_login(alice)
    assert b'data-testid="host-end"' not in client.get(f"/t/{match.table.token}/").content
    response = _post(client, alice, match.table, power="end", version=match.version, confirm="1")
    assert b"Other people are still playing" in response.content
    assert fresh(match).status == Match.Status.PLAYING
    moderator.hand_to_bot(match.pk, alice.pk, 1, bob.pk, match.version)  # Bob left: a bot plays him
    moderator.end_practice(match.pk, alice.pk, fresh(match).version)
    assert fresh(match).status == Match.Status.ABORTED

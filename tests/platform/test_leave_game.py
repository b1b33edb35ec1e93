"""Leaving a running game: alice hosts, bob plays at her table and leaves, charlie watches with the
link. The seat goes to the autopilot for good, everyone is told, and the leave is a loss for the
ratings (history.ratings: a leave never turns a rated game into an unrated one)."""

from __future__ import annotations

import json
import random
import re
from datetime import timedelta
from html import unescape

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games.base import IllegalAction
from history import ratings
from history.models import RatingChange
from tables import chat, moderator, seating
from tables.models import Match, Move, Seat, Table, TableEvent
from tests.platform.helpers import fresh, play_until, started_werewolf, words_of
from tests.platform.replaying import people
from tests.platform.sockets import action_message, close_thread_connections, connect, drain

pytestmark = pytest.mark.django_db

LEFT_LINE = "Bob left the game; a practice bot plays their seat to the end."


def _page(client, user, table: Table, language: str = "en") -> str:
    client.force_login(user)
    return client.get(f"/t/{table.token}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()


def _leave(client, user, table: Table, **data):  # noqa: ANN001, ANN202
    client.force_login(user)
    return client.post(f"/t/{table.token}/leave-game/", data, follow=True)


# --- at the table ----------------------------------------------------------------------------------


def test_a_seated_player_is_offered_leave_the_game_and_a_spectator_is_not(client, alice, bob, charlie):
    match = started_werewolf(alice, [bob])
    assert 'data-testid="leave-game"' in _page(client, bob, match.table)
    assert 'data-testid="leave-game"' not in _page(client, charlie, match.table)


def test_leaving_is_asked_first_then_a_bot_plays_the_seat_for_good_and_everyone_is_told(client, alice, bob, charlie):
    match = started_werewolf(alice, [bob])
    asked = _leave(client, bob, match.table)
    assert b'data-testid="leave-game-confirm"' in asked.content, "asked first"
    assert b"counts for the ratings" not in asked.content, "a game with practice bots is not rated"
    assert not Seat.objects.get(table=match.table, number=1).autopilot, "nothing changed yet"
    _leave(client, bob, match.table, confirm="1")
    seat = Seat.objects.get(table=match.table, number=1)
    assert (seat.autopilot, seat.left_at_version, seat.user_id) == (True, match.version, bob.pk)
    event = TableEvent.objects.get(table=match.table)
    assert (event.kind, event.actor_id, event.params["actor"]) == ("left", bob.pk, "Bob")
    for viewer in (alice, charlie, bob):
        assert LEFT_LINE in words_of(_page(client, viewer, match.table)), viewer
    persian = words_of(_page(client, charlie, match.table, "fa"))
    assert "Bob" in persian and LEFT_LINE not in persian and "ربات" in persian
    played = play_until(match, lambda m: m.moves.filter(seat=1).exists())
    assert played.moves.get(seat=1).source == Move.Source.BOT, "the autopilot plays bob's seat"


def test_a_player_who_left_watches_as_a_spectator_and_cannot_take_the_seat_back(client, alice, bob):
    match = started_werewolf(alice, [bob])
    moderator.leave_game(match.pk, bob.pk)
    page = _page(client, bob, match.table)
    assert 'data-testid="left-game"' in page and 'data-testid="left-1"' in page
    for gone in ('data-testid="take-back"', 'data-testid="leave-game"', 'data-testid="my-role"', "ws-send class"):
        assert gone not in page, gone
    assert moderator.take_back_seat(match, 1) is False
    with pytest.raises(IllegalAction) as refused:
        moderator.submit(match.pk, 1, {"type": "pick", "target": 0}, match.version, user_id=bob.pk)
    assert refused.value.code == "left_game"
    with pytest.raises(chat.ChatRefused):
        chat.post(match.table, bob, "I was the villager")
    again = _leave(client, bob, match.table, confirm="1")
    assert b"You left this game" in again.content
    assert TableEvent.objects.filter(table=match.table).count() == 1, "leaving twice changes nothing"


def test_leaving_is_refused_with_a_reason_to_a_spectator_and_after_the_game(client, alice, bob, charlie):
    match = started_werewolf(alice, [bob])
    refused = _leave(client, charlie, match.table, confirm="1")
    assert b"You have no seat in this game." in refused.content
    open_table = seating.create_table(alice, "werewolf", 5, "private")
    refused = _leave(client, alice, open_table, confirm="1")
    assert b"This table has no game being played." in refused.content
    assert not Seat.objects.filter(left_at_version__isnull=False).exists()


def test_a_dead_werewolf_player_may_simply_go_and_is_not_offered_a_leave_that_would_be_a_loss(client, alice, bob):
    match = started_werewolf(alice, [bob])
    state = match.state
    state["public"]["alive"][1] = False  # bob was killed: he has no decision left in this game
    Match.objects.filter(pk=match.pk).update(state=state)
    assert 'data-testid="leave-game"' not in _page(client, bob, match.table)
    refused = _leave(client, bob, match.table)
    assert b"You are out of this game already" in refused.content, "refused with the reason, not asked"
    with pytest.raises(IllegalAction) as refused_here:
        moderator.leave_game(match.pk, bob.pk)
    assert refused_here.value.code == "out_already"
    assert not Seat.objects.get(table=match.table, number=1).left_game


def test_a_leaving_host_hands_the_role_to_the_longest_seated_who_still_plays(client, alice, bob, charlie):
    table = seating.create_table(alice, "werewolf", 5, "private")
    seating.sit(table, bob)
    seating.sit(table, charlie)
    seating.fill_with_bots(table, alice)
    match = seating.start(table, alice, seed=1)
    moderator.leave_game(match.pk, bob.pk)
    moderator.leave_game(match.pk, alice.pk)
    assert Table.objects.get(pk=table.pk).host_id == charlie.pk, "bob left: charlie is the one still playing"
    kinds = list(TableEvent.objects.filter(table=table).values_list("kind", "target_id"))
    assert kinds == [("left", None), ("left", None), ("host", charlie.pk)]
    assert 'data-testid="host-menu"' in _page(client, charlie, table)


@pytest.mark.django_db(transaction=True)
async def test_the_socket_of_a_player_who_left_shows_the_spectators_view_and_refuses_his_moves(alice, bob):
    match = await database_sync_to_async(started_werewolf)(alice, [bob])
    token = await database_sync_to_async(lambda: match.table.token)()
    tab, ok, _ = await connect(token, bob)
    assert ok
    before = "".join(await drain(tab))
    assert 'data-testid="my-role"' in before and 'data-testid="leave-game"' in before
    await database_sync_to_async(moderator.leave_game)(match.pk, bob.pk)
    pushed = "".join(await drain(tab))
    assert 'data-testid="left-game"' in pushed and 'data-testid="my-role"' not in pushed
    assert "Bob</bdi> left the game" in pushed and 'data-testid="leave-game"' not in pushed
    await tab.send_to(text_data=action_message({"type": "pick", "target": 0}, match.version))
    answer = "".join(await drain(tab))
    assert "You left this game" in answer
    await tab.send_to(text_data=json.dumps({"resume": "1"}))  # "take back my seat", forged
    await drain(tab)
    assert await database_sync_to_async(lambda: Seat.objects.get(table=match.table_id, number=1).autopilot)()
    await tab.disconnect()
    await close_thread_connections()


# --- the ratings: a leave is a loss ---------------------------------------------------------------


def test_a_leaver_is_placed_below_everyone_who_stayed_who_keep_their_result():
    village_won = [([0, 1, 3], 1), ([2, 4], 2)]
    assert ratings.with_leavers(village_won, {1}) == [([0, 3], 1), ([2, 4], 2), ([1], 3)]
    assert ratings.with_leavers(village_won, {2, 4}) == [([0, 1, 3], 1), ([2], 2), ([4], 2)]
    assert ratings.with_leavers([([0], 1), ([1], 2)], {0}) == [([1], 1), ([0], 2)], "a won seat left: lost"
    assert ratings.with_leavers([([0], 1), ([1], 1), ([2], 1)], {2}) == [([0], 1), ([1], 1), ([2], 2)]
    assert ratings.with_leavers([([0], 3), ([1], 2), ([2], 1)], {2}) == [([0], 2), ([1], 1), ([2], 3)]
    assert ratings.with_leavers(village_won, {0, 1, 2, 3, 4}) == [], "a match everyone left rates nobody"
    assert ratings.with_leavers([], {1}) == [], "a result that rates nobody still rates nobody"


def _stayer_plays_and_the_autopilot_the_rest(match: Match, stayers: set[int]) -> Match:
    """Play to the end: the stayers' moves random legal ones of theirs, the rest the clock's."""
    rng = random.Random(match.pk)
    now = timezone.now()
    for _ in range(5000):
        match = fresh(match)
        if match.status != Match.Status.PLAYING:
            return match
        awaited = [s for s in sorted(match.engine.awaiting(match.state)) if s in stayers]
        if awaited:
            legal = [a for a in match.engine.legal_actions(match.state, awaited[0]) if a.get("type") != "timeout"]
            moderator.submit(match.pk, awaited[0], rng.choice(legal), match.version)
        else:
            now = max(now, match.next_deadline or now) + timedelta(milliseconds=1)
            moderator.run_due(now)
    raise AssertionError("the match did not end")


def test_a_rated_game_someone_left_stays_rated_and_is_a_loss_for_the_leaver_though_his_seat_won(db):
    """Dracula between two people: p1 leaves at once, and the autopilot plays his seat to the end
    and wins it (the Dracula bot beats random moves). The match is still rated, and p1 loses
    rating while p0, who stayed, gains: leaving can neither escape a loss nor let the bot win."""
    p0, p1 = people(2)
    table = seating.create_table(p0, "dracula", 2, "private")
    seating.sit(table, p1)
    match = seating.start(table, p0, seed=0)
    assert ratings.counts_so_far(match)
    moderator.leave_game(match.pk, p1.pk)
    assert ratings.counts_so_far(fresh(match)), "the leave keeps it rated"
    over = _stayer_plays_and_the_autopilot_the_rest(match, {0})
    assert over.moves.filter(seat=1, source=Move.Source.BOT).exists(), "the autopilot moved for p1"
    assert over.result["winners"] == [1], "premise: the bot won p1's seat the game"
    assert ratings.rate_match(over.pk)
    change = {c.user_id: c for c in RatingChange.objects.filter(match=over)}
    assert change[p1.pk].mu_after < change[p1.pk].mu_before, "the leaver lost"
    assert change[p0.pk].mu_after > change[p0.pk].mu_before, "the one who stayed won"
    assert ratings.recompute() == [], "a full recompute agrees"


def _p1_missed_a_decision_then_left() -> tuple[Match, list]:
    """P0 hosts P1 at Dracula; the autopilot moves for P1 (missed decisions), then P1 leaves."""
    p0, p1 = people(2)
    table = seating.create_table(p0, "dracula", 2, "private")
    seating.sit(table, p1)
    match = seating.start(table, p0, seed=1)
    Seat.objects.filter(table=table, number=1).update(autopilot=True)  # missed decisions
    match = play_until(match, lambda m: m.moves.filter(seat=1, source=Move.Source.BOT).exists())
    moderator.leave_game(match.pk, p1.pk)
    return fresh(match), [p0, p1]


def test_a_bot_move_for_a_seat_before_its_player_left_still_makes_the_match_unrated(db):
    match, _ = _p1_missed_a_decision_then_left()
    assert not ratings.counts_so_far(match), "a match the autopilot played in before the leave"


def test_the_host_cannot_end_a_rated_game_someone_left_so_the_leave_still_counts(client):
    p0, p1 = people(2)
    table = seating.create_table(p0, "dracula", 2, "private")
    seating.sit(table, p1)
    match = seating.start(table, p0, seed=1)
    moderator.leave_game(match.pk, p1.pk)
    with pytest.raises(IllegalAction) as refused:
        moderator.end_practice(match.pk, p0.pk, match.version)
    assert refused.value.code == "counts_for_ratings"
    assert fresh(match).status == Match.Status.PLAYING
    client.force_login(p1)
    asked = client.post(f"/t/{table.token}/leave-game/")
    assert asked.status_code == 302, "p1 left already: nothing to ask"
    client.force_login(p0)
    asked = client.post(f"/t/{table.token}/leave-game/")
    assert b"counts for the ratings" in asked.content, "the confirmation says a rated leave is a loss"


def test_the_host_of_a_rated_game_someone_left_is_not_offered_to_end_it(client):
    """p1 leaves p0's rated Dracula game: p0's host menu has no «End this practice game» (the
    server refuses it, above), where it offered the button once nobody else played."""
    p0, p1 = people(2)
    table = seating.create_table(p0, "dracula", 2, "private")
    seating.sit(table, p1)
    match = seating.start(table, p0, seed=1)
    moderator.leave_game(match.pk, p1.pk)
    page = _page(client, p0, table)
    assert 'data-testid="host-menu"' in page, "premise: the host has the menu"
    assert 'data-testid="host-end"' not in page


def test_the_host_is_offered_to_end_exactly_the_games_the_server_lets_her_end(client):
    """One rule (history.ratings.leave_counts) for the menu and for tables.moderator.end_practice:
    a game the autopilot played in before p1 left never counted, so p0 is offered «End» and the
    server ends it, where the menu once judged from the seats alone and hid the button."""
    match, (p0, _) = _p1_missed_a_decision_then_left()
    assert not ratings.leave_counts(match), "premise: unrated before the leave"
    assert 'data-testid="host-end"' in _page(client, p0, match.table)
    moderator.end_practice(match.pk, p0.pk, fresh(match).version)
    assert fresh(match).status == Match.Status.ABORTED


def test_whether_a_leave_counts_is_read_once_per_snapshot_whatever_its_audiences(alice, bob):
    """The host's menu asks whether the leave counts (the moves: a query) once per version of the
    table, not once for each of the host's sockets."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tables import renderer

    table = seating.create_table(alice, "dracula", 2, "private")
    seating.sit(table, bob)
    match = seating.start(table, alice, seed=1)
    moderator.leave_game(match.pk, bob.pk)
    snapshot = renderer.load(table.pk)
    menus = []
    with CaptureQueriesContext(connection) as captured:
        for language in ("en", "fa"):
            menus.append(renderer.build_context(snapshot, snapshot.audience(alice, language))["host_menu"])
    assert [m["can_end"] for m in menus] == [False, False]
    assert len(captured) <= 1, [q["sql"] for q in captured]


# --- the result: the seat's outcome is the game's, the person left --------------------------------


def _text(html: str) -> str:
    """The page's words: tags out, spaces squeezed."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", words_of(html))).split())


def _dracula_p1_left_and_his_seat_won(rated: bool) -> tuple[Match, list]:
    """P0 against P1 at Dracula; P1 leaves at once and the autopilot wins his seat the game. Not
    ``rated``: the autopilot played P1's seat once before the leave (missed decisions)."""
    p0, p1 = people(2)
    table = seating.create_table(p0, "dracula", 2, "private")
    seating.sit(table, p1)
    match = seating.start(table, p0, seed=0)
    if not rated:
        Seat.objects.filter(table=table, number=1).update(autopilot=True)
        match = play_until(match, lambda m: m.moves.filter(seat=1, source=Move.Source.BOT).exists())
        Seat.objects.filter(table=table, number=1).update(autopilot=False)
    moderator.leave_game(match.pk, p1.pk)
    over = _stayer_plays_and_the_autopilot_the_rest(match, {0})
    assert over.result["winners"] == [1], "premise: the bot won p1's seat the game"
    assert ratings.rate_match(over.pk) is rated
    return over, [p0, p1]


def test_a_leaver_whose_seat_the_bot_won_is_shown_as_having_left_with_a_loss_not_as_the_winner(client):
    over, (p0, p1) = _dracula_p1_left_and_his_seat_won(rated=True)
    for viewer in (p0, p1):
        table_page = _text(_page(client, viewer, over.table))
        assert "Winners: P1's seat (played by a bot after P1 left)" in table_page, viewer
        assert "P1 — " in table_page and "left the game — counted as a loss" in table_page
        assert "the bot playing the seat won it" in table_page
        assert "winner" not in table_page.replace("Winners", ""), "nobody is shown as a winner"
        assert "You won!" not in table_page, viewer
    client.force_login(p0)
    match_page = client.get(f"/history/{over.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    row = re.search(r'<tr class="[^"]*" data-seat="1">.*?</tr>', match_page, re.S)[0]
    assert "left the game — counted as a loss" in _text(row) and "winner" not in _text(row)
    assert 'class="rating-change down"' in row, "next to the rating it cost"
    assert "won by P1's seat (played by a bot after P1 left)" in _text(match_page), "the shared link's title"
    persian = _text(_page(client, p0, over.table, "fa"))
    assert "P1" in persian and "counted as a loss" not in persian and "باخت" in persian


def test_a_leaver_of_an_unrated_game_is_shown_as_having_left_while_a_bot_played_the_seat(client):
    over, (p0, _p1) = _dracula_p1_left_and_his_seat_won(rated=False)
    table_page = _text(_page(client, p0, over.table))
    assert "left the game; a bot played the seat" in table_page and "counted as a loss" not in table_page
    client.force_login(p0)
    match_page = _text(client.get(f"/history/{over.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert "left the game; a bot played the seat" in match_page and "counted as a loss" not in match_page


def test_straight_after_a_leave_the_status_waits_for_a_bot_playing_the_seat_not_for_the_leaver(client, charlie):
    """P1 leaves P0's Dracula game while it is his turn: until the autopilot moves, the status line
    everyone reads says the table waits for a bot playing P1's seat, not for P1, who is gone."""
    p0, p1 = people(2)
    table = seating.create_table(p0, "dracula", 2, "public")
    seating.sit(table, p1)
    match = play_until(seating.start(table, p0, seed=0), lambda m: 1 in m.engine.awaiting(m.state))
    moderator.leave_game(match.pk, p1.pk)
    assert 1 in fresh(match).engine.awaiting(fresh(match).state), "premise: his seat is still awaited"
    for viewer, language, words in ((p0, "en", "a bot (for P1)"), (charlie, "fa", "ربات (به جای P1)")):
        status = re.search(r'<section id="status".*?</section>', _page(client, viewer, table, language), re.S)[0]
        waiting = _text(re.search(r'<p class="waiting">.*?</p>', status, re.S)[0])
        assert words in waiting and "<bdi>P1</bdi>" in status, (viewer, waiting)

"""Match pages: permanent, shareable for public tables, private tables' only for their players and
whoever holds the link, unlisted practice games only for their players; nothing of a running
match but one's own moves."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tables import seating
from tables.models import Match, Move, Seat
from tests.platform.helpers import play_until, play_until_over, started_werewolf


def _finished(host, players=(), visibility="private"):
    table = seating.create_table(
        host, "werewolf", 5, visibility, {"deal": {"roles": ["SEER", "VILLAGER", "WOLF", "DOCTOR", "VILLAGER"]}}
    )
    for player in players:
        seating.sit(table, player)
    seating.fill_with_bots(table, host)
    return play_until_over(seating.start(table, host, seed=1))


def _page(client, match, user=None, **query):
    if user is not None:
        client.force_login(user)
    return client.get(reverse("history:match", args=[match.pk]), query)


def test_a_public_tables_match_page_is_open_to_everyone_with_an_open_graph_title(client, alice):
    match = _finished(alice, visibility="public")
    response = _page(client, match)
    page = response.content.decode()
    assert response.status_code == 200
    assert '<meta property="og:title" content="Werewolf: Alice' in page
    assert 'data-testid="result"' in page and "Seer" in page and "Wolf" in page


def test_a_private_tables_match_is_for_its_players(client, alice, bob):
    match = _finished(alice, [bob])
    assert _page(client, match, bob).status_code == 200


def test_an_outsider_cannot_open_a_private_tables_match(client, alice, dave):
    match = _finished(alice)
    assert _page(client, match, dave).status_code == 404
    assert _page(client, match).status_code == 404


def test_whoever_holds_the_tables_link_may_open_its_match(client, alice, charlie):
    match = _finished(alice)
    assert _page(client, match, charlie, t=match.table.token).status_code == 200


def test_a_wrong_link_token_opens_nothing(client, alice, dave):
    match = _finished(alice)
    other = _finished(alice)
    assert _page(client, match, dave, t=other.table.token).status_code == 404
    assert _page(client, match, dave, t="x" * 22).status_code == 404


def test_an_unknown_match_is_not_found(client, dave):
    client.force_login(dave)
    assert client.get(reverse("history:match", args=[999999])).status_code == 404


def test_the_page_names_the_date_in_jalali_on_persian_pages(client, alice):
    match = _finished(alice, visibility="public")
    persian = client.get(reverse("history:match", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    english = client.get(reverse("history:match", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    from shabneshin.localize import format_date

    # A Persian page read before the browser named its zone shows Iran's time (shabneshin.timezones).
    assert format_date(match.started_at, "datetime", "fa", tz="Asia/Tehran") in persian
    assert " ،" not in persian, "no space before a Persian comma"
    assert format_date(match.started_at, "datetime", "en") in english


def test_a_running_match_shows_nothing_but_the_players_own_moves(client, alice, bob, charlie):
    from tables.models import Move

    match = started_werewolf(alice, [bob])
    from tables import moderator

    moderator.run_due()
    match = Match.objects.get(pk=match.pk)
    assert match.status == Match.Status.PLAYING
    others = list(Move.objects.filter(match=match).exclude(seat=1))
    page = _page(client, match, bob).content.decode()
    assert 'data-testid="still-running"' in page and 'data-testid="result"' not in page
    assert page.count('class="move"') == Move.objects.filter(match=match, seat=1).count()
    for move in others:
        assert f"<strong>Bot {move.seat + 1}</strong>" not in page
    # the link does not open a running match's moves either
    spectator = _page(client, match, charlie, t=match.table.token).content.decode()
    assert 'data-testid="still-running"' in spectator and 'class="move"' not in spectator
    assert 'data-testid="watch-table"' in spectator, "whoever holds the link may watch the table live"


def test_a_player_unlists_a_practice_game_and_then_only_players_see_it(client, alice, bob, charlie):
    match = _finished(alice, [bob], visibility="public")
    assert _page(client, match, charlie).status_code == 200
    client.force_login(bob)
    client.post(reverse("history:unlisted", args=[match.pk]), {"unlisted": "1"})
    assert Match.objects.get(pk=match.pk).unlisted
    assert _page(client, match, charlie).status_code == 404
    assert _page(client, match, charlie, t=match.table.token).status_code == 404
    assert _page(client, match, alice).status_code == 200
    client.force_login(bob)
    client.post(reverse("history:unlisted", args=[match.pk]), {"unlisted": "0"})
    assert _page(client, match, charlie).status_code == 200


def test_only_a_player_may_unlist_a_match(client, alice, charlie):
    match = _finished(alice, visibility="public")
    client.force_login(charlie)
    page = client.post(reverse("history:unlisted", args=[match.pk]), {"unlisted": "1"}, follow=True).content.decode()
    assert "Only the players" in page
    assert not Match.objects.get(pk=match.pk).unlisted


def test_an_outsider_cannot_unlist_a_private_match(client, alice, dave):
    match = _finished(alice)
    client.force_login(dave)
    assert client.post(reverse("history:unlisted", args=[match.pk]), {"unlisted": "1"}).status_code == 404
    assert not Match.objects.get(pk=match.pk).unlisted


def test_a_game_without_bots_cannot_be_unlisted(client, alice, bob):
    table = seating.create_table(alice, "dracula", 2, "public")
    seating.sit(table, bob)
    match = play_until_over(seating.start(table, alice, seed=2))
    client.force_login(alice)
    page = client.post(reverse("history:unlisted", args=[match.pk]), {"unlisted": "1"}, follow=True).content.decode()
    assert "Only practice games" in page and not Match.objects.get(pk=match.pk).unlisted


@pytest.mark.parametrize("method", ["get"])
def test_unlisting_takes_a_post_only(client, alice, method):
    match = _finished(alice)
    client.force_login(alice)
    assert getattr(client, method)(reverse("history:unlisted", args=[match.pk])).status_code == 405


def test_the_match_page_and_its_replay_read_in_persian(client, alice):
    match = _finished(alice, visibility="public")
    page = client.get(reverse("history:match", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    assert 'dir="rtl"' in page and "بازپخش" in page and "از چشم چه کسی" in page and "پخش" in page


def _row_of(page: str, seat: int) -> str:
    return re.search(rf'<tr[^>]*data-seat="{seat}">.*?</tr>', page, re.S).group(0)


def _finished_where_a_bot_played_for_bob_and_charlie_left(alice, bob, charlie) -> Match:
    """Every seat's moves are its player's own (the clock played them: they are only re-attributed)
    but bob's, a bot's; charlie left the game at its last version, before a bot moved for him."""
    match = _finished(alice, [bob, charlie])
    Move.objects.filter(match=match).update(source=Move.Source.PLAYER)
    Move.objects.filter(match=match, seat=1).update(source=Move.Source.BOT)
    Seat.objects.filter(table=match.table, number=2).update(left_at_version=match.version, autopilot=True)
    return match


def test_a_finished_matchs_page_marks_the_seat_a_bot_played_and_the_seat_whose_player_left(client, alice, bob, charlie):
    match = _finished_where_a_bot_played_for_bob_and_charlie_left(alice, bob, charlie)
    page = _page(client, match, alice).content.decode()
    bobs, charlies, alices = _row_of(page, 1), _row_of(page, 2), _row_of(page, 0)
    assert 'data-testid="bot-played"' in bobs
    assert '<span class="visually-hidden">A bot played this seat for part of the game, or all of it.</span>' in bobs
    assert 'data-testid="left-mark"' in charlies and "left the game" in charlies
    assert 'data-testid="bot-played"' not in charlies, "no bot moved for charlie"
    assert "bot-played" not in alices and "left-mark" not in alices and "left-mark" not in bobs
    assert page.count('data-testid="bot-played"') == 1, "a practice bot's own seat is not marked"


def test_the_marks_read_in_persian(client, alice, bob, charlie):
    match = _finished_where_a_bot_played_for_bob_and_charlie_left(alice, bob, charlie)
    client.force_login(alice)
    page = client.get(reverse("history:match", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    assert "ربات بخشی از بازیِ این صندلی یا همهٔ آن را به جای بازیکن انجام داد." in _row_of(page, 1)
    assert "بازی را ترک کرد" in _row_of(page, 2)


def test_a_running_matchs_page_tells_no_seat_a_bot_moved_for(client, alice, bob):
    match = play_until(started_werewolf(alice, [bob]), lambda m: m.moves.filter(seat=1).exists())
    Move.objects.filter(match=match).update(source=Move.Source.BOT)  # as if a bot had made them
    page = _page(client, match, alice).content.decode()
    assert Match.objects.get(pk=match.pk).status == Match.Status.PLAYING
    assert "bot-played" not in page and "A bot played" not in page

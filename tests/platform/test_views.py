"""Pages: lobby, create-table, the table page for each persona, rules, history."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import registry
from tables.models import Table
from tests.platform.helpers import play_until_over, started_werewolf


def test_the_lobby_lists_public_tables_but_not_private_ones(client, alice):
    from tables import seating

    public = seating.create_table(alice, "werewolf", 5, "public")
    private = seating.create_table(alice, "werewolf", 6, "private")
    page = client.get(reverse("tables:lobby")).content.decode()
    assert public.token in page
    assert private.token not in page


def test_creating_a_table_needs_a_name_first(client, db):
    response = client.get(reverse("tables:create", args=["werewolf"]))
    assert response.status_code == 302 and reverse("accounts:guest") in response["Location"]


def test_a_guest_creates_a_private_table_and_gets_its_invite_link(client, db):
    client.post(reverse("accounts:guest"), {"display_name": "Mina"})
    response = client.post(
        reverse("tables:create", args=["werewolf"]), {"seat_count": "6", "visibility": "private", "speed": "fast"}
    )
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("tables:detail", args=[table.token])
    assert table.seat_count == 6 and table.visibility == "private" and table.speed == "fast"
    page = client.get(response["Location"]).content.decode()
    assert f"/t/{table.token}/" in page and "Mina" in page


def test_an_unknown_table_token_is_not_found(client, dave):
    client.force_login(dave)
    assert client.get(reverse("tables:detail", args=["not-a-real-token"])).status_code == 404


def test_the_create_form_refuses_a_player_count_the_game_does_not_take(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("tables:create", args=["werewolf"]), {"seat_count": "11", "visibility": "public", "speed": "normal"}
    )
    assert response.status_code == 200 and not Table.objects.exists()


def test_seating_forms_work_over_http(client, alice, bob):
    from tables import seating

    table = seating.create_table(alice, "werewolf", 5, "private")
    client.force_login(bob)
    client.post(reverse("tables:sit", args=[table.token]), {"seat": "3"})
    assert table.seats.get(number=3).user == bob
    client.post(reverse("tables:add_bot", args=[table.token]), {"seat": "2"})
    assert not table.seats.get(number=2).is_bot, "only the host adds bots"
    client.post(reverse("tables:leave", args=[table.token]))
    assert table.seats.get(number=3).user is None
    client.force_login(alice)
    client.post(reverse("tables:fill_bots", args=[table.token]))
    client.post(reverse("tables:start", args=[table.token]))
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING


@pytest.mark.parametrize("seat", ["abc", "1.5", "-1", "99", "1" * 5000])
def test_a_seat_number_that_is_not_a_seat_is_refused_and_changes_nothing(client, alice, bob, seat):
    """A malformed seat is an error, not "any free seat" (which is what a missing one means)."""
    from tables import seating

    table = seating.create_table(alice, "werewolf", 5, "private")
    before = list(table.seats.values_list("number", "user_id", "is_bot"))
    client.force_login(bob)
    page = client.post(reverse("tables:sit", args=[table.token]), {"seat": seat}, follow=True).content.decode()
    assert "no such seat" in page
    client.force_login(alice)
    page = client.post(reverse("tables:add_bot", args=[table.token]), {"seat": seat}, follow=True).content.decode()
    assert "no such seat" in page
    assert list(table.seats.values_list("number", "user_id", "is_bot")) == before


def test_a_seated_player_sees_their_own_role_and_no_one_elses(client, alice, bob):
    match = started_werewolf(alice, [bob])  # alice SEER (0), bob VILLAGER (1), seat 2 is the wolf
    client.force_login(bob)
    page = client.get(reverse("tables:detail", args=[match.table.token])).content.decode()
    assert 'data-testid="my-role"' in page and "Villager" in page
    assert "Seer" not in page and "Wolf" not in page


def test_a_spectator_sees_only_public_information(client, alice, charlie):
    match = started_werewolf(alice)
    client.force_login(charlie)
    page = client.get(reverse("tables:detail", args=[match.table.token])).content.decode()
    assert 'data-testid="spectator"' in page
    assert 'data-testid="my-role"' not in page
    for role in ("Seer", "Wolf", "Doctor", "Villager"):
        assert role not in page


@pytest.mark.parametrize("slug", [e.slug for e in registry.all()])
def test_each_game_has_a_rules_page_in_both_languages(client, slug):
    english = client.get(reverse("tables:rules", args=[slug]), HTTP_ACCEPT_LANGUAGE="en")
    persian = client.get(reverse("tables:rules", args=[slug]), HTTP_ACCEPT_LANGUAGE="fa")
    assert english.status_code == persian.status_code == 200
    assert 'dir="rtl"' in persian.content.decode() and 'dir="ltr"' in english.content.decode()
    assert english.content != persian.content


def test_finished_matches_appear_in_my_games_with_the_result_and_move_log(client, alice):
    match = play_until_over(started_werewolf(alice))
    client.force_login(alice)
    listing = client.get(reverse("history:my_games"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert reverse("history:match", args=[match.pk]) in listing
    detail = client.get(reverse("history:match", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="result"' in detail
    assert detail.count('class="move"') == match.moves.count()


def test_an_outsider_cannot_read_someone_elses_match_history(client, alice, dave):
    match = play_until_over(started_werewolf(alice))
    client.force_login(dave)
    assert client.get(reverse("history:match", args=[match.pk])).status_code == 404


@pytest.mark.parametrize("slug", [e.slug for e in registry.all()])
@pytest.mark.parametrize("language", ["en", "fa"])
def test_every_games_history_reads_as_words(client, alice, slug, language):
    """A finished match's page lists every move in the game's own words, never as raw JSON."""
    import re

    from tables import seating

    engine = registry.get(slug)
    table = seating.create_table(alice, slug, engine.min_players, "private")
    seating.fill_with_bots(table, alice)
    match = play_until_over(seating.start(table, alice, seed=3))
    client.force_login(alice)
    page = client.get(reverse("history:match", args=[match.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    moves = re.findall(r'<li class="move">(.*?)</li>', page, re.S)
    assert len(moves) == match.moves.count()
    for move in moves:
        text = re.sub(r"<[^>]+>", " ", move)
        assert "{" not in text and "timeout" not in text and "type" not in text, text


def test_an_aborted_matchs_history_shows_no_other_seats_secret_moves(client, alice):
    """Monster: the bots pick face down at once; the staff abort before alice picks. Her history
    page must not list the bots' picks (their view, and hers, never saw them)."""
    from tables import moderator, seating
    from tables.models import Match

    engine = registry.get("monster")
    table = seating.create_table(alice, "monster", engine.min_players, "private")
    seating.fill_with_bots(table, alice)
    match = seating.start(table, alice, seed=3)
    moderator.run_due()
    match = Match.objects.get(pk=match.pk)
    hidden_picks = [m for m in match.moves.all() if m.seat != 0 and m.action.get("type") == "select"]
    assert hidden_picks and match.state["public"]["phase"] == "select", "the bots picked; alice has not"
    assert moderator.abort(match)
    client.force_login(alice)
    page = client.get(reverse("history:match", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "aborted" in page
    for move in hidden_picks:
        assert f"<strong>Bot {move.seat + 1}</strong>: Play" not in page

"""Tables before the start: seats, bots, leaving, starting; refusals change nothing."""

from __future__ import annotations

import pytest

from tables import seating
from tables.models import Match, Table


def test_host_takes_the_first_seat_of_a_new_table(werewolf_table, alice):
    assert werewolf_table.seats.get(number=0).user == alice
    assert werewolf_table.seats.count() == 5
    assert werewolf_table.status == Table.Status.OPEN


def test_a_table_outside_the_games_player_counts_is_refused(alice):
    with pytest.raises(seating.SeatingError):
        seating.create_table(alice, "werewolf", 4, "public")
    with pytest.raises(seating.SeatingError):
        seating.create_table(alice, "werewolf", 11, "public")
    assert not Table.objects.exists()


def test_it_refuses_unknown_options(alice):
    with pytest.raises(seating.SeatingError):
        seating.create_table(alice, "werewolf", 5, "public", {"no_such_option": 1})


def test_a_player_sits_once_and_leaving_frees_the_seat(werewolf_table, bob):
    seat = seating.sit(werewolf_table, bob)
    with pytest.raises(seating.SeatingError):
        seating.sit(werewolf_table, bob)
    seating.leave(werewolf_table, bob)
    seat.refresh_from_db()
    assert seat.user is None and seat.is_empty


def test_a_taken_seat_cannot_be_taken_again(werewolf_table, bob, charlie):
    seating.sit(werewolf_table, bob, 2)
    with pytest.raises(seating.SeatingError):
        seating.sit(werewolf_table, charlie, 2)
    assert werewolf_table.seats.get(number=2).user == bob


def test_only_the_host_adds_and_removes_bots(werewolf_table, alice, bob):
    seating.sit(werewolf_table, bob)
    with pytest.raises(seating.SeatingError):
        seating.add_bot(werewolf_table, bob)
    seat = seating.add_bot(werewolf_table, alice, 3)
    assert seat.is_bot
    with pytest.raises(seating.SeatingError):
        seating.remove_bot(werewolf_table, bob, 3)
    seating.remove_bot(werewolf_table, alice, 3)
    assert werewolf_table.seats.get(number=3).is_empty


def test_the_game_starts_only_when_every_seat_is_taken_and_only_by_the_host(werewolf_table, alice, bob):
    seating.sit(werewolf_table, bob)
    with pytest.raises(seating.SeatingError):
        seating.start(werewolf_table, alice)
    seating.fill_with_bots(werewolf_table, alice)
    with pytest.raises(seating.SeatingError):
        seating.start(werewolf_table, bob)
    match = seating.start(werewolf_table, alice)
    werewolf_table.refresh_from_db()
    assert werewolf_table.status == Table.Status.PLAYING
    assert match.version == 0 and match.state["step"] == 0


def test_seats_cannot_change_after_the_start(werewolf_table, alice, bob):
    seating.fill_with_bots(werewolf_table, alice)
    seating.start(werewolf_table, alice)
    with pytest.raises(seating.SeatingError):
        seating.leave(werewolf_table, alice)
    with pytest.raises(seating.SeatingError):
        seating.sit(werewolf_table, bob)
    with pytest.raises(seating.SeatingError):
        seating.start(werewolf_table, alice)
    assert Match.objects.count() == 1


def test_when_the_host_leaves_the_next_seated_player_hosts(werewolf_table, alice, bob):
    seating.sit(werewolf_table, bob)
    seating.leave(werewolf_table, alice)
    werewolf_table.refresh_from_db()
    assert werewolf_table.host == bob


def test_when_the_last_player_leaves_the_table_closes(werewolf_table, alice):
    seating.leave(werewolf_table, alice)
    werewolf_table.refresh_from_db()
    assert werewolf_table.status == Table.Status.ABORTED


def test_options_the_game_cannot_deal_are_refused_at_creation(alice):
    """Six guests picked for a four-player Mummy table cannot be dealt (its guest list is six)."""
    from games import registry

    picks = {o.key: "in" for o in registry.get("mummy").options if o.key.startswith("guest_")}
    with pytest.raises(seating.SeatingError):
        seating.create_table(alice, "mummy", 4, "public", picks)
    assert not Table.objects.exists()


def test_after_a_match_a_player_opens_the_next_table_with_the_same_settings(alice, bob, charlie):
    from tests.platform.helpers import play_until_over, started_werewolf

    match = play_until_over(started_werewolf(alice, [bob]))
    old = match.table
    with pytest.raises(seating.SeatingError):
        seating.play_again(old, charlie)  # not a player of that game
    new = seating.play_again(old, bob)
    assert (new.game, new.seat_count, new.visibility, new.speed) == (old.game, 5, old.visibility, old.speed)
    assert "deal" not in new.options
    assert new.seats.get(number=0).user == bob and new.host == bob
    assert list(new.seats.filter(is_bot=True).values_list("number", flat=True)) == [2, 3, 4]
    assert seating.play_again(old, alice) == new, "one next table per game"
    old.refresh_from_db()
    assert old.next_table == new


def test_play_again_is_refused_while_the_game_runs(alice):
    from tests.platform.helpers import started_werewolf

    match = started_werewolf(alice)
    with pytest.raises(seating.SeatingError):
        seating.play_again(match.table, alice)


def test_a_table_whose_every_seat_is_taken_says_so_and_offers_no_bots_to_fill_it(client, alice, bob):
    """After «Play again» the bots keep their seats: the next table is full at once, so it does not
    say it waits for players, nor offer to fill empty seats; the host is told to start, the others
    that the host starts."""
    from django.urls import reverse

    from tests.platform.helpers import play_until_over, started_werewolf

    new = seating.play_again(play_until_over(started_werewolf(alice, [bob])).table, alice)
    page = {}
    for user in (alice, bob):
        client.force_login(user)
        page[user] = client.get(reverse("tables:detail", args=[new.token])).content.decode()
    assert "Waiting for players" in page[alice] and 'data-testid="fill-bots"' in page[alice], "bob has no seat yet"
    seating.sit(new, bob)
    for user, persian in ((alice, False), (bob, False), (alice, True)):
        client.force_login(user)
        html = client.get(
            reverse("tables:detail", args=[new.token]), HTTP_ACCEPT_LANGUAGE="fa" if persian else "en"
        ).content.decode()
        assert "Waiting for players" not in html and 'data-testid="fill-bots"' not in html
        assert 'data-testid="start"' in html if user == alice else 'data-testid="start"' not in html
        said = {
            (alice, False): "Every seat is taken: start the game when you are ready.",
            (bob, False): "Every seat is taken: the host starts the game.",
            (alice, True): "همهٔ صندلی‌ها پر است: هر وقت آماده بودید، بازی را شروع کنید.",
        }[(user, persian)]
        assert said in html

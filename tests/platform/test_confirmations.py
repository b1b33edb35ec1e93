"""Foot-guns get a confirmation step that works without a script: a host whose leaving would close
the table, and a guest logging out (which loses their games), are asked first on a page of its own;
a closed table's page leads back to the lobby and to a new table; guests find "My games"."""

from __future__ import annotations

from django.urls import reverse

from accounts.models import User
from tables import seating
from tables.models import Table


def _guest(client, name="Mina") -> User:
    client.post(reverse("accounts:guest"), {"display_name": name})
    return User.objects.get(display_name=name, is_guest=True)


def test_a_host_alone_with_bots_is_asked_before_leaving_closes_the_table(client, alice, werewolf_table):
    seating.fill_with_bots(werewolf_table, alice)
    client.force_login(alice)
    response = client.post(reverse("tables:leave", args=[werewolf_table.token]))
    assert response.status_code == 200
    assert 'data-testid="leave-confirm"' in response.content.decode()
    werewolf_table.refresh_from_db()
    assert werewolf_table.status == Table.Status.OPEN
    assert werewolf_table.seats.get(number=0).user == alice


def test_a_confirmed_leave_closes_the_table_and_its_page_offers_the_lobby_and_a_new_table(
    client, alice, werewolf_table
):
    client.force_login(alice)
    response = client.post(reverse("tables:leave", args=[werewolf_table.token]), {"confirm": "1"})
    assert response.status_code == 302
    werewolf_table.refresh_from_db()
    assert werewolf_table.status == Table.Status.ABORTED
    page = client.get(reverse("tables:detail", args=[werewolf_table.token])).content.decode()
    assert f'href="{reverse("tables:lobby")}" data-testid="closed-lobby"' in page
    assert f'href="{reverse("tables:create", args=["werewolf"])}" data-testid="closed-new-table"' in page


def test_a_host_with_another_player_seated_leaves_at_once_and_hands_the_table_over(
    client, alice, bob, werewolf_table
):
    seating.sit(werewolf_table, bob)
    client.force_login(alice)
    response = client.post(reverse("tables:leave", args=[werewolf_table.token]))
    assert response.status_code == 302
    werewolf_table.refresh_from_db()
    assert werewolf_table.status == Table.Status.OPEN and werewolf_table.host == bob


def test_a_seated_player_who_is_not_the_host_leaves_without_a_question(client, alice, bob, werewolf_table):
    seating.sit(werewolf_table, bob)
    client.force_login(bob)
    assert client.post(reverse("tables:leave", args=[werewolf_table.token])).status_code == 302
    assert not werewolf_table.seats.filter(user=bob).exists()


def test_a_guest_logging_out_is_warned_and_offered_sign_up_first(client, db):
    _guest(client)
    response = client.post(reverse("accounts:logout"))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'data-testid="logout-confirm"' in page and f'href="{reverse("accounts:signup")}"' in page
    assert "_auth_user_id" in client.session, "nothing is lost before the guest confirms"


def test_a_guest_who_confirms_is_logged_out(client, db):
    _guest(client)
    response = client.post(reverse("accounts:logout"), {"confirm": "1"})
    assert response.status_code == 302 and "_auth_user_id" not in client.session


def test_a_registered_player_logs_out_without_a_warning(client, bob):
    client.force_login(bob)
    assert client.post(reverse("accounts:logout")).status_code == 302
    assert "_auth_user_id" not in client.session


def test_a_guest_sees_my_games_in_the_navigation_and_can_open_it(client, db):
    _guest(client)
    page = client.get(reverse("tables:lobby")).content.decode()
    assert f'href="{reverse("history:my_games")}" data-testid="my-games"' in page
    assert client.get(reverse("history:my_games")).status_code == 200

"""Guests, sign-up and log-in: a guest's games follow them into an account."""

from __future__ import annotations

from django.urls import reverse

from accounts.models import User
from tables import seating
from tests.platform.helpers import play_until_over, started_werewolf


def _guest(client, name="Mina") -> User:
    client.post(reverse("accounts:guest"), {"display_name": name})
    return User.objects.get(display_name=name, is_guest=True)


def test_a_guest_is_a_display_name_without_a_password(client, db):
    guest = _guest(client)
    assert guest.is_guest and not guest.has_usable_password()
    assert "Mina" in client.get(reverse("tables:lobby")).content.decode()


def test_a_guest_name_must_not_be_blank(client, db):
    response = client.post(reverse("accounts:guest"), {"display_name": "  "})
    assert response.status_code == 200 and not User.objects.exists()


def test_a_guest_who_signs_up_keeps_their_games(client, alice):
    guest = _guest(client)
    match = play_until_over(started_werewolf(alice, [guest]))
    client.post(
        reverse("accounts:signup"),
        {"username": "mina", "display_name": "Mina", "password1": "a-long-password-1", "password2": "a-long-password-1"},  # noqa: E501
    )
    account = User.objects.get(username="mina")
    assert account.pk == guest.pk and not account.is_guest and account.check_password("a-long-password-1")
    assert reverse("history:match", args=[match.pk]) in client.get(reverse("history:my_games")).content.decode()


def test_a_guest_who_signs_up_without_a_new_name_keeps_the_guests_name(client, db):
    guest = _guest(client)
    form = client.get(reverse("accounts:signup")).content.decode()
    assert f'value="{guest.display_name}"' in form, "the form offers the guest's name"
    client.post(
        reverse("accounts:signup"),
        {"username": "fay", "display_name": "", "password1": "a-long-password-1", "password2": "a-long-password-1"},
    )
    account = User.objects.get(username="fay")
    assert account.display_name == guest.display_name


def test_a_guest_who_logs_in_brings_their_seats_to_the_account(client, alice, bob):
    guest = _guest(client)
    table = seating.create_table(alice, "werewolf", 5, "private")
    seating.sit(table, guest, 3)
    client.post(reverse("accounts:login"), {"username": "bob", "password": "a-long-password-1"})
    assert table.seats.get(number=3).user == bob
    assert not User.objects.filter(pk=guest.pk).exists()


def test_a_guest_claim_does_not_give_one_account_two_seats(client, alice, bob):
    guest = _guest(client)
    table = seating.create_table(alice, "werewolf", 5, "private")
    seating.sit(table, guest, 3)
    seating.sit(table, bob, 4)
    client.post(reverse("accounts:login"), {"username": "bob", "password": "a-long-password-1"})
    assert list(table.seats.filter(user=bob).values_list("number", flat=True)) == [4]
    assert table.seats.get(number=3).user is None


def test_log_in_with_a_wrong_password_is_refused(client, bob):
    response = client.post(reverse("accounts:login"), {"username": "bob", "password": "wrong"})
    assert response.status_code == 200 and "_auth_user_id" not in client.session


def test_sign_up_refuses_a_taken_username(client, bob):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "bob", "password1": "a-long-password-1", "password2": "a-long-password-1"},
    )
    assert response.status_code == 200 and User.objects.filter(username="bob").count() == 1


def test_log_out_needs_a_post(client, bob):
    client.force_login(bob)
    assert client.get(reverse("accounts:logout")).status_code == 405
    client.post(reverse("accounts:logout"))
    assert "_auth_user_id" not in client.session


def test_a_guest_seat_that_cannot_follow_them_into_a_running_match_is_played_by_a_bot(client, alice, bob):
    from tests.platform.helpers import started_werewolf

    guest = _guest(client)
    match = started_werewolf(alice, [guest, bob])  # guest at seat 1, bob at seat 2
    client.post(reverse("accounts:login"), {"username": "bob", "password": "a-long-password-1"})
    left = match.table.seats.get(number=1)
    assert left.user is None and left.autopilot and left.played_by_bot
    assert match.table.seats.get(number=2).user == bob


def test_sign_up_refuses_a_username_a_guest_was_known_by(client, alice):
    """Mina's guest address is still shared and leads to her account: nobody may take it over."""
    guest = _guest(client)
    guest_name = guest.username
    password = "a-long-password-1"
    client.post(reverse("accounts:signup"), {"username": "mina", "password1": password, "password2": password})
    client.logout()
    answer = client.post(
        reverse("accounts:signup"),
        {"username": guest_name.upper(), "password1": password, "password2": password},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert answer.status_code == 200 and "That username is taken" in answer.content.decode()
    assert not User.objects.filter(username__iexact=guest_name).exists()

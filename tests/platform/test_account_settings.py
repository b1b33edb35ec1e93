"""A registered player's account: their settings (display name, email, language on every device),
their password changed with the old one, or reset by an emailed link when forgotten."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.platform.helpers import started_werewolf

OLD = "a-long-password-1"
NEW = "another-long-password-2"


def _logged_in(user, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def _reset_link(message) -> str:
    return re.search(r"https?://[^/\s]+(/accounts/password/reset/\S+/)", message.body).group(1)


def test_alice_changes_her_password_with_her_old_one_and_stays_logged_in(alice):
    client = _logged_in(alice)
    refused = client.post(
        reverse("accounts:password_change"),
        {"old_password": "not-it", "new_password1": NEW, "new_password2": NEW},
    )
    assert refused.status_code == 200 and "That is not your current password." in refused.content.decode()
    alice.refresh_from_db()
    assert alice.check_password(OLD), "a refused change changes nothing"
    done = client.post(
        reverse("accounts:password_change"),
        {"old_password": OLD, "new_password1": NEW, "new_password2": NEW},
        follow=True,
    )
    assert "Your password is changed." in done.content.decode()
    alice.refresh_from_db()
    assert alice.check_password(NEW)
    assert client.get(reverse("accounts:account")).status_code == 200, "this session stayed logged in"


def test_alice_who_forgot_her_password_sets_a_new_one_by_the_emailed_link_once(client, alice):
    alice.email = "alice@example.com"
    alice.save()
    sent = client.post(reverse("accounts:password_reset"), {"email": "alice@example.com"}, follow=True)
    assert 'data-testid="reset-sent"' in sent.content.decode()
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["alice@example.com"]
    assert "Your username is alice." in mail.outbox[0].body
    link = _reset_link(mail.outbox[0])
    form = client.get(link, follow=True)
    set_url = form.redirect_chain[-1][0] if form.redirect_chain else link
    done = client.post(set_url, {"new_password1": NEW, "new_password2": NEW}, follow=True)
    assert "Your new password is set" in done.content.decode()
    alice.refresh_from_db()
    assert alice.check_password(NEW)
    again = client.get(link, follow=True).content.decode()
    assert 'data-testid="reset-link-invalid"' in again, "a link works once"


def test_a_reset_for_an_unknown_address_answers_the_same_and_sends_nothing(client, alice):
    """No one learns from the answer whether an address has an account here."""
    answer = client.post(reverse("accounts:password_reset"), {"email": "nobody@example.com"}, follow=True)
    assert 'data-testid="reset-sent"' in answer.content.decode() and mail.outbox == []


def test_a_flood_of_reset_requests_is_refused_with_a_message(client, alice, settings):
    settings.RATE_PASSWORD_RESETS_PER_HOUR = 2
    alice.email = "alice@example.com"
    alice.save()
    for _ in range(2):
        client.post(reverse("accounts:password_reset"), {"email": "alice@example.com"})
    refused = client.post(reverse("accounts:password_reset"), {"email": "alice@example.com"})
    assert refused.status_code == 200 and "Too many requests for a new password" in refused.content.decode()
    assert len(mail.outbox) == 2


def test_the_log_in_page_leads_to_the_reset(client, db):
    page = client.get(reverse("accounts:login")).content.decode()
    assert reverse("accounts:password_reset") in page


def test_alice_sets_her_name_email_and_language_and_the_language_follows_her_to_a_new_device(alice):
    client = _logged_in(alice)
    saved = client.post(
        reverse("accounts:account"), {"display_name": "Alice W", "email": "alice@example.com", "language": "fa"}
    )
    assert saved.status_code == 302 and saved.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fa"
    alice.refresh_from_db()
    assert (alice.display_name, alice.email, alice.language) == ("Alice W", "alice@example.com", "fa")
    phone = Client(HTTP_ACCEPT_LANGUAGE="en")
    phone.post(reverse("accounts:login"), {"username": "alice", "password": OLD})
    assert 'lang="fa"' in phone.get("/").content.decode()


@pytest.mark.parametrize("name", ["", "x", "Bot 3"])
def test_a_refused_name_is_said_and_changes_nothing(alice, name):
    page = _logged_in(alice).post(reverse("accounts:account"), {"display_name": name, "email": "", "language": ""})
    assert page.status_code == 200 and 'class="errorlist' in page.content.decode()
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


def test_a_name_does_not_change_in_the_middle_of_a_game(alice):
    """The others at Alice's table know her by her name: she renames after the game."""
    started_werewolf(alice)
    page = _logged_in(alice).post(reverse("accounts:account"), {"display_name": "Bob", "email": "", "language": ""})
    assert "Your name cannot change while you play" in page.content.decode()
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


def test_a_guest_is_led_to_sign_up_and_a_visitor_to_log_in(client, db):
    assert client.get(reverse("accounts:account"))["Location"].startswith(reverse("accounts:login"))
    guest = User.create_guest("Gus")
    assert _logged_in(guest).get(reverse("accounts:account"))["Location"] == reverse("accounts:signup")
    assert _logged_in(guest).get(reverse("accounts:password_change"))["Location"] == reverse("accounts:signup")


def test_sign_up_takes_an_optional_email(client, db):
    client.post(
        reverse("accounts:signup"),
        {"username": "sara", "display_name": "Sara", "email": "sara@example.com", "password1": NEW, "password2": NEW},
    )
    assert User.objects.get(username="sara").email == "sara@example.com"
    client.post(reverse("accounts:logout"))
    client.post(
        reverse("accounts:signup"), {"username": "omid", "display_name": "", "password1": NEW, "password2": NEW}
    )
    assert User.objects.get(username="omid").email == ""


def test_the_password_forms_ask_for_the_new_password_twice_in_our_words(client, alice):
    """Django's own Persian asked, under the second box, for the *previous* password."""
    alice.email = "alice@example.com"
    alice.save()
    page = _logged_in(alice, "fa").get(reverse("accounts:password_change")).content.decode()
    assert "رمز عبور" not in page and "قبلی را وارد کنید" not in page
    assert "همان گذرواژهٔ تازه" in page
    client.post(reverse("accounts:password_reset"), {"email": "alice@example.com"})
    link = _reset_link(mail.outbox[0])
    form = Client(HTTP_ACCEPT_LANGUAGE="fa")
    page = form.get(link, follow=True).content.decode()
    assert "رمز عبور" not in page and "قبلی را وارد کنید" not in page and "همان گذرواژهٔ تازه" in page


def test_choosing_the_browsers_language_again_drops_the_chosen_one(alice):
    client = _logged_in(alice)
    client.post(reverse("accounts:account"), {"display_name": "Alice", "email": "", "language": "en"})
    answer = client.post(reverse("accounts:account"), {"display_name": "Alice", "email": "", "language": ""})
    assert answer.cookies[settings.LANGUAGE_COOKIE_NAME].value == "", "the cookie is deleted"
    client.cookies.pop(settings.LANGUAGE_COOKIE_NAME, None)
    fa = Client(HTTP_ACCEPT_LANGUAGE="fa")
    fa.force_login(alice)
    assert 'lang="fa"' in fa.get("/").content.decode()

"""Our own error pages, in the page's language: a 404, a 403 (and a refused form), a 500."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client, RequestFactory
from django.utils import translation
from django.views import defaults


@pytest.mark.parametrize(("language", "words"), [("fa", "صفحه پیدا نشد"), ("en", "Page not found")])
def test_a_missing_page_is_our_own_translated_404(client, db, settings, language, words):
    settings.DEBUG = False
    response = client.get("/no/such/page/", HTTP_ACCEPT_LANGUAGE=language)
    page = response.content.decode()
    assert response.status_code == 404
    assert f'lang="{language}"' in page and words in page and 'data-testid="error-page"' in page
    if language == "fa":
        assert "Page not found" not in page and "Not Found" not in page


def test_a_forbidden_page_is_our_own_translated_403(db):
    request = RequestFactory().get("/x/")
    with translation.override("fa"):
        response = defaults.permission_denied(request, PermissionDenied())
    assert response.status_code == 403 and "اجازه ندارید" in response.content.decode()


def test_a_form_refused_for_its_missing_csrf_token_says_so_in_persian(db):
    browser = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="fa")
    response = browser.post("/accounts/guest/", {"display_name": "Sara"})
    page = response.content.decode()
    assert response.status_code == 403 and "فرم منقضی شده بود" in page and 'lang="fa"' in page


def test_a_server_error_is_our_own_translated_500(db):
    request = RequestFactory().get("/x/")
    with translation.override("fa"):
        response = defaults.server_error(request)
    page = response.content.decode()
    assert response.status_code == 500 and "مشکلی پیش آمد" in page and 'dir="rtl"' in page


@pytest.mark.parametrize(("language", "words"), [("fa", "این نشانی یک دکمه است"), ("en", "This address is a button")])
def test_opening_a_buttons_address_is_our_own_translated_page_not_a_blank_one(client, alice, language, words):
    """Alice opens /accounts/logout/ from her history: it only logs out by its button."""
    client.force_login(alice)
    response = client.get("/accounts/logout/", HTTP_ACCEPT_LANGUAGE=language)
    page = response.content.decode()
    assert response.status_code == 405 and "POST" in response["Allow"]
    assert f'lang="{language}"' in page and words in page and 'data-testid="error-page"' in page
    assert "_auth_user_id" in client.session, "opening the address logged nobody out"

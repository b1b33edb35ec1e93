"""Numbers the browser draws itself follow the page's language: the countdown and a numbered
list's markers in Persian digits on a Persian page, Latin ones on an English page."""

from __future__ import annotations

import re

import pytest

from tests.e2e.flows import become_guest, create_table, fill_with_bots_and_start

pytestmark = pytest.mark.e2e

PAGE = """<!doctype html><html lang="{lang}"><body>
<p class="timer"><span class="countdown" data-until="{until}"></span></p>
<script src="{server}/static/js/table.js"></script></body></html>"""


@pytest.mark.parametrize(("language", "pattern"), [("fa", r"^[۰-۹]+:[۰-۹]{2}$"), ("en", r"^[0-9]+:[0-9]{2}$")])
def test_the_countdown_draws_its_digits_in_the_pages_language(server, new_page, language, pattern):
    page = new_page(language)
    page.goto(f"{server}/")  # same origin as the script
    until = page.evaluate("new Date(Date.now() + 95000).toISOString()")
    page.set_content(PAGE.format(lang=language, until=until, server=server))
    countdown = page.locator(".countdown")
    page.wait_for_function("document.querySelector('.countdown').textContent !== ''")
    assert re.match(pattern, countdown.text_content()), countdown.text_content()


@pytest.mark.parametrize(("language", "numbered"), [("fa", "persian"), ("en", "decimal")])
def test_a_numbered_list_counts_in_the_pages_language_and_an_unmarked_one_stays_unmarked(
    server, new_page, language, numbered
):
    """The log's entries are an ``<ol>`` whose numbers the browser draws: on a Persian page in
    Persian digits. The ring of seats is an ``<ol>`` drawn without numbers, on either page."""

    page = new_page(language)
    become_guest(page, server, "Sara")
    create_table(page, server, "werewolf", 5, speed="relaxed")
    fill_with_bots_and_start(page)
    page.wait_for_selector("#log ol.log-entries li")
    style = "(selector) => getComputedStyle(document.querySelector(selector)).listStyleType"
    assert page.evaluate(style, "#log ol.log-entries") == numbered
    assert page.evaluate(style, "#seats ol.ring") == "none"

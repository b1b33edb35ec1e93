"""The countdown the browser draws follows the page's language: Persian digits on a Persian page,
Latin ones on an English page."""

from __future__ import annotations

import re

import pytest

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

"""The club form's time zone is a select of readable zones: an English page starts from the
browser's own zone, a Persian one from Tehran's, named in Persian with Persian digits."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.flows import sign_up

pytestmark = pytest.mark.e2e


def test_the_club_form_starts_from_the_browsers_zone_and_reads_in_persian(server, browser, tmp_path):
    english = browser.new_context(
        locale="en", timezone_id="America/Toronto", extra_http_headers={"Accept-Language": "en"}
    )
    persian = browser.new_context(locale="fa", timezone_id="Asia/Tehran", extra_http_headers={"Accept-Language": "fa"})
    try:
        olga = english.new_page()
        sign_up(olga, server, "olgazone")
        olga.goto(f"{server}/clubs/new/")
        expect(olga.locator("select[name=time_zone]")).to_have_value("America/Toronto")
        shirin = persian.new_page()
        sign_up(shirin, server, "shirinzone")
        shirin.goto(f"{server}/clubs/new/")
        zone = shirin.locator("select[name=time_zone]")
        expect(zone).to_have_value("Asia/Tehran")
        shown = zone.locator("option:checked").inner_text()
        assert shown.startswith("تهران (") and "۳:۳۰" in shown and not any(c in "0123456789" for c in shown), shown
        zone.screenshot(path=str(tmp_path / "zone-fa.png"))
    finally:
        english.close()
        persian.close()

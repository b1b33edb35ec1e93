"""Foot-guns in a real browser: a host alone with bots is asked before "Leave seat" closes the
table, and the closed table's page leads on; a guest pressing "Log out" is warned that their games
will be lost and offered sign-up first."""

from __future__ import annotations

import re

import pytest

from tests.e2e.flows import become_guest, create_table

pytestmark = pytest.mark.e2e


def test_a_host_alone_with_bots_confirms_before_leaving_closes_the_table(server, new_page):
    page = new_page("fa")
    become_guest(page, server, "سارا")
    table_url = create_table(page, server, "werewolf", 5)
    page.click("[data-testid=fill-bots]")
    page.click("[data-testid=leave]")
    page.wait_for_selector("[data-testid=leave-confirm]")
    page.click("[data-testid=stay]")
    page.wait_for_url(table_url)
    assert page.locator("[data-testid=leave]").count() == 1, "staying keeps the seat"

    page.click("[data-testid=leave]")
    page.click("[data-testid=confirm-leave]")
    page.wait_for_url(table_url)
    page.wait_for_selector("[data-testid=closed-lobby]")
    page.click("[data-testid=closed-new-table]")
    page.wait_for_url(re.compile(r".*/new/werewolf/$"))


def test_a_guest_is_warned_before_log_out_loses_their_games(server, new_page):
    page = new_page("fa")
    become_guest(page, server, "نگار")
    assert page.locator("[data-testid=my-games]").count() == 1, "a guest finds their games"
    page.click("[data-testid=logout]")
    page.wait_for_selector("[data-testid=logout-confirm]")
    assert page.locator("[data-testid=signup-instead]").get_attribute("href").endswith("/accounts/signup/")
    page.go_back()
    page.reload()
    assert "نگار" in page.locator("[data-testid=who]").inner_text(), "still the same guest"
    page.click("[data-testid=logout]")
    page.click("[data-testid=confirm-logout]")
    page.wait_for_url(re.compile(r".*/$"))
    assert page.locator("[data-testid=who]").count() == 0

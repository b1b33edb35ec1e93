"""The host's menu in a real browser, on a phone: the host pauses (the friend's page says who
paused, live), resumes, and hands the friend's seat to a bot after a confirmation page; the
friend, who never sees the menu, takes the seat back."""

from __future__ import annotations

import pytest

from tests.e2e.flows import become_guest, create_table, friend_joins_and_host_starts, wait_for_socket

pytestmark = pytest.mark.e2e
PHONE = {"width": 390, "height": 844}


def _open_menu(page) -> None:
    page.click("[data-testid=host-menu] > summary")


def _no_sideways_scroll(page) -> bool:
    return page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth + 1")


def test_the_host_pauses_resumes_and_hands_a_seat_to_a_bot_from_the_menu_on_a_phone(server, new_page):
    host, friend = new_page("fa"), new_page("en")
    for page in (host, friend):
        page.set_viewport_size(PHONE)
    become_guest(host, server, "سارا")
    invite = create_table(host, server, "werewolf", 5, speed="relaxed")
    friend_joins_and_host_starts(host, friend, server, invite)
    assert friend.locator("[data-testid=host-menu]").count() == 0, "only the host has the menu"

    _open_menu(host)
    assert host.locator("[data-testid=host-pause]").is_visible() and _no_sideways_scroll(host)
    host.click("[data-testid=host-pause]")
    friend.wait_for_selector("[data-testid=paused]")  # live, over the friend's socket
    assert "سارا" in friend.locator("[data-testid=paused]").inner_text()
    wait_for_socket(host)
    _open_menu(host)
    host.click("[data-testid=host-resume]")
    friend.wait_for_selector("[data-testid=paused]", state="detached")

    wait_for_socket(host)
    _open_menu(host)
    host.click("[data-testid=host-to-bot]")
    host.wait_for_selector("[data-testid=host-confirm]")
    assert "Bijan" in host.locator("[data-testid=host-confirm]").inner_text()
    host.click("[data-testid=host-confirm-yes]")
    friend.wait_for_selector("[data-testid=take-back]")
    assert "a practice bot" in friend.locator("#log").inner_text()
    friend.click("[data-testid=take-back]")
    friend.wait_for_selector("[data-testid=take-back]", state="detached")

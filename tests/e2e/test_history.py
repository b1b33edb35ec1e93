"""History in a real browser: a guest finishes a Dracula game against a bot, opens its match page,
steps through the replay with the keyboard from their own eyes, the bot's and everyone's (each
showing only that seat's secrets), verifies the deal, and opens their profile and a leaderboard."""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.e2e.flows import become_guest, create_table, fill_with_bots_and_start, play_until_over

pytestmark = pytest.mark.e2e


def _step(page) -> int:
    return int(page.locator("#replay").get_attribute("data-step"))


def _secret_owners(page) -> set[str]:
    return set(re.findall(r'data-secret-of="(\d+)"', page.locator("#replay .replay-panels").inner_html()))


def _press(page, key: str, expected_step: int) -> None:
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.keyboard.press(key)
    page.wait_for_selector(f"#replay[data-step='{expected_step}']")


def _look_through(page, eyes: str) -> None:
    page.select_option("[data-testid=replay-eyes]", eyes)
    page.wait_for_selector(f"#replay[data-eyes='{eyes}']")


def test_a_guest_replays_their_game_from_every_seat_and_verifies_the_deal(server, new_page):
    page = new_page("en")
    become_guest(page, server, "Ava")
    create_table(page, server, "dracula", 2)
    fill_with_bots_and_start(page)
    page.wait_for_selector("[data-testid=deal-commitment]")
    commitment = page.locator("[data-testid=deal-commitment] code").inner_text()
    play_until_over([page])

    page.click("[data-testid=match-page-link]")
    page.wait_for_selector("[data-testid=match-page]")
    last = int(page.locator("#replay").get_attribute("data-last"))
    assert last > 3 and _step(page) == last
    assert page.locator("#replay").get_attribute("data-eyes") == "0", "a player starts from their own eyes"

    _press(page, "Home", 0)
    _press(page, "ArrowRight", 1)
    _press(page, "ArrowRight", 2)
    assert page.locator("#replay a.current[aria-current=step]").get_attribute("data-seq") == "2"
    assert "step=2" in page.url, "each step has its own address"
    assert _secret_owners(page) == {"0"}, "my own cards, and nobody else's"
    _press(page, "ArrowLeft", 1)

    _look_through(page, "1")
    assert _step(page) == 1
    assert _secret_owners(page) == {"1"}, "the bot's eyes see the bot's cards only"
    _press(page, "End", last)
    _press(page, "ArrowLeft", last - 1)

    _look_through(page, "all")
    _press(page, "Home", 0)
    _press(page, "ArrowRight", 1)
    assert _secret_owners(page) == {"0", "1"}, "everything shows every seat's secrets"
    assert page.locator("[data-testid=replay-panel]").count() == 3  # two seats and the face-down cards

    page.reload()
    assert _step(page) == 1 and page.locator("#replay").get_attribute("data-eyes") == "all"
    # axe on the match page, every seat's eyes open (three panels, the current move highlighted)
    grave = [v for v in Axe().run(page).response["violations"] if v["impact"] in ("serious", "critical")]
    assert not grave, [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:5]) for v in grave]

    assert commitment in page.locator("[data-testid=deal]").inner_text()
    page.click("[data-testid=verify-deal]")
    page.wait_for_selector("[data-testid=verified]")

    page.click("[data-testid=my-profile]")
    page.wait_for_selector("[data-testid=profile]")
    assert page.locator("[data-testid=no-ratings]").count() == 1, "a game against a bot is not rated"
    assert page.locator("[data-testid=recent] a").count() == 1
    page.click("[data-testid=leaderboards]")
    page.wait_for_selector("[data-testid=leaderboard]")

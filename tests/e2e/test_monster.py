"""A whole Monster game in a real browser: a guest hosts a three-seat table, a second guest joins by
the invite link, a bot fills the last seat, both play every decision by clicking cards, and a third
guest watches. A face-down pick is drawn on its owner's page only; no page ever shows another
seat's secret, and the end shows every seat's score."""

from __future__ import annotations

import re

import pytest

from tests.e2e.flows import become_guest, create_table, friend_joins_and_host_starts, play_until_over, wait_for_socket

pytestmark = pytest.mark.e2e


def test_two_guests_and_a_bot_play_monster_to_the_end(server, new_page):
    host = new_page("en")
    become_guest(host, server, "Ava")
    # Relaxed: the first pick's timer (60 s x 2 x the tests' TIMER_SCALE 0.15 = 18 s) outlasts the
    # friend's and the watcher's arrival on a slow machine; at "fast" (4.5 s) it ran out first.
    invite = create_table(host, server, "monster", 3, speed="relaxed")

    friend = new_page("fa")
    friend_joins_and_host_starts(host, friend, server, invite)
    host.wait_for_selector("#actions button.action")
    assert host.locator("#actions button.action").count() == 9, "nine monsters to pick from"
    assert host.locator("[data-testid=offer] .vc-card").count() == 3, "one victim per player on offer"
    assert "قربانی" in friend.locator("#board").inner_text(), "the friend reads Persian"

    watcher = new_page("en")
    become_guest(watcher, server, "Cyrus")
    watcher.goto(invite)
    wait_for_socket(watcher)
    watcher.wait_for_selector("[data-testid=spectator]")

    # The host picks first: the card shows on the host's page, face down everywhere else.
    host.locator("#actions button.kind-select").nth(6).click()
    host.wait_for_selector("[data-testid=my-pick] [data-monster='6']")
    friend.wait_for_selector("[data-testid=picked-0]")
    watcher.wait_for_selector("[data-testid=picked-0]")
    for page, own_seat in ((friend, "1"), (watcher, None)):
        others = "[data-secret-of]" if own_seat is None else f"[data-secret-of]:not([data-secret-of='{own_seat}'])"
        assert page.locator(f"{others}, [data-testid=my-pick]").count() == 0
    assert friend.locator("#actions button.kind-select").count() == 9, "the friend still chooses from all nine"

    own = {host: "0", friend: "1", watcher: None}
    seen = {"checks": 0}

    def never_shows_another_seats_secret(page):
        html = page.content()
        secrets = set(re.findall(r'data-secret-of="(\d+)"', html))
        seen["checks"] += 1
        assert secrets <= ({own[page]} if own[page] else set()), secrets
        if 'data-testid="my-pick"' in html:
            assert own[page] is not None, "a spectator has no pick"

    play_until_over([host, friend, watcher], on_each=never_shows_another_seats_secret, limit_s=150)
    assert seen["checks"] > 0
    for page in (host, friend, watcher):
        result = page.locator("[data-testid=result]")
        assert result.locator("li[data-seat]").count() == 3, "every seat's final score is shown"
        assert result.locator("li.winner").count() == 1
        assert page.locator("[data-testid=scores] tbody tr").count() == 3, "three nights scored"
        assert page.locator("#actions button.action").count() == 0
    assert "succeeds Dr Frankenstein" in host.locator("[data-testid=result]").inner_text()
    assert "فرانکنشتاین" in friend.locator("[data-testid=result]").inner_text()

"""A whole Night of the Mummy game in a real browser: a guest hosts (picking options in the long
create form), a second guest joins by the invite link, bots fill the rest, both humans play
through the UI to the end, and neither page ever shows the other's guest or a face-down card."""

from __future__ import annotations

import re

import pytest

from tests.e2e.flows import become_guest, create_table, friend_joins_and_host_starts, play_until_over

pytestmark = pytest.mark.e2e

GUEST_NAMES = re.compile(r"(unmasked every guest|round limit)", re.I)


# Another seat's secret, another unrevealed player's guest, or a face-down mystery guest that this
# seat did not peek at, anywhere on the page: the list of what leaked (empty when nothing did).
# Read in one evaluation with the check for the end, so that the result's frame cannot arrive
# between "is it over?" and the reading of the page (the end reveals every secret).
LEAKS_JS = """(mine) => {
  if (document.querySelector('[data-testid=result]')) return [];
  const bad = [];
  const marked = '#board [data-secret-of], #log [data-secret-of], #actions [data-secret-of]';
  for (const el of document.querySelectorAll(marked))
    if (el.dataset.secretOf !== String(mine)) bad.push('secret of seat ' + el.dataset.secretOf);
  for (const tile of document.querySelectorAll('#board .mm-players .mm-player')) {
    if (tile.dataset.seat === String(mine) || tile.querySelector('.mm-tag.revealed')) continue;
    if (tile.querySelector('[data-guest]')) bad.push('guest of seat ' + tile.dataset.seat);
  }
  for (const tile of document.querySelectorAll('#board .mm-mystery .mm-player')) {
    if (tile.querySelector('.mm-tag.revealed')) continue;
    for (const card of tile.querySelectorAll('[data-guest]'))
      if (!card.closest('[data-secret-of="' + mine + '"]')) bad.push('mystery guest ' + tile.dataset.slot);
  }
  return bad;
}"""


def test_two_guests_and_bots_play_the_mummy_to_the_end(server, new_page):
    host = new_page("en")
    become_guest(host, server, "Ava")
    invite = create_table(host, server, "mummy", 4, first_player="1", guest_gargoyle="in", max_rounds="5")

    friend = new_page("fa")
    friend_joins_and_host_starts(host, friend, server, invite)
    seats = {}
    guests = {}
    for page in (host, friend):
        card = page.locator("[data-testid=my-guest] .mm-card.big")
        card.wait_for()
        seats[page] = int(card.get_attribute("data-secret-of"))
        guests[page] = card.get_attribute("data-guest")
    assert seats[host] != seats[friend]
    assert friend.locator("html").get_attribute("dir") == "rtl"
    assert "GARGOYLE" in host.locator("#board .mm-names").inner_html() or host.locator(".mm-g-gargoyle").count()

    checks = {"n": 0}

    def never_shows_another_seats_secret(page):
        assert page.evaluate(LEAKS_JS, seats[page]) == []
        checks["n"] += 1

    play_until_over([host, friend], on_each=never_shows_another_seats_secret, limit_s=80)
    assert checks["n"] > 0
    for page in (host, friend):
        result = page.locator("[data-testid=result]")
        assert result.locator("[data-guest-of]").count() == 4, "every guest is revealed at the end"
    assert host.locator(f"[data-testid=result] [data-guest-of='{seats[friend]}']").get_attribute("data-guest")
    assert GUEST_NAMES.search(host.locator("[data-testid=result] h2").inner_text())
    hosts_final_guest = f"[data-testid=result] [data-guest-of='{seats[host]}']"
    final_friend = friend.locator(hosts_final_guest).get_attribute("data-guest")
    assert final_friend == host.locator(hosts_final_guest).get_attribute("data-guest")
    assert host.locator("#board .mm-mystery").count() == 0 and host.locator("[data-mystery]").count() == 2

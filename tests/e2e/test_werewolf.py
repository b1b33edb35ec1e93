"""A whole Werewolf game in a real browser: a guest hosts, a second guest joins by the invite
link, bots fill the rest, both play through the UI to the end, and the second guest's page never
shows the host's role while the host lives."""

from __future__ import annotations

import re

import pytest

from tests.e2e.flows import become_guest, create_table, friend_joins_and_host_starts, play_until_over

pytestmark = pytest.mark.e2e


def test_two_guests_and_bots_play_werewolf_to_the_end(server, new_page):
    host = new_page("en")
    become_guest(host, server, "Ava")
    invite = create_table(host, server, "werewolf", 5)
    assert host.locator("[data-testid=invite-link]").input_value() == invite

    friend = new_page("en")
    friend_joins_and_host_starts(host, friend, server, invite)
    host.wait_for_selector("[data-testid=my-role]")
    friend.wait_for_selector("[data-testid=my-role]")
    host_role = host.locator("[data-testid=my-role] .role").inner_text()
    friend_role = friend.locator("[data-testid=my-role] .role").inner_text()
    host_seat = int(host.locator("[data-testid=my-role] .role").get_attribute("data-role-of"))

    seen = {"checks": 0}

    def never_shows_the_hosts_role(page):
        if page is not friend:
            return
        html = page.content()  # one reading: the result's frame may arrive at any moment
        if 'data-testid="result"' in html:
            return  # the end reveals every role
        if f'data-testid="dead-{host_seat}"' in html:
            return  # a dead player's role is public
        seen["checks"] += 1
        assert f'data-role-of="{host_seat}"' not in html
        if friend_role != host_role:
            assert host_role not in page.locator("[data-testid=my-role]").inner_text()

    play_until_over([host, friend], on_each=never_shows_the_hosts_role)
    assert seen["checks"] > 0
    for page in (host, friend):
        result = page.locator("[data-testid=result]")
        assert re.search(r"(village|wolves) wins?", result.inner_text(), re.I)
        assert result.locator("[data-role-of]").count() == 5, "every role is revealed at the end"
    assert friend.locator(f"[data-testid=result] [data-role-of='{host_seat}']").inner_text() == host_role

    host.click("[data-testid=play-again]")
    host.wait_for_selector("[data-testid=invite-link]")
    assert host.url != invite, "the next game has its own table"
    friend.wait_for_selector("[data-testid=next-game]")
    friend.click("[data-testid=next-game]")
    friend.wait_for_url(host.url)

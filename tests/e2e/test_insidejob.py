"""A whole Inside Job game in a real browser: a guest hosts a 4-seat table, bots fill it, the guest
plays every decision by clicking the cards and buttons of #actions, and the page never shows another
seat's secret: no element marked as another seat's, and none of the cards the end reveals as still
in another hand or set aside."""

from __future__ import annotations

import re

import pytest

from tests.e2e.flows import become_guest, create_table, play_until_over, wait_for_socket

pytestmark = pytest.mark.e2e


def test_a_guest_plays_inside_job_with_bots_to_the_end(server, new_page):
    page = new_page("en")
    become_guest(page, server, "Ava")
    invite = create_table(page, server, "insidejob", 4)
    page.click("[data-testid=fill-bots]")
    page.click("[data-testid=start]")
    page.goto(invite)
    wait_for_socket(page)
    page.wait_for_selector("[data-testid=my-role]")
    mine = page.locator(".ij-mine").get_attribute("data-secret-of")
    my_role = page.locator("[data-testid=my-role] .ij-role-name").inner_text()
    assert my_role in {"Agent", "Insider"}
    assert page.locator("[data-testid=my-hand] [data-card]").count() == 12

    snapshots: list[str] = []

    def shows_only_my_secrets(p):
        html = p.content()  # one reading: the result's frame may arrive at any moment
        if 'data-testid="result"' in html:
            return  # the end reveals every secret
        snapshots.append(html)
        assert set(re.findall(r'data-secret-of="(\d+)"', html)) <= {mine}

    play_until_over([page], on_each=shows_only_my_secrets, limit_s=80)
    assert len(snapshots) > 5

    result = page.locator("[data-testid=result]")
    assert re.search(r"The (agents win|Insider wins)", result.inner_text())
    assert result.locator(".ij-role-name[data-role-of]").count() >= 4, "every role is shown at the end"
    assert result.locator(f"[data-role-of='{mine}']").first.inner_text() == my_role
    hidden_cards = set()
    for row in result.locator("li[data-seat]").all():
        if row.get_attribute("data-seat") != mine:
            hidden_cards |= {c.get_attribute("data-card") for c in row.locator("[data-card]").all()}
    hidden_cards |= {c.get_attribute("data-card") for c in result.locator(".ij-reveal-extra [data-card]").all()}
    assert hidden_cards, "the end reveals the cards nobody played"
    for html in snapshots:
        seen = set(re.findall(r'data-card="([BGYR]\d+)"', html))
        assert not seen & hidden_cards

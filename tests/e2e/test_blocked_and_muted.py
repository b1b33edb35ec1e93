"""One's blocks and mutes, on a Persian phone: the list fits the screen, each name keeps its
button beside it, and «رفع مسدودی» ends the block there and then."""

from __future__ import annotations

import pytest

from tests.e2e.flows import run_in_site, sign_up

pytestmark = pytest.mark.e2e

BLOCK_AND_MUTE = """
import sys
from accounts.models import User
from moderation.models import Block, PersonalMute
me = User.objects.get(username=sys.argv[1])
for i, name in enumerate(["Farahmandpour-Esfahani", "نگار", "Bijan"]):
    other = User.objects.create_user(f"{sys.argv[1]}-other{i}", password="a-long-password-1", display_name=name)
    Block.objects.create(blocker=me, blocked=other)
    PersonalMute.objects.create(muter=me, muted=other)
    print(other.pk)
"""


def test_a_persian_phone_lists_ones_blocks_and_mutes_and_ends_a_block_from_the_list(
    server, server_settings, new_page
):
    page = new_page("fa")
    page.set_viewport_size({"width": 360, "height": 740})
    sign_up(page, server, "roya")
    others = run_in_site(server_settings, BLOCK_AND_MUTE, "roya").split()
    page.goto(f"{server}/accounts/account/")
    page.click("[data-testid=blocked-and-muted-link]")
    page.wait_for_selector("[data-testid=blocked-list]")
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    for pk in others:
        button = page.locator(f"[data-testid=unblock-{pk}]").bounding_box()
        assert button is not None and button["x"] >= 0 and button["x"] + button["width"] <= 360
    assert page.locator("[data-testid=blocked-list] li").count() == 3
    page.click(f"[data-testid=unblock-{others[0]}]")
    told = page.locator("ul.messages li.success").inner_text()
    assert "Farahmandpour-Esfahani" in told and "میزهای شما" in told
    assert page.locator("[data-testid=blocked-list] li").count() == 2
    assert page.locator("[data-testid=muted-list] li").count() == 3, "only the block ended"

"""The decision a member must make is in view without scrolling (the site's rule): on a phone, a
member who has not answered a night sees its title, date and place, and under them the going /
maybe / not going buttons, on the first screen, in English and in Persian."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest

from tests.e2e.flows import create_club, plan_night, sign_up

pytestmark = pytest.mark.e2e

PHONES = [{"width": 360, "height": 740}, {"width": 390, "height": 844}]


def _plan_a_night(page, server: str) -> str:
    starts = (datetime.now() + timedelta(days=3)).replace(hour=19, minute=0)
    fields = {
        "title": "A long evening of werewolves and mummies",
        "starts": starts.strftime("%Y-%m-%dT%H:%M"),
        "address": "Café Naderi, Jomhouri Street, Tehran",
        "place_note": "Upstairs, the room at the back; ring twice",
        "capacity": "12",
    }
    return plan_night(page, server, "first-screen", fields, ("werewolf", "mummy", "dracula"))


def _box(page, selector: str) -> dict:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box


def test_a_members_rsvp_buttons_are_on_the_first_screen_of_a_phone_in_both_languages(server, new_page):
    olga = new_page("en")
    sign_up(olga, server, "fsolga")
    invite = create_club(olga, server, "First Screen", "first-screen", "Asia/Tehran")
    night_url = _plan_a_night(olga, server)
    for language in ("en", "fa"):
        member = new_page(language)
        sign_up(member, server, f"fs{language}")
        member.goto(invite)
        member.click("[data-testid=accept-invite]")
        member.wait_for_url(re.compile(r".*/clubs/first-screen/$"))
        for phone in PHONES:
            member.set_viewport_size(phone)
            member.goto(night_url)
            assert member.evaluate("window.scrollY") == 0
            buttons = [_box(member, f"[data-testid=rsvp-{value}]") for value in ("going", "maybe", "no")]
            for box in buttons:
                assert box["y"] >= 0 and box["y"] + box["height"] <= phone["height"], (language, phone, box)
            first_button = min(box["y"] for box in buttons)
            for above in ("h1", "[data-testid=when]", "[data-testid=where]"):
                assert _box(member, above)["y"] < first_button, (language, phone, above)

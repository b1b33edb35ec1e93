"""A club night planned and answered in Persian on a phone: the start typed as a Jalali date in
Persian digits, shown back in Jalali, right to left and no wider than the phone; the live count
in Persian digits."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import jdatetime
import pytest
from playwright.sync_api import expect

from tests.e2e.flows import create_club, sign_up

pytestmark = pytest.mark.e2e

PERSIAN = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
PHONE = {"width": 390, "height": 844}


def _wider_than_the_page(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def test_a_persian_organizer_plans_a_night_in_jalali_on_a_phone_and_a_member_answers(server, new_page):
    """Shirin organizes in Persian on a 390 px phone. She types the night's start as a Jalali date
    in Persian digits; the night's page shows it back in Jalali. Kaveh, a member who reads Persian,
    says he is going, and Shirin's count follows live, in Persian digits."""
    shirin = new_page("fa")
    shirin.set_viewport_size(PHONE)
    sign_up(shirin, server, "shirin")
    invite = create_club(shirin, server, "شب‌های گرگینه", "werewolf-nights", "Asia/Tehran")
    assert shirin.evaluate("document.documentElement.dir") == "rtl"
    assert _wider_than_the_page(shirin) <= 0

    kaveh = new_page("fa")
    kaveh.set_viewport_size(PHONE)
    sign_up(kaveh, server, "kaveh")
    kaveh.goto(invite)
    kaveh.click("[data-testid=accept-invite]")
    kaveh.wait_for_url(re.compile(r".*/clubs/werewolf-nights/$"))

    shirin.goto(f"{server}/clubs/werewolf-nights/nights/new/")
    starts = (datetime.now(ZoneInfo("Asia/Tehran")) + timedelta(days=3)).replace(
        hour=19, minute=30, second=0, microsecond=0, tzinfo=None
    )
    jalali = jdatetime.datetime.fromgregorian(datetime=starts)
    typed = f"{jalali.year:04d}/{jalali.month:02d}/{jalali.day:02d} 19:30".translate(PERSIAN)
    shirin.fill("input[name=title]", "گرگینه")
    shirin.fill("input[name=starts]", typed)
    shirin.fill("input[name=address]", "کافه نادری")
    shirin.fill("input[name=capacity]", "6")
    shirin.check("input[name=g-werewolf-offered]")
    assert _wider_than_the_page(shirin) <= 0
    shirin.click("[data-testid=night-form] button[type=submit]")
    shirin.wait_for_url(re.compile(r".*/clubs/werewolf-nights/nights/\d+/$"))
    night_url = shirin.url

    when = shirin.locator("[data-testid=when]").inner_text()
    assert str(jalali.year).translate(PERSIAN) in when and "۱۹:۳۰" in when, when
    assert str(starts.year) not in when and not re.search(r"[0-9]", when.replace("Asia/Tehran", "")), when
    assert _wider_than_the_page(shirin) <= 0
    shirin.wait_for_selector("#night-counts[data-live]", state="attached")
    expect(shirin.locator("[data-testid=going-count]")).to_have_text(re.compile(r"^[^0-9]*۰[^0-9]*۶[^0-9]*$"))

    kaveh.goto(night_url)
    kaveh.click("[data-testid=rsvp-going]")
    kaveh.wait_for_selector("[data-testid=my-answer]")
    assert _wider_than_the_page(kaveh) <= 0
    # Shirin's page follows without a reload, in Persian digits.
    expect(shirin.locator("[data-testid=going-count]")).to_have_text(re.compile(r"^[^0-9]*۱[^0-9]*۶[^0-9]*$"))

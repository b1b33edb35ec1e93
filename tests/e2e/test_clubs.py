"""A club's week in a real browser: an organizer creates a club and a weekly night for two; three
members answer, so one waits; one drops out, the one waiting accepts the offered seat and is
going; the others' pages follow live; the organizer's .ics parses."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import icalendar
import pytest
from playwright.sync_api import expect

from tests.e2e.flows import create_club, plan_night, sign_up

pytestmark = pytest.mark.e2e


def _live(page) -> None:
    page.wait_for_selector("#night-counts[data-live]", state="attached")


def test_an_organizer_plans_a_weekly_night_and_the_waitlist_fills_a_freed_seat(server, new_page):
    olga = new_page("en")
    sign_up(olga, server, "olga")
    invite = create_club(olga, server, "Dracula Thursdays", "dracula-thursdays", "Europe/Berlin")
    assert olga.locator(".qr svg").count() == 1

    members = []
    for name in ("mina", "navid", "parisa"):
        page = new_page("en")
        sign_up(page, server, name)
        page.goto(invite)
        page.click("[data-testid=accept-invite]")
        page.wait_for_url(re.compile(r".*/clubs/dracula-thursdays/$"))
        members.append(page)

    starts = (datetime.now() + timedelta(days=3)).replace(hour=19, minute=0)
    fields = {"title": "Dracula duel", "starts": starts.strftime("%Y-%m-%dT%H:%M"), "address": "Café Naderi"}
    night_url = plan_night(olga, server, "dracula-thursdays", {**fields, "capacity": "2"}, ("dracula",), "weekly")

    for page in members:
        page.goto(night_url)
        page.click("[data-testid=rsvp-going]")
        page.wait_for_selector("[data-testid=my-answer]")
    mina, navid, parisa = members
    expect(mina.locator("[data-testid=my-answer]")).to_have_text("Going")
    expect(navid.locator("[data-testid=my-answer]")).to_have_text("Going")
    expect(parisa.locator("[data-testid=my-answer]")).to_contain_text("On the waitlist")

    for page in (navid, parisa):
        page.goto(night_url)
        _live(page)
    mina.click("[data-testid=rsvp-no]")
    expect(navid.locator("[data-testid=going-count]")).to_have_text("1 of 2 going")  # live, no reload

    parisa.reload()
    parisa.click("[data-testid=accept-offer]")
    expect(parisa.locator("[data-testid=my-answer]")).to_have_text("Going")
    expect(navid.locator("[data-testid=going-count]")).to_have_text("2 of 2 going")

    olga.goto(night_url)
    with olga.expect_download() as download:
        olga.click("[data-testid=add-to-calendar]")
    cal = icalendar.Calendar.from_ical(open(download.value.path(), "rb").read())
    (event,) = cal.walk("VEVENT")
    assert str(event["SUMMARY"]) == "Dracula duel — Dracula Thursdays"
    assert event["DTSTART"].dt.strftime("%Y-%m-%dT%H:%M") == starts.strftime("%Y-%m-%dT%H:%M")
    assert str(event["DTSTART"].dt.tzinfo) == "Europe/Berlin"
    assert event.walk("VALARM")


def test_the_night_form_fits_a_small_phone_in_english(server, new_page):
    """On a 360 px phone every offered game's box stays inside the page: a box is not widened by
    its longest option's text (Monster's tile rule), so the page never scrolls sideways."""
    olga = new_page("en")
    olga.set_viewport_size({"width": 360, "height": 740})
    sign_up(olga, server, "ilse")
    create_club(olga, server, "Small Screens", "small-screens", "Europe/Berlin")
    olga.goto(f"{server}/clubs/small-screens/nights/new/")
    olga.wait_for_selector("fieldset.game-choice")
    assert olga.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0

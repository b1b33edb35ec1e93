"""The Persian admin in a real browser: the counts Django's own scripts write as staff tick rows
(static/js/admin-digits.js) are in Persian digits like the rest of the page, its dates are Jalali,
and a date box, which takes an ISO date as Django's does, reads its day in Jalali beside it; the
English admin's are Django's."""

from __future__ import annotations

import re

import pytest

from tests.e2e.flows import run_in_site

pytestmark = pytest.mark.e2e

SEED = """
import sys
from datetime import UTC, datetime
from accounts.models import User
from moderation.models import Device
staff, _ = User.objects.get_or_create(username=sys.argv[1], defaults={"display_name": "Staff"})
staff.is_staff = staff.is_superuser = True
staff.set_password("a-long-password-1")
staff.save()
for i in range(3):
    Device.objects.get_or_create(user=staff, device=f"{sys.argv[1]}-device-{i}")
Device.objects.filter(user=staff).update(first_seen=datetime(2026, 12, 1, 15, 0, tzinfo=UTC))
"""


def _staff_page(new_page, server, server_settings, language: str):
    username = f"staff_{language}"
    run_in_site(server_settings, SEED, username)
    page = new_page(language)
    page.goto(f"{server}/admin/login/?next=/admin/moderation/device/")
    page.fill("#id_username", username)
    page.fill("#id_password", "a-long-password-1")
    page.click("input[type=submit]")
    page.wait_for_url(re.compile(r".*/admin/moderation/device/$"))
    page.fill("#searchbar", f"{username}-device")
    page.press("#searchbar", "Enter")
    page.wait_for_load_state()
    return page


def test_the_persian_admin_counts_ticked_rows_in_persian_digits(new_page, server, server_settings):
    page = _staff_page(new_page, server, server_settings, "fa")
    assert page.locator(".action-counter").inner_text() == "۰ از ۳ انتخاب شده‌اند"
    page.locator("input.action-select").nth(0).check()
    page.locator("input.action-select").nth(1).check()
    assert page.locator(".action-counter").inner_text() == "۲ از ۳ انتخاب شده‌اند"
    assert page.locator("td.field-first_seen").first.inner_text() == "۱۰ آذر ۱۴۰۵، ساعت ۱۸:۳۰"


def test_the_english_admin_counts_ticked_rows_as_django_does(new_page, server, server_settings):
    page = _staff_page(new_page, server, server_settings, "en")
    page.locator("input.action-select").nth(0).check()
    assert page.locator(".action-counter").inner_text() == "1 of 3 selected"
    assert page.locator("td.field-first_seen").first.inner_text() == "Dec. 1, 2026, 3 p.m."


def test_a_persian_date_box_reads_its_iso_date_in_jalali_beside_it(new_page, server, server_settings):
    page = _staff_page(new_page, server, server_settings, "fa")
    page.goto(f"{server}/admin/clubs/season/add/")
    page.fill("#id_starts_on", "2027-03-21")
    reading = page.locator("#id_starts_on ~ .jalali-reading")
    assert reading.inner_text() == "۱ فروردین ۱۴۰۶"
    page.fill("#id_starts_on", "2027-02-30")
    assert reading.inner_text() == "", "no such day: no reading"
    page.locator("#id_starts_on ~ .datetimeshortcuts a").first.click()  # Django's "Today"
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", page.input_value("#id_starts_on")), "the box keeps its ISO date"
    assert re.fullmatch(r"[۰-۹]{1,2} \S+ [۰-۹]{4}", reading.inner_text())


def test_an_english_date_box_has_no_jalali_reading(new_page, server, server_settings):
    page = _staff_page(new_page, server, server_settings, "en")
    page.goto(f"{server}/admin/clubs/season/add/")
    page.fill("#id_starts_on", "2027-03-21")
    assert page.locator(".jalali-reading").count() == 0

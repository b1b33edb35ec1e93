"""The admin names a night by its start in the page's calendar, and the nights list's date
drill-down steps through Jalali years, months and days on a Persian page
(shabneshin.admin_calendar.JalaliDrillDown): December 2026 is the end of Azar and the start of Dey
1405, and a Gregorian month named as a Jalali one would list the wrong nights. The English admin's
names and drill-down are Django's."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from accounts.models import User
from clubs import nights
from clubs.models import Night, Rsvp
from tests.platform.clubs.conftest import night_fields

FA = {"HTTP_ACCEPT_LANGUAGE": "fa"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
URL = "/admin/clubs/night/"
DEY = {"starts_at__jalali_year": "1405", "starts_at__jalali_month": "10"}


@pytest.fixture
def staff_client(client, db):
    client.force_login(User.objects.create_superuser("staff", "staff@example.com", "a-long-password-1"))
    return client


@pytest.fixture
def december(club, bob):
    """Azar's last night (Saturday 20 December, 21:30 in Tehran) and Dey's first: 21 December
    21:00 UTC is already 1 Dey, 00:30, in Tehran, the Persian page's zone."""
    azar = nights.create_night(club, bob, night_fields(title="Azar night"))
    dey = nights.create_night(club, bob, night_fields(title="Dey night"))
    Night.objects.filter(pk=azar.pk).update(starts_at=datetime(2026, 12, 20, 18, 0, tzinfo=UTC))
    Night.objects.filter(pk=dey.pk).update(starts_at=datetime(2026, 12, 21, 21, 0, tzinfo=UTC))
    return azar, dey


def _drill_down(page: str) -> list[str]:
    """The drill-down's words, the link back first."""
    nav = re.search(r'<nav class="toplinks">(.*?)</nav>', page, re.S)
    assert nav, "no drill-down"
    return [w.strip() for w in re.split(r"<[^>]*>", nav[1].replace("&lsaquo;", "")) if w.strip()]


def _listed(page: str) -> list[str]:
    return re.findall(r'<th class="field-title"><a [^>]*>(.*?)</a>', page)


def test_the_persian_drill_down_offers_the_jalali_months_the_nights_fall_in(staff_client, december):
    page = staff_client.get(URL, **FA).content.decode()
    assert _drill_down(page) == ["همهٔ تاریخ‌ها", "آذر ۱۴۰۵", "دی ۱۴۰۵"]


def test_a_jalali_month_of_the_drill_down_lists_the_nights_of_that_month_only(staff_client, december):
    page = staff_client.get(URL, DEY, **FA).content.decode()
    assert _listed(page) == ["Dey night"]
    assert _drill_down(page) == ["۱۴۰۵", "۱ دی"]
    day = staff_client.get(URL, {**DEY, "starts_at__jalali_day": "1"}, **FA).content.decode()
    assert _listed(day) == ["Dey night"] and _drill_down(day) == ["دی ۱۴۰۵", "۱ دی"]
    azar = staff_client.get(URL, {**DEY, "starts_at__jalali_month": "9"}, **FA).content.decode()
    assert _listed(azar) == ["Azar night"] and _drill_down(azar) == ["۱۴۰۵", "۲۹ آذر"]


def test_a_jalali_drill_down_link_lists_the_same_nights_on_an_english_page(staff_client, december):
    """The same days, in the reader's zone as Django's own drill-down (an English page's is UTC
    unless the browser names one, and 21 December 21:00 UTC is not Dey yet in UTC)."""
    staff_client.cookies["tz"] = "Asia/Tehran"
    page = staff_client.get(URL, DEY, **EN).content.decode()
    assert _listed(page) == ["Dey night"]


def test_the_english_drill_down_is_djangos_gregorian_one(staff_client, december):
    page = staff_client.get(URL, **EN).content.decode()
    assert _drill_down(page) == ["2026", "December 20", "December 21"]
    month = staff_client.get(URL, {"starts_at__year": "2026", "starts_at__month": "12"}, **EN).content.decode()
    assert sorted(_listed(month)) == ["Azar night", "Dey night"]


@pytest.mark.parametrize("month", ["13", "0", "Dey"])
def test_a_jalali_month_that_does_not_exist_is_refused_as_django_refuses_a_bad_filter(staff_client, december, month):
    response = staff_client.get(URL, {**DEY, "starts_at__jalali_month": month}, **FA)
    assert response.status_code == 302 and response["Location"].endswith("?e=1")


def test_the_persian_admin_names_a_night_by_its_jalali_start_and_the_english_one_as_before(
    staff_client, december, alice
):
    azar, _ = december
    Rsvp.objects.create(night=azar, user=alice, answer=Rsvp.Answer.GOING)
    page = staff_client.get("/admin/clubs/rsvp/", **FA).content.decode()
    assert re.findall(r'<th class="field-night[^"]*"><a [^>]*>(.*?)</a>', page) == [
        "Azar night (۲۹ آذر ۱۴۰۵، ساعت ۲۱:۳۰)"
    ]
    title = staff_client.get(f"{URL}{azar.pk}/change/", **FA).content.decode()
    assert "<h2>Azar night (۲۹ آذر ۱۴۰۵، ساعت ۲۱:۳۰)</h2>" in title and "2026" not in title.split("<form")[0]
    english = staff_client.get("/admin/clubs/rsvp/", **EN).content.decode()
    assert re.findall(r'<th class="field-night[^"]*"><a [^>]*>(.*?)</a>', english) == ["Azar night 2026-12-20 18:00"]

"""The Persian admin shows dates as Jalali dates in Persian digits, and its page numbers and counts
in Persian digits, as every other Persian page does (shabneshin.admin_calendar); the English admin
is Django's, unchanged. The form fields still take ISO dates."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time

import pytest
from django.contrib import admin
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.utils import formats, timezone, translation

from accounts.models import User
from clubs.models import Club, Season, Series
from moderation.models import Device
from shabneshin.admin_calendar import JalaliChangeList
from tests.platform.helpers import started_werewolf

FA = {"HTTP_ACCEPT_LANGUAGE": "fa"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
# 1 December 2026 15:00 UTC is 10 Azar 1405, 18:30 in Tehran (a Persian page's zone without a tz cookie).
MOMENT = datetime(2026, 12, 1, 15, 0, tzinfo=UTC)
JALALI = "۱۰ آذر ۱۴۰۵، ساعت ۱۸:۳۰"
LATIN_OR_GREGORIAN = re.compile(r"[0-9]|2026|دسامبر|December")


@pytest.fixture
def staff(db):
    return User.objects.create_superuser("staff", "staff@example.com", "a-long-password-1", display_name="Staff")


@pytest.fixture
def staff_client(client, staff):
    """The test client logged in as staff, after a first page: the admin's devices list then holds
    the staff member's own browser too (moderation.devices), which ``_devices`` dates as the rest."""
    client.force_login(staff)
    client.get("/admin/")
    return client


def _cells(page: str, field: str) -> list[str]:
    return re.findall(rf'<td class="field-{field}[^"]*">(.*?)</td>', page, re.S)


def _django_english(value: datetime, zone: str = "UTC") -> str:
    """What Django's own admin writes for a date-time on an English page (UTC, no tz cookie)."""
    with translation.override("en"), timezone.override(zone):
        return formats.localize(timezone.template_localtime(value))


def _devices(user: User, count: int) -> list[Device]:
    """``count`` devices, and every device (the staff member's own among them) first seen at MOMENT."""
    devices = [Device.objects.create(user=user, device=f"device-{i}") for i in range(count)]
    Device.objects.update(first_seen=MOMENT)
    return devices


def test_the_persian_admin_lists_a_date_time_column_as_a_jalali_date_in_persian_digits(staff_client, staff):
    _devices(staff, 1)
    page = staff_client.get("/admin/moderation/device/", **FA).content.decode()
    assert _cells(page, "first_seen") == [JALALI, JALALI]


def test_the_english_admin_lists_a_date_time_column_as_django_does(staff_client, staff):
    _devices(staff, 1)
    page = staff_client.get("/admin/moderation/device/", **EN).content.decode()
    assert _cells(page, "first_seen") == [_django_english(MOMENT)] * 2 == ["Dec. 1, 2026, 3 p.m."] * 2


def test_the_persian_admin_still_sorts_a_date_column_by_the_date(staff_client, staff):
    (late,) = _devices(staff, 1)
    Device.objects.filter(pk=late.pk).update(first_seen=datetime(2027, 3, 21, 12, 0, tzinfo=UTC))
    url = "/admin/moderation/device/"
    order = admin.site._registry[Device].get_list_display(None).index("first_seen") + 1
    newest_first = staff_client.get(url, {"o": f"-{order}"}, **FA).content.decode()
    assert _cells(newest_first, "first_seen") == ["۱ فروردین ۱۴۰۶، ساعت ۱۵:۳۰", JALALI]
    oldest_first = staff_client.get(url, {"o": str(order)}, **FA).content.decode()
    assert _cells(oldest_first, "first_seen") == [JALALI, "۱ فروردین ۱۴۰۶، ساعت ۱۵:۳۰"]


def test_the_persian_admin_shows_a_read_only_date_time_as_a_jalali_date(staff_client, staff):
    (device,) = _devices(staff, 1)
    page = staff_client.get(f"/admin/moderation/device/{device.pk}/change/", **FA).content.decode()
    shown = re.search(r'field-first_seen.*?<div class="readonly">(.*?)</div>', page, re.S)
    assert shown and shown[1] == JALALI
    english = staff_client.get(f"/admin/moderation/device/{device.pk}/change/", **EN).content.decode()
    shown = re.search(r'field-first_seen.*?<div class="readonly">(.*?)</div>', english, re.S)
    assert shown and shown[1] == _django_english(MOMENT)


def test_the_persian_admin_shows_an_inlines_read_only_dates_as_jalali_dates(staff_client, staff, alice):
    match = started_werewolf(alice)
    match.table.seats.update(seated_at=MOMENT)
    page = staff_client.get(f"/admin/tables/table/{match.table_id}/change/", **FA).content.decode()
    seated = re.findall(r'<td class="field-seated_at">\s*<p>(.*?)</p>', page, re.S)
    assert seated and set(seated) == {JALALI}


def test_the_persian_admin_shows_a_date_and_a_time_of_day_in_persian_digits(staff_client, staff, alice):
    club = Club.objects.create(name="Wolves", slug="wolves", time_zone="Asia/Tehran")
    Season.objects.create(club=club, name="Winter", starts_on=date(2026, 12, 22), ends_on=date(2027, 3, 20))
    Series.objects.create(
        club=club, frequency="weekly", first_date=date(2026, 12, 1), local_time=time(19, 30), title="T", capacity=8
    )
    seasons = staff_client.get("/admin/clubs/season/", **FA).content.decode()
    assert _cells(seasons, "starts_on") == ["۱ دی ۱۴۰۵"] and _cells(seasons, "ends_on") == ["۲۹ اسفند ۱۴۰۵"]
    series = staff_client.get("/admin/clubs/series/", **FA).content.decode()
    assert _cells(series, "first_date") == ["۱۰ آذر ۱۴۰۵"] and _cells(series, "local_time") == ["۱۹:۳۰"]
    english = staff_client.get("/admin/clubs/series/", **EN).content.decode()
    assert _cells(english, "first_date") == ["Dec. 1, 2026"] and _cells(english, "local_time") == ["7:30 p.m."]


def test_no_persian_list_of_ours_shows_a_gregorian_year_or_a_latin_digit_in_a_date_cell(staff_client, staff, alice):
    """Every registered list, with a record whose dates are all set: no date column reads 2026."""
    started_werewolf(alice)
    _devices(staff, 1)
    checked = 0
    for model, model_admin in admin.site._registry.items():
        dated = {
            f.name
            for f in model._meta.get_fields()
            if getattr(f, "get_internal_type", lambda: "")() in {"DateTimeField", "DateField"}
        }
        columns = [name for name in model_admin.list_display if isinstance(name, str) and name in dated]
        if not columns or not model.objects.exists():
            continue
        url = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
        page = staff_client.get(url, **FA).content.decode()
        for column in columns:
            for cell in _cells(page, column):
                assert cell == "-" or not LATIN_OR_GREGORIAN.search(cell), (url, column, cell)
                checked += 1
    assert checked >= 10


def test_the_persian_admins_date_fields_still_take_and_show_iso_dates(staff_client, staff):
    """A date box staff type in is Django's: its value stays ISO (2026-12-01), in Latin digits."""
    User.objects.filter(pk=staff.pk).update(date_joined=MOMENT)
    page = staff_client.get(f"/admin/accounts/user/{staff.pk}/change/", **FA).content.decode()
    assert 'name="date_joined_0" value="2026-12-01"' in page
    assert 'name="date_joined_1" value="18:30:00"' in page


def test_the_persian_admin_numbers_its_pages_and_counts_in_persian_digits(staff_client, staff):
    _devices(staff, 100)  # and the staff member's own: 101, where a list shows 100 a page
    page = staff_client.get("/admin/moderation/device/", **FA).content.decode()
    paginator = re.search(r'<p class="paginator">(.*?)</p>', page, re.S)
    assert paginator
    assert '<span class="this-page">۱</span>' in paginator[1]
    assert '<a href="?p=2" class="end">۲</a>' in paginator[1], "the link itself keeps its Latin digits"
    assert "۱۰۱ دستگاه" in paginator[1]
    assert re.search(r'class="action-counter"[^>]*>۰ از ۱۰۰ انتخاب شده', page)
    english = staff_client.get("/admin/moderation/device/", **EN).content.decode()
    assert '<a href="?p=2" class="end">2</a>' in english and "101 devices" in english
    assert re.search(r'class="action-counter"[^>]*>0 of 100 selected', english)


def test_the_persian_admin_counts_search_results_in_persian_digits(staff_client, staff):
    _devices(staff, 11)  # and the staff member's own: 12
    page = staff_client.get("/admin/moderation/device/", {"q": "device-1"}, **FA).content.decode()
    assert '۲ نتیجه (<a href="?">در مجموع ۱۲</a>)' in page
    english = staff_client.get("/admin/moderation/device/", {"q": "device-1"}, **EN).content.decode()
    assert '2 results (<a href="?">12 total</a>)' in english


def test_the_persian_history_page_dates_each_change_in_jalali(staff_client, staff):
    (device,) = _devices(staff, 1)
    entry = LogEntry.objects.create(
        user=staff,
        content_type=ContentType.objects.get_for_model(Device),
        object_id=str(device.pk),
        object_repr=str(device),
        action_flag=CHANGE,
        change_message="[]",
    )
    LogEntry.objects.filter(pk=entry.pk).update(action_time=MOMENT)
    url = f"/admin/moderation/device/{device.pk}/history/"
    page = staff_client.get(url, **FA).content.decode()
    assert f'<th scope="row">{JALALI}</th>' in page
    assert "2026" not in page and re.search(r"۱ مورد\s*</p>", page)
    english = staff_client.get(url, **EN).content.decode()
    assert f'<th scope="row">{_django_english(MOMENT)}</th>' in english


def test_every_admin_with_a_date_drill_down_steps_through_jalali_months_on_a_persian_page(rf, staff):
    """A ``date_hierarchy`` without JalaliDrillDown would show Django's Gregorian months on a
    Persian page: every admin that has one has it."""
    request = rf.get("/")
    request.user = staff
    drilled = [a for a in admin.site._registry.values() if a.date_hierarchy]
    assert drilled
    for model_admin in drilled:
        assert issubclass(model_admin.get_changelist(request), JalaliChangeList), model_admin


def test_the_persian_admins_filters_count_in_persian_digits(staff_client, staff):
    Club.objects.create(name="Wolves", slug="wolves", time_zone="Asia/Tehran")
    page = staff_client.get("/admin/clubs/club/", {"_facets": "True"}, **FA).content.decode()
    choices = re.findall(r'<li[^>]*>\s*<a href="[^"]*">(.*?)</a></li>', page, re.S)
    assert "خصوصی: فقط اعضا (۰)" in choices and not [c for c in choices if re.search(r"[0-9]", c)], choices
    english = staff_client.get("/admin/clubs/club/", {"_facets": "True"}, **EN).content.decode()
    assert "Private: members only (0)" in re.findall(r'<li[^>]*>\s*<a href="[^"]*">(.*?)</a></li>', english, re.S)

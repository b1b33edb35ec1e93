"""Dates typed in the page's calendar (shabneshin.date_inputs): a Persian page shows and takes
Jalali dates in Persian digits, an English page keeps the browser's own pickers, and either
takes either calendar, told apart by its year."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import jdatetime
import pytest
from django.test import Client
from django.utils import timezone, translation
from hypothesis import given
from hypothesis import strategies as st

from clubs.models import Night
from history.forms import HistoryFilterForm
from shabneshin.date_inputs import CalendarDateTimeField, parse_date, parse_datetime
from shabneshin.localize import digits
from tests.platform.clubs.test_pages import _future_local, _night_form


@pytest.mark.parametrize(
    "typed",
    ["۱۴۰۵/۰۹/۱۲", "1405/9/12", "١٤٠٥-٠٩-١٢", "1405.09.12", " ۱۴۰۵/۰۹/۱۲ ", "2026-12-03", "۲۰۲۶-۱۲-۰۳"],
)
def test_a_date_is_read_in_either_calendar_by_its_year_and_in_any_digits(typed):
    assert parse_date(typed) == date(2026, 12, 3)  # 12 Azar 1405


@pytest.mark.parametrize("typed", ["1405/12/31", "2026-02-30", "1405/13/01", "tomorrow", "12/03/2026", "1405/09"])
def test_a_day_that_does_not_exist_or_is_not_a_date_is_none(typed):
    assert parse_date(typed) is None


@pytest.mark.parametrize("typed", ["۱۴۰۵/۰۹/۱۲ ۱۹:۳۰", "1405/09/12 19:30", "2026-12-03T19:30", "۱۴۰۵/۰۹/۱۲، ۱۹:۳۰"])
def test_a_date_and_time_is_read_the_same_way(typed):
    assert parse_datetime(typed) == datetime(2026, 12, 3, 19, 30)


@pytest.mark.parametrize("typed", ["1405/09/12 25:00", "1405/09/12", "2026-12-03T19"])
def test_a_time_that_is_not_one_is_none(typed):
    assert parse_datetime(typed) is None


@given(st.dates(min_value=date(1950, 1, 1), max_value=date(2100, 12, 31)))
def test_every_day_written_in_jalali_persian_digits_reads_back_as_itself(day):
    written = digits(jdatetime.date.fromgregorian(date=day).strftime("%Y/%m/%d"), "fa")
    assert parse_date(written) == day


def test_a_persian_page_shows_a_text_box_with_the_jalali_date_an_english_page_the_browsers_picker():
    form = HistoryFilterForm(initial={"since": date(2026, 12, 3)})
    with translation.override("fa"):
        persian = str(form["since"])
    with translation.override("en"):
        english = str(form["since"])
    assert 'type="text"' in persian and 'value="۱۴۰۵/۰۹/۱۲"' in persian and 'placeholder="۱۴۰۵/۰۹/۱۲"' in persian
    assert 'type="date"' in english and 'value="2026-12-03"' in english


def test_the_time_box_shows_date_and_time_on_a_persian_page():
    field = CalendarDateTimeField()
    with translation.override("fa"):
        html = field.widget.render("starts", datetime(2026, 12, 3, 19, 30))
    with translation.override("en"):
        native = field.widget.render("starts", datetime(2026, 12, 3, 19, 30))
    assert 'value="۱۴۰۵/۰۹/۱۲ ۱۹:۳۰"' in html and 'type="text"' in html
    assert 'type="datetime-local"' in native and 'value="2026-12-03T19:30"' in native


def test_a_bad_date_on_a_persian_page_is_told_with_a_jalali_example():
    with translation.override("fa"):
        form = HistoryFilterForm({"since": "فردا"})
        assert not form.is_valid()
        message = form.errors["since"][0]
    today = jdatetime.date.fromgregorian(date=timezone.localdate())
    assert digits(today.strftime("%Y/%m/%d"), "fa") in message, message


def test_a_persian_organizer_plans_a_night_by_typing_its_jalali_date(club, bob):
    """Bob's page is in Persian: he types the day as his calendar has it, and the night starts at
    that moment of the club's zone, stored in UTC; the edit page shows it back in Jalali."""
    client = Client(HTTP_ACCEPT_LANGUAGE="fa")
    client.force_login(bob)
    when = _future_local(10).replace(minute=30, tzinfo=None)  # 19:30 in Tehran, ten days on
    typed = digits(jdatetime.datetime.fromgregorian(datetime=when).strftime("%Y/%m/%d %H:%M"), "fa")
    page = client.get("/clubs/wolves/nights/new/").content.decode()
    assert 'name="starts"' in page and 'type="datetime-local"' not in page
    response = client.post("/clubs/wolves/nights/new/", _night_form(when, starts=typed))
    assert response.status_code == 302, response.content.decode()[:2000]
    night = Night.objects.get()
    assert night.starts_at == when.replace(tzinfo=ZoneInfo("Asia/Tehran")).astimezone(UTC)
    edit = client.get(f"/clubs/wolves/nights/{night.pk}/edit/").content.decode()
    assert f'value="{typed}"' in edit


def test_a_persian_players_my_games_filter_takes_a_jalali_day(alice, bob):
    """Alice won a game 40 days ago and another today: from 7 days ago, typed in Jalali on her
    Persian page, only today's is listed, and no error is shown."""
    from django.urls import reverse

    from tables.models import Match
    from tests.platform.replaying import decided

    today = decided("dracula", [alice, bob], winners=[0])
    old = decided("dracula", [alice, bob], winners=[0])
    Match.objects.filter(pk=old.pk).update(started_at=timezone.now() - timedelta(days=40))
    client = Client(HTTP_ACCEPT_LANGUAGE="fa")
    client.force_login(alice)
    week_ago = jdatetime.date.fromgregorian(date=timezone.localdate() - timedelta(days=7))
    typed = digits(week_ago.strftime("%Y/%m/%d"), "fa")
    page = client.get(reverse("history:my_games"), {"since": typed}).content.decode()
    assert 'class="error"' not in page, "a Jalali day is a date, not an error"
    assert reverse("history:match", args=[today.pk]) in page
    assert reverse("history:match", args=[old.pk]) not in page
    assert f'value="{typed}"' in page, "the filter shows the day as it was typed"


def test_a_bad_date_in_a_days_last_hour_is_told_with_that_days_date_not_the_next(monkeypatch):
    from shabneshin import date_inputs

    late = timezone.make_aware(datetime(2026, 12, 4, 23, 30))
    monkeypatch.setattr(date_inputs.timezone, "localtime", lambda *args: late)
    with translation.override("fa"):
        form = HistoryFilterForm({"since": "فردا"})
        assert not form.is_valid()
        message = form.errors["since"][0]
    assert "۱۴۰۵/۰۹/۱۳" in message, message

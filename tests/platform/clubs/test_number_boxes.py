"""The night's number boxes (a round's player counts, a penalty's points) in the page's digits:
on a Persian page a numeric text box showing Persian digits and taking Persian, Arabic-Indic or
Latin ones, with its refusals in Persian; on an English page the browser's number box."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from clubs.models import Penalty, Round
from tests.platform.clubs.tonight_helpers import checked_in
from tests.platform.latin_digits import latin_digits_in_text


def _bob(bob, language: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(bob)
    return client


def _box(page: str, testid: str) -> str:
    return re.search(rf'<input[^>]*data-testid="{testid}"[^>]*>', page).group(0)


def test_a_persian_pages_number_boxes_show_persian_digits_in_a_numeric_text_box(club, bob):
    night, _people = checked_in(club, bob, 3)
    page = _bob(bob, "fa").get(f"/clubs/wolves/nights/{night.pk}/").content.decode()
    fewest, most, points = (_box(page, t) for t in ("round-min-monster", "round-max-monster", "penalty-points"))
    for box in (fewest, most, points):
        assert 'type="text"' in box and 'inputmode="numeric"' in box, box
    assert 'value="۲"' in fewest and 'value="۵"' in most and 'value="۱"' in points


def test_an_english_pages_number_boxes_stay_the_browsers_own(club, bob):
    night, _people = checked_in(club, bob, 3)
    page = _bob(bob, "en").get(f"/clubs/wolves/nights/{night.pk}/").content.decode()
    fewest, points = _box(page, "round-min-monster"), _box(page, "penalty-points")
    assert 'type="number"' in fewest and 'min="2"' in fewest and 'max="5"' in fewest and 'value="2"' in fewest
    assert 'type="number"' in points and 'min="1"' in points and 'max="10"' in points and 'value="1"' in points


@pytest.mark.parametrize("three", ["۳", "٣", "3", " ۳ "])
def test_a_round_takes_player_counts_in_any_digits(club, bob, three):
    night, _people = checked_in(club, bob, 3)
    url = f"/clubs/wolves/nights/{night.pk}/rounds/"
    _bob(bob, "fa").post(url, {"mode": "pick", "g": ["monster"], "min-monster": three, "max-monster": three})
    round_ = Round.objects.get()
    assert [(g["min_players"], g["max_players"]) for g in round_.games] == [(3, 3)]


def test_a_bad_player_count_is_refused_in_persian_and_draws_nothing(club, bob):
    night, _people = checked_in(club, bob, 3)
    client = _bob(bob, "fa")
    url = f"/clubs/wolves/nights/{night.pk}/rounds/"
    for typed, told in [("سه", "شمار بازیکنان را به عدد بنویسید."), ("۱", "هیولا از ۲ تا ۵ بازیکن می‌گیرد.")]:
        page = client.post(url, {"mode": "pick", "g": ["monster"], "min-monster": typed}, follow=True)
        message = page.content.decode().split('class="messages"', 1)[1].split("</ul>", 1)[0]
        assert told in message, message
        assert not latin_digits_in_text(message)
    assert not Round.objects.exists()


def test_a_penalty_takes_points_in_persian_digits_and_refuses_a_word_in_persian(club, bob):
    night, people = checked_in(club, bob, 3)
    client = _bob(bob, "fa")
    url = f"/clubs/wolves/nights/{night.pk}/penalties/"
    give = {"action": "give", "player": people[0].pk, "reason": "دیر آمد"}
    client.post(url, {**give, "points": "۳"})
    assert [int(p.points) for p in Penalty.objects.all()] == [3]
    page = client.post(url, {**give, "points": "سه"}, follow=True).content.decode()
    assert "جریمه از ۱ تا ۱۰ امتیاز است." in page
    assert Penalty.objects.count() == 1


def test_a_persian_organizer_types_a_nights_capacity_in_persian_digits(club, bob):
    """The night form's capacity is a numeric text box in Persian digits on a Persian page, and
    «۱۲» plans a night for twelve, where the browser's number box took no Persian digit at all."""
    from clubs.models import Night
    from tests.platform.clubs.test_pages import _future_local, _night_form

    client = _bob(bob, "fa")
    page = client.get("/clubs/wolves/nights/new/").content.decode()
    box = re.search(r'<input[^>]*name="capacity"[^>]*>', page).group(0)
    assert 'type="text"' in box and 'inputmode="numeric"' in box, box
    response = client.post("/clubs/wolves/nights/new/", _night_form(_future_local(), capacity="۱۲"))
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Night.objects.get().capacity == 12

"""Times on a page are in the reader's zone: the browser's (its ``tz`` cookie), else Iran's on a
Persian page and UTC on an English one; a forged zone is ignored. My games' date filter agrees."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from tables.models import Match
from tests.platform.replaying import decided

# 22:30 UTC on 1 December 2026 is 02:00 on 2 December in Tehran (UTC+3:30) and 23:30 in Berlin.
LATE = datetime(2026, 12, 1, 22, 30, tzinfo=UTC)


@pytest.fixture
def late_game(alice, bob):
    match = decided("dracula", [alice, bob], winners=[0])
    Match.objects.filter(pk=match.pk).update(started_at=LATE, finished_at=LATE)
    return match


def _page(client, match, language, zone=None):
    if zone is not None:
        client.cookies["tz"] = zone
    return client.get(reverse("history:match", args=[match.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()


def test_a_persian_page_shows_tehran_time_before_the_browser_names_its_zone(client, alice, late_game):
    client.force_login(alice)
    page = _page(client, late_game, "fa")
    assert "ساعت ۰۲:۰۰" in page and "۱۱ آذر" in page  # 2 December 2026 is 11 Azar 1405


def test_the_browsers_zone_wins_and_english_defaults_to_utc(client, alice, late_game):
    client.force_login(alice)
    assert "23:30" in _page(client, late_game, "en", "Europe/Berlin")
    client.cookies.pop("tz")
    assert "22:30" in _page(client, late_game, "en")


@pytest.mark.parametrize("forged", ["Mars/Olympus", "../../etc/passwd", "x" * 500, "%00"])
def test_a_forged_zone_is_ignored(client, alice, late_game, forged):
    client.force_login(alice)
    page = _page(client, late_game, "en", forged)
    assert "22:30" in page


def test_my_games_date_filter_follows_the_readers_day(client, alice, late_game):
    """In Tehran the late game was played on 2 December: that is the day Alice filters by."""
    client.force_login(alice)
    client.cookies["tz"] = "Asia/Tehran"
    page = client.get(reverse("history:my_games"), {"since": "2026-12-02", "until": "2026-12-02"}).content.decode()
    assert reverse("history:match", args=[late_game.pk]) in page
    client.cookies["tz"] = "UTC"
    page = client.get(reverse("history:my_games"), {"since": "2026-12-02", "until": "2026-12-02"}).content.decode()
    assert reverse("history:match", args=[late_game.pk]) not in page

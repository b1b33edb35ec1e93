"""A club's time zone is shown as its city and its offset from UTC in the page's language and
digits («تهران (UTC+۳:۳۰)»), never as its IANA name («Asia/Tehran»), and the club form's zones
read the same way."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from django.test import Client
from django.utils import translation

from clubs.models import Club
from tests.platform.latin_digits import latin_digits_in_text

ISOLATED = "\u2066{}\u2069"


def _as(user, language: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def test_a_persian_night_page_names_the_clubs_zone_by_its_city_and_offset_in_persian_digits(night, charlie):
    page = _as(charlie, "fa").get(f"/clubs/wolves/nights/{night.pk}/").content.decode()
    when = page.split('data-testid="when"', 1)[1].split("</p>", 1)[0]
    assert "تهران (" + ISOLATED.format("UTC+۳:۳۰") + ")" in when
    assert "Asia/Tehran" not in page
    assert not latin_digits_in_text(when)


def test_an_english_night_page_names_the_zone_in_english(night, charlie):
    page = _as(charlie, "en").get(f"/clubs/wolves/nights/{night.pk}/").content.decode()
    assert "Tehran (" + ISOLATED.format("UTC+3:30") + ")" in page and "Asia/Tehran" not in page


def test_the_offset_is_the_one_in_force_at_the_night(db):
    from shabneshin.zone_names import zone_name

    with translation.override("en"):
        assert (
            zone_name("Europe/Berlin", datetime(2027, 1, 14, 18, tzinfo=UTC))
            == "Berlin (" + ISOLATED.format("UTC+1") + ")"
        )
        assert zone_name("Europe/Berlin", datetime(2027, 7, 14, 18, tzinfo=UTC)).endswith(
            ISOLATED.format("UTC+2") + ")"
        )
        assert zone_name("America/Argentina/Buenos_Aires").startswith("Buenos Aires (")
        assert zone_name("America/St_Johns", datetime(2027, 1, 14, tzinfo=UTC)).endswith(
            ISOLATED.format("UTC-3:30") + ")"
        )
    with translation.override("fa"):
        assert zone_name("UTC") == "زمان هماهنگ جهانی (" + ISOLATED.format("UTC+۰") + ")"


def test_the_night_forms_start_says_the_zone_in_persian(club, bob):
    page = _as(bob, "fa").get("/clubs/wolves/nights/new/").content.decode()
    assert "به وقت منطقهٔ زمانی باشگاه: تهران (" in page and "Asia/Tehran" not in page


def test_the_club_forms_zones_read_in_persian_and_keep_their_values(club, alice):
    page = _as(alice, "fa").get("/clubs/wolves/edit/").content.decode()
    assert '<option value="Asia/Tehran" selected>تهران (' in page
    assert '<option value="Europe/Berlin">برلین (' in page
    assert 'value="America/Argentina/Buenos_Aires">America/Argentina/Buenos Aires (' in page
    data = {
        "name": club.name,
        "slug": club.slug,
        "description": "",
        "language": "fa",
        "time_zone": "Europe/Berlin",
        "visibility": "public",
        "join_policy": "open",
    }
    assert _as(alice, "fa").post("/clubs/wolves/edit/", data).status_code == 302
    assert Club.objects.get(pk=club.pk).time_zone == "Europe/Berlin"
    refused = _as(alice, "fa").post("/clubs/wolves/edit/", {**data, "time_zone": "Mars/Olympus"}).content.decode()
    assert "منطقهٔ زمانی ناشناخته است" in refused
    assert Club.objects.get(pk=club.pk).time_zone == "Europe/Berlin"


def _club_data(club, zone: str) -> dict:
    return {
        "name": club.name,
        "slug": club.slug,
        "description": "",
        "language": "fa",
        "time_zone": zone,
        "visibility": "public",
        "join_policy": "open",
    }


def test_the_club_form_lists_only_area_city_zones_and_utc_once_not_legacy_aliases(club, alice):
    """Alice's list has Tehran and Buenos Aires but none of "CST6CDT", "Etc/GMT+1" (which is
    UTC-1), "GMT0", "Zulu", "US/Pacific": names a reader cannot place, or reads backwards."""
    page = _as(alice, "en").get("/clubs/wolves/edit/").content.decode()
    values = re.findall(r'<option value="([^"]*)"', page)
    assert "Asia/Tehran" in values and "America/Argentina/Buenos_Aires" in values and values.count("UTC") == 1
    for legacy in ("CST6CDT", "EST5EDT", "Etc/GMT+1", "GMT0", "Zulu", "US/Pacific", "GMT", "Etc/UTC"):
        assert legacy not in values, legacy
    refused = _as(alice, "en").post("/clubs/wolves/edit/", _club_data(club, "EST5EDT")).content.decode()
    assert "Unknown time zone" in refused
    assert Club.objects.get(pk=club.pk).time_zone == "Asia/Tehran", "a legacy name is not chosen anew"


def test_the_club_form_spells_each_city_as_tzdata_does_now_not_its_old_alias(club, alice):
    """Alice finds Kolkata and Kyiv, not also "Calcutta" and "Kiev", the old spellings tzdata
    keeps only as aliases of the same zones."""
    values = re.findall(r'<option value="([^"]*)"', _as(alice, "en").get("/clubs/wolves/edit/").content.decode())
    assert "Asia/Kolkata" in values and "Europe/Kyiv" in values
    for alias in ("Asia/Calcutta", "Europe/Kiev", "Asia/Saigon", "America/Buenos_Aires", "Asia/Katmandu"):
        assert alias not in values, alias


def test_a_club_stored_with_a_legacy_zone_shows_it_as_the_current_choice_and_can_still_be_edited(club, alice):
    Club.objects.filter(pk=club.pk).update(time_zone="US/Pacific")
    page = _as(alice, "en").get("/clubs/wolves/edit/").content.decode()
    assert re.search(r'<option value="US/Pacific" selected>Pacific \(', page), "its current zone, selected"
    data = {**_club_data(club, "US/Pacific"), "description": "Now on Thursdays"}
    assert _as(alice, "en").post("/clubs/wolves/edit/", data).status_code == 302
    assert Club.objects.get(pk=club.pk).description == "Now on Thursdays"

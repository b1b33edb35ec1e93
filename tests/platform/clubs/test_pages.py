"""Club and night pages and forms: bad input is refused with a clear message and changes
nothing; Persian pages show Jalali dates with Persian digits; the home page lists my nights."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.utils import timezone

from clubs import invites, members, rsvp
from clubs.models import Club, Membership, Night, Series
from tests.platform.latin_digits import latin_digits_in_text

CLUB_FORM = {
    "name": "Café wolves",
    "slug": "cafe",
    "description": "Thursdays",
    "language": "en",
    "time_zone": "Europe/Berlin",
    "visibility": "public",
    "join_policy": "open",
}


def _night_form(when: datetime, **extra):
    data = {
        "title": "Wolves",
        "starts": when.strftime("%Y-%m-%dT%H:%M"),
        "duration": "180",
        "address": "Café Naderi",
        "capacity": "8",
        "rsvp_close": "120",
        "g-werewolf-offered": "on",
        "g-werewolf-seat_count": "5",
        "g-werewolf-speed": "normal",
    }
    return {**data, **extra}


def _future_local(days: int = 5, zone: str = "Asia/Tehran") -> datetime:
    return (
        (timezone.now() + timedelta(days=days))
        .astimezone(ZoneInfo(zone))
        .replace(hour=19, minute=0, second=0, microsecond=0)
    )


def test_a_registered_player_creates_a_club_and_owns_it(client, dave):
    client.force_login(dave)
    response = client.post("/clubs/new/", CLUB_FORM)
    assert response.status_code == 302
    club = Club.objects.get(slug="cafe")
    assert Membership.objects.get(club=club).role == "owner"


def test_a_guest_who_creates_a_club_is_asked_to_sign_up_and_keeps_their_games(client, gus):
    client.force_login(gus)
    response = client.get("/clubs/new/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/signup/?next=%2Fclubs%2Fnew%2F"
    signup = client.post(
        response["Location"],
        {
            "username": "gus",
            "display_name": "Gus",
            "password1": "a-long-password-1",
            "password2": "a-long-password-1",
            "next": "/clubs/new/",
        },
    )
    assert signup["Location"] == "/clubs/new/"
    gus.refresh_from_db()
    assert not gus.is_guest and gus.display_name == "Gus", "the same row became an account"
    assert client.post("/clubs/new/", CLUB_FORM).status_code == 302


@pytest.mark.parametrize(
    "field,value,message",
    [
        ("time_zone", "Mars/Olympus", "Unknown time zone"),
        ("slug", "new", "This address is taken"),
        ("slug", "not a slug!", "Enter a valid"),
        ("visibility", "secret", "Select a valid choice"),
    ],
)
def test_the_club_form_refuses_impossible_values(client, dave, field, value, message):
    client.force_login(dave)
    response = client.post("/clubs/new/", {**CLUB_FORM, field: value})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Club.objects.exists()


def test_the_club_form_starts_from_tehran_on_persian_pages(dave):
    client = Client(HTTP_ACCEPT_LANGUAGE="fa")
    client.force_login(dave)
    assert 'value="Asia/Tehran"' in client.get("/clubs/new/").content.decode()


def test_an_organizer_plans_a_night_stored_in_utc_from_the_clubs_time(client, club, bob):
    client.force_login(bob)
    when = _future_local()
    response = client.post("/clubs/wolves/nights/new/", _night_form(when))
    assert response.status_code == 302
    night = Night.objects.get()
    assert night.starts_at == when.astimezone(UTC)
    assert night.rsvp_deadline == night.starts_at - timedelta(hours=2)
    assert night.games == [
        {"game": "werewolf", "seat_count": 5, "options": night.games[0]["options"], "speed": "normal"}
    ]


@pytest.mark.parametrize(
    "change,message",
    [
        ({"starts": "2020-01-01T19:00"}, "The start is in the past"),
        ({"capacity": "4"}, "below the smallest table"),
        ({"capacity": "-3"}, "Give a number from 1 to 500."),
        ({"address": ""}, "Give an address"),
        ({"g-werewolf-offered": ""}, "Offer at least one game"),
        ({"g-werewolf-seat_count": "40"}, "are not valid"),
        ({"rsvp_close": "999"}, "Select a valid choice"),
        ({"starts": "tomorrow"}, "Enter a date and time such as"),
        ({"starts": "2027-02-30T19:00"}, "Enter a date and time such as"),  # no such day
    ],
)
def test_the_night_form_refuses_impossible_values_and_plans_nothing(client, club, bob, change, message):
    client.force_login(bob)
    response = client.post("/clubs/wolves/nights/new/", _night_form(_future_local(), **change))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Night.objects.exists()


def test_a_weekly_night_materialises_its_coming_occurrences(client, club, bob, settings):
    client.force_login(bob)
    client.post("/clubs/wolves/nights/new/", _night_form(_future_local(), repeat="weekly"))
    series = Series.objects.get()
    assert series.nights.count() == settings.CLUB_SERIES_AHEAD
    assert 4 <= settings.CLUB_SERIES_AHEAD <= 8


def test_a_night_page_in_persian_shows_a_jalali_date_with_persian_digits(club, bob, charlie):
    from clubs import nights
    from tests.platform.clubs.conftest import night_fields

    # 1405-01-01 (Nowruz) 19:30 in Tehran is 2026-03-21 16:00 UTC; the night is made, then dated.
    night = nights.create_night(club, bob, night_fields())
    Night.objects.filter(pk=night.pk).update(starts_at=datetime(2026, 3, 21, 16, 0, tzinfo=UTC))
    client = Client(HTTP_ACCEPT_LANGUAGE="fa")
    client.force_login(charlie)
    page = client.get(f"/clubs/wolves/nights/{night.pk}/").content.decode()
    assert "شنبه ۱ فروردین ۱۴۰۵، ساعت ۱۹:۳۰" in page
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    english.force_login(charlie)
    assert "Saturday 21 March 2026, 19:30" in english.get(f"/clubs/wolves/nights/{night.pk}/").content.decode()


def test_my_nights_top_the_home_page_when_i_have_one(client, night, charlie, dave):
    client.force_login(dave)
    assert 'data-testid="my-nights"' not in client.get("/").content.decode()
    client.force_login(charlie)
    page = client.get("/").content.decode()
    assert 'data-testid="my-nights"' in page and "Werewolf night" in page
    assert page.index('data-testid="my-nights"') < page.index("Start a table")


def test_the_header_counts_unread_notifications_and_the_list_marks_them_read(client, club, night, alice, bob, charlie):
    from tests.platform.clubs.conftest import add_members

    night.capacity = 1
    night.save()
    (other,) = add_members(club, 1)
    rsvp.answer(night, other, "going")
    rsvp.answer(night, charlie, "going")
    rsvp.answer(night, other, "no")
    client.force_login(charlie)
    page = client.get("/clubs/").content.decode()
    assert 'data-testid="unread">1<' in page
    listing = client.get("/notifications/").content.decode()
    assert "A seat is free at Werewolf night" in listing
    client.post("/notifications/")
    assert 'data-testid="unread"' not in client.get("/clubs/").content.decode()


def test_the_invite_page_shows_a_link_and_its_qr_code_inline(client, club, bob):
    client.force_login(bob)
    client.post("/clubs/wolves/invites/", {"days": "7"})
    page = client.get("/clubs/wolves/invites/").content.decode()
    assert "/clubs/wolves/invite/" in page
    assert "<svg" in page and 'class="segno"' in page


def test_an_invite_link_lets_an_outsider_join_a_private_club(client, private_club, bob, dave):
    token = invites.token_for(invites.create(private_club, bob))
    client.force_login(dave)
    url = f"/clubs/wolves/invite/{token}/"
    assert client.get(url).status_code == 200
    assert client.post(url).status_code == 302
    assert Membership.objects.filter(club=private_club, user=dave).exists()


def test_expired_revoked_forged_and_other_clubs_invites_are_refused_with_a_message(client, club, alice, bob, dave):
    other = members.create_club(alice, name="Other", slug="other")
    expired = invites.create(club, bob)
    expired.expires_at = timezone.now() - timedelta(minutes=1)
    expired.save()
    revoked = invites.create(club, bob)
    invites.revoke(revoked)
    cases = {
        invites.token_for(expired): "This invite link has expired.",
        invites.token_for(revoked): "This invite link was revoked.",
        invites.token_for(invites.create(other, alice)): "This invite link belongs to another club.",
        invites.token_for(invites.create(club, bob))[:-3] + "xyz": "This invite link is not valid.",
    }
    client.force_login(dave)
    for token, message in cases.items():
        for method in (client.get, client.post):
            response = method(f"/clubs/wolves/invite/{token}/")
            assert response.status_code == 400 and message in response.content.decode()
    assert not Membership.objects.filter(user=dave).exists()


def test_a_forged_member_id_on_a_form_gets_a_message_and_changes_nothing(client, club, night, bob):
    client.force_login(bob)
    before = list(Membership.objects.values_list("pk", "role"))
    response = client.post("/clubs/wolves/members/remove/", {"member": "12abc"}, follow=True)
    assert "There is no such member in this club." in response.content.decode()
    response = client.post(
        f"/clubs/wolves/nights/{night.pk}/attendees/", {"member": "999999", "action": "add"}, follow=True
    )
    assert "There is no such member in this club." in response.content.decode()
    assert list(Membership.objects.values_list("pk", "role")) == before
    assert not night.rsvps.exists()


def test_an_rsvp_after_the_deadline_is_refused_with_a_message(client, night, charlie):
    Night.objects.filter(pk=night.pk).update(rsvp_deadline=timezone.now() - timedelta(minutes=1))
    client.force_login(charlie)
    response = client.post(f"/clubs/wolves/nights/{night.pk}/rsvp/", {"answer": "going"}, follow=True)
    assert "RSVPs for this night are closed." in response.content.decode()
    assert not night.rsvps.exists()


def test_an_organizer_moves_a_night_and_its_sequence_goes_up(client, night, bob):
    client.force_login(bob)
    when = _future_local(days=6)
    data = _night_form(when, title="Moved")
    assert client.post(f"/clubs/wolves/nights/{night.pk}/edit/", data).status_code == 302
    night.refresh_from_db()
    assert (night.title, night.starts_at, night.sequence) == ("Moved", when.astimezone(UTC), 1)


def test_the_signed_link_in_the_offer_email_accepts_the_seat_without_logging_in(
    club, night, alice, bob, charlie, django_capture_on_commit_callbacks
):
    from django.core import mail

    charlie.email = "charlie@example.com"
    charlie.save()
    night.capacity = 2
    night.save()
    with django_capture_on_commit_callbacks(execute=True):
        for person in (alice, bob, charlie):
            rsvp.answer(night, person, "going")
        rsvp.answer(night, bob, "no")
    (message,) = [m for m in mail.outbox if m.to == ["charlie@example.com"]]
    link = next(line for line in message.body.splitlines() if "/offer/" in line)
    path = link.split("127.0.0.1:8000", 1)[1]
    anonymous = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert 'data-testid="accept-offer"' in anonymous.get(path).content.decode()
    assert night.rsvps.get(user=charlie).answer == "waiting", "opening the link changes nothing"
    page = anonymous.post(path, {"decision": "accept"}).content.decode()
    assert "The seat is yours: you are going." in page
    assert f'href="/clubs/wolves/nights/{night.pk}/" data-testid="offer-night"' in page, "it leads on to the night"
    assert night.rsvps.get(user=charlie).answer == "going"
    assert anonymous.get(path[:-6] + "forged/").status_code == 404


def test_leaving_the_club_frees_my_seat_for_the_first_in_line(club, night, alice, bob, charlie):
    night.capacity = 2
    night.save()
    for person in (alice, bob, charlie):
        rsvp.answer(night, person, "going")
    members.leave(club, bob)
    assert night.rsvps.get(user=bob).answer == "no"
    assert night.offers.get(status="pending").user == charlie


def test_my_reminder_offset_is_saved_and_my_reminders_follow_it(client, night, charlie):
    from clubs.models import Reminder

    rsvp.answer(night, charlie, "going")
    client.force_login(charlie)
    refused = client.post("/calendar/", {"reminder_minutes": "0", "email": "not-an-address"})
    assert refused.status_code == 200
    assert "Give a number from 5 to 10080." in refused.content.decode()
    assert Reminder.objects.get(user=charlie, kind="before").due_at == night.starts_at - timedelta(minutes=120)
    assert client.post("/calendar/", {"reminder_minutes": "30", "email": "c@example.com"}).status_code == 302
    assert Reminder.objects.get(user=charlie, kind="before").due_at == night.starts_at - timedelta(minutes=30)


def test_a_refused_capacity_reads_in_persian_digits(client, club, bob):
    """Shirin's form in Persian: the smallest table's count in Persian digits, as every number on
    the page."""
    client.force_login(bob)
    response = client.post(
        "/clubs/wolves/nights/new/", _night_form(_future_local(), capacity="4"), HTTP_ACCEPT_LANGUAGE="fa"
    )
    assert response.status_code == 200 and not Night.objects.exists()
    page = response.content.decode()
    assert "(۵ نفر)" in page, "the refusal names the smallest table in Persian digits"
    assert latin_digits_in_text(page) == []


def test_a_clubs_counts_read_in_persian_digits_on_a_persian_page(client, club, bob):
    client.force_login(bob)
    club_page = client.get("/clubs/wolves/", HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    assert "۳ عضو" in club_page and "3 عضو" not in club_page
    client.post("/clubs/wolves/invites/", {"days": "7"}, HTTP_ACCEPT_LANGUAGE="fa")
    invites = client.get("/clubs/wolves/invites/", HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    assert "۷ روز" in invites and "7 روز" not in invites and "۰ بار" in invites


def test_leaving_removing_and_revoking_ask_first(client, club, alice, bob, charlie):
    """One tap on Leave, Remove or Revoke asks before it acts, as cancelling a night does."""
    client.force_login(charlie)
    assert 'data-confirm="Leave this club?' in client.get("/clubs/wolves/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    client.force_login(alice)
    members = client.get("/clubs/wolves/members/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-confirm="Remove this member from the club?' in members
    client.post("/clubs/wolves/invites/", {"days": "7"})
    invites = client.get("/clubs/wolves/invites/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-confirm="Revoke this invite link?' in invites


def test_a_back_link_points_the_way_the_page_reads(client, club, bob):
    from clubs import nights
    from tests.platform.clubs.conftest import night_fields

    night = nights.create_night(club, bob, night_fields())
    client.force_login(bob)
    persian = client.get(f"/clubs/wolves/nights/{night.pk}/", HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    english = client.get(f"/clubs/wolves/nights/{night.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '">→ Thursday Wolves</a>' in persian and "← Thursday" not in persian
    assert '">← Thursday Wolves</a>' in english


def test_a_new_night_whose_answers_would_already_be_closed_is_refused_with_a_message(client, club, bob):
    """Bob plans a night in half an hour but leaves answers to close two hours before: nobody could
    answer, so the form says so and plans nothing; closing at the start is fine."""
    from clubs.models import Night

    soon = (timezone.now() + timedelta(minutes=30)).astimezone(ZoneInfo("Asia/Tehran"))
    client.force_login(bob)
    page = client.post("/clubs/wolves/nights/new/", _night_form(soon), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "answers would already be closed" in page and not Night.objects.exists()
    client.post("/clubs/wolves/nights/new/", _night_form(soon, rsvp_close="0"))
    assert Night.objects.count() == 1


def _ticked_games(page: str) -> set[str]:
    return set(re.findall(r'<input type="checkbox" name="g-([a-z]+)-offered"[^>]* checked', page))


def test_a_clubs_first_night_form_offers_every_game_ticked(client, club, bob):
    client.force_login(bob)
    page = client.get("/clubs/wolves/nights/new/").content.decode()
    assert _ticked_games(page) == {"werewolf", "dracula", "insidejob", "monster", "mummy"}


def test_the_night_form_offers_the_games_of_the_clubs_latest_night_with_their_settings(client, club, bob):
    from clubs import nights
    from tests.platform.clubs.conftest import night_fields

    dracula = {"game": "dracula", "seat_count": 2, "options": {}, "speed": "fast"}
    nights.create_night(club, bob, night_fields())  # werewolf
    nights.create_night(club, bob, night_fields(starts_at=timezone.now() + timedelta(days=9), games=[dracula]))
    client.force_login(bob)
    page = client.get("/clubs/wolves/nights/new/").content.decode()
    assert _ticked_games(page) == {"dracula"}
    assert re.search(r'name="g-dracula-speed"[^>]*>.*?<option value="fast" selected', page, re.S)


def test_the_night_forms_default_games_are_accepted_as_they_come(client, club, bob):
    from tests.platform.form_defaults import form_defaults

    client.force_login(bob)
    page = client.get("/clubs/wolves/nights/new/").content.decode()
    data = form_defaults(page, "night-form")
    data |= {"title": "Wolves", "starts": _future_local().strftime("%Y-%m-%dT%H:%M"), "address": "Café Naderi"}
    data["capacity"] = "8"
    response = client.post("/clubs/wolves/nights/new/", data)
    assert response.status_code == 302, "planned as the form came, with only the night's own fields filled"
    assert {g["game"] for g in Night.objects.get().games} == _ticked_games(page)


def test_the_members_page_offers_remove_only_where_the_viewer_may_remove(client, club, alice, bob, charlie):
    """An organizer removes members but not the owner (nor another organizer): the page shows
    them no Remove button they would only be refused with; the owner sees one beside everyone else."""

    def removable(viewer) -> set[str]:
        client.force_login(viewer)
        page = client.get("/clubs/wolves/members/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
        ids = set(re.findall(r'members/remove/".*?name="member" value="(\d+)"', page, re.S))
        return {Membership.objects.get(pk=int(i)).user.username for i in ids}

    assert removable(bob) == {charlie.username}
    assert removable(alice) == {bob.username, charlie.username}


def _named_without_a_role(page: str) -> list[str]:
    """Elements that carry an aria-label but have no role to name (a plain div, span or p):
    screen readers ignore such a name, and axe reports it (aria-prohibited-attr)."""
    from html.parser import HTMLParser

    found: list[str] = []

    class Reader(HTMLParser):
        def handle_starttag(self, tag, attrs):  # noqa: ANN001, ANN202
            named = dict(attrs)
            if tag in ("div", "span", "p") and "aria-label" in named and "role" not in named:
                found.append(f"<{tag} {named}>")

    Reader().feed(page)
    return found


def test_the_invite_links_qr_code_is_named_as_an_image(client, club, alice):
    client.force_login(alice)
    client.post("/clubs/wolves/invites/", {"days": "7"})
    page = client.get("/clubs/wolves/invites/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'class="qr"' in page
    assert _named_without_a_role(page) == []


def test_in_persian_only_removing_a_member_from_the_club_reads_as_putting_them_out(client, club, alice, bob, charlie):
    """«بیرون کردن» (to put someone out) is for the club's members page; taking someone off a
    night's list of those going, or deleting a seating rule, says what it does instead."""
    from clubs import nights
    from clubs.models import PairRule
    from tests.platform.clubs.conftest import night_fields

    night = nights.create_night(club, bob, night_fields())
    rsvp.answer(night, charlie, "going")
    PairRule.objects.create(club=club, a=bob, b=charlie, kind=PairRule.Kind.APART)
    client.force_login(alice)

    def buttons(url: str) -> list[str]:
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="fa").content.decode()
        return re.findall(r'value="remove">([^<]*)</button>', page)

    assert buttons(f"/clubs/wolves/nights/{night.pk}/") == ["برداشتن از فهرست"]
    assert buttons("/clubs/wolves/pair-rules/") == ["حذف"]
    members_page = client.get("/clubs/wolves/members/", HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    assert "بیرون کردن" in members_page

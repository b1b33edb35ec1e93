"""Calendars: every feed and .ics parses with icalendar, recurring-ical-events lists the nights,
a change of time or place bumps SEQUENCE and is emailed (REQUEST), a cancellation too (CANCEL),
and a private night never reaches a public feed."""

from __future__ import annotations

from datetime import timedelta

import icalendar
import pytest
import recurring_ical_events
from django.core import mail
from django.utils import timezone

from clubs import members, nights, rsvp
from clubs.models import Club, Preferences
from tests.platform.clubs.conftest import add_members, night_fields


def _parse(response) -> icalendar.Calendar:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    return icalendar.Calendar.from_ical(response.content)


def _uids(cal) -> list[str]:
    return [str(e["UID"]) for e in cal.walk("VEVENT")]


def test_the_club_feed_lists_its_nights_as_occurrences_in_the_clubs_zone(client, club, bob):
    first = nights.create_night(club, bob, night_fields())
    second = nights.create_night(club, bob, night_fields(starts_at=first.starts_at + timedelta(days=7)))
    cal = _parse(client.get("/clubs/wolves/calendar.ics"))
    found = recurring_ical_events.of(cal).between(
        first.starts_at - timedelta(days=1), second.starts_at + timedelta(days=1)
    )
    assert sorted(e["DTSTART"].dt for e in found) == [first.starts_at, second.starts_at]
    assert {str(e["DTSTART"].dt.tzinfo) for e in found} == {"Asia/Tehran"}
    assert cal.walk("VTIMEZONE"), "the zone travels with the file"


def test_a_private_clubs_nights_never_appear_in_a_public_feed(client, club, bob, alice):
    public = nights.create_night(club, bob, night_fields())
    hidden = members.create_club(alice, name="Hidden", slug="hidden", visibility=Club.Visibility.PRIVATE)
    secret = nights.create_night(hidden, alice, night_fields(title="Secret night"))
    assert client.get("/clubs/hidden/calendar.ics").status_code == 404
    cal = _parse(client.get("/clubs/wolves/calendar.ics"))
    assert _uids(cal) == [f"night-{public.pk}@shabneshin"]
    assert f"night-{secret.pk}@" not in client.get("/clubs/wolves/calendar.ics").content.decode()


def test_a_nights_ics_has_an_alarm_at_my_reminder_offset(client, night, charlie):
    Preferences.objects.create(user=charlie, reminder_minutes=45)
    client.force_login(charlie)
    cal = _parse(client.get(f"/clubs/wolves/nights/{night.pk}/event.ics"))
    (event,) = cal.walk("VEVENT")
    (alarm,) = event.walk("VALARM")
    assert alarm["TRIGGER"].dt == -timedelta(minutes=45)
    assert event["LOCATION"] == "Café Naderi, Tehran"


def test_my_secret_feed_lists_the_nights_i_go_to_across_clubs_and_its_address_can_be_rotated(
    client, club, night, alice, charlie
):
    other = members.create_club(alice, name="Hidden", slug="hidden", visibility=Club.Visibility.PRIVATE)
    members.join(other, charlie)
    private_night = nights.create_night(other, alice, night_fields(title="Private"))
    not_going = nights.create_night(club, alice, night_fields(title="Skipped"))
    rsvp.answer(night, charlie, "going")
    rsvp.answer(private_night, charlie, "going")
    rsvp.answer(not_going, charlie, "no")
    token = Preferences.of(charlie).feed_token
    assert len(token) >= 32
    cal = _parse(client.get(f"/calendar/{token}.ics"))
    assert sorted(_uids(cal)) == sorted([f"night-{night.pk}@shabneshin", f"night-{private_night.pk}@shabneshin"])
    client.force_login(charlie)
    page = client.get("/calendar/").content.decode()
    assert f"/calendar/{token}.ics" in page and 'data-testid="copy-feed"' in page, "shown whole, with a copy button"
    client.post("/calendar/", {"rotate": "1"})
    assert client.get(f"/calendar/{token}.ics").status_code == 404
    assert client.get(f"/calendar/{Preferences.of(charlie).feed_token}.ics").status_code == 200
    assert client.get("/calendar/guessed-token.ics").status_code == 404


def test_moving_a_night_bumps_sequence_and_emails_each_person_going_a_request(
    club, night, alice, charlie, django_capture_on_commit_callbacks
):
    going = add_members(club, 2)
    for person in going:
        rsvp.answer(night, person, "going")
    with django_capture_on_commit_callbacks(execute=True):
        nights.update_night(night, {"starts_at": night.starts_at + timedelta(hours=1)})
    assert len(mail.outbox) == 2
    for message, person in zip(sorted(mail.outbox, key=lambda m: m.to[0]), going, strict=True):
        assert message.to == [person.email]
        others = [p.email for p in going if p != person]
        assert not any(address in message.body or address in str(message.attachments) for address in others)
        name, content, mimetype = message.attachments[0]
        assert mimetype.startswith("text/calendar; method=REQUEST")
        cal = icalendar.Calendar.from_ical(content)
        assert cal["METHOD"] == "REQUEST"
        (event,) = cal.walk("VEVENT")
        assert event["SEQUENCE"] == 1 and event["DTSTART"].dt == night.starts_at + timedelta(hours=1)


def test_a_change_of_title_alone_does_not_bump_sequence_or_email(club, night, django_capture_on_commit_callbacks):
    (person,) = add_members(club, 1)
    rsvp.answer(night, person, "going")
    with django_capture_on_commit_callbacks(execute=True):
        nights.update_night(night, {"title": "Renamed"})
    night.refresh_from_db()
    assert night.sequence == 0 and mail.outbox == []


def test_cancelling_a_night_sends_a_cancel_with_a_higher_sequence_and_the_feed_shows_it_cancelled(
    client, club, night, django_capture_on_commit_callbacks
):
    (person,) = add_members(club, 1)
    (maybe,) = add_members(club, 1, prefix="q")
    rsvp.answer(night, person, "going")
    rsvp.answer(night, maybe, "maybe")
    with django_capture_on_commit_callbacks(execute=True):
        nights.cancel_night(night)
    (message,) = mail.outbox
    assert message.to == [person.email]
    cal = icalendar.Calendar.from_ical(message.attachments[0][1])
    assert cal["METHOD"] == "CANCEL"
    (part,) = [p for p in message.message().walk() if p.get_content_type() == "text/calendar"]
    assert part.get_params() == [("text/calendar", ""), ("method", "CANCEL"), ("charset", "utf-8")], "each once"
    (event,) = cal.walk("VEVENT")
    assert (event["STATUS"], event["SEQUENCE"]) == ("CANCELLED", 1)
    (listed,) = _parse(client.get("/clubs/wolves/calendar.ics")).walk("VEVENT")
    assert (listed["STATUS"], listed["SEQUENCE"]) == ("CANCELLED", 1)


@pytest.mark.parametrize("field,value", [("address", "Elsewhere"), ("online", True), ("duration", timedelta(hours=5))])
def test_every_change_of_place_or_length_bumps_sequence(night, field, value):
    nights.update_night(night, {field: value})
    night.refresh_from_db()
    assert night.sequence == 1


def _ended_early(night, bob, *, started_ago: timedelta) -> None:
    from clubs import recap

    night.starts_at = timezone.now().replace(microsecond=0) - started_ago
    night.rsvp_deadline = night.starts_at - timedelta(hours=2)
    night.save()
    recap.end_night(night, bob)
    night.refresh_from_db()


def _events_of(cal, night) -> list:
    return recurring_ical_events.of(cal).between(
        night.starts_at - timedelta(days=1), night.starts_at + timedelta(days=1)
    )


def test_a_night_ended_early_ends_in_every_calendar_feed_when_it_actually_ended(client, club, night, bob, charlie):
    rsvp.answer(night, charlie, "going")
    _ended_early(night, bob, started_ago=timedelta(hours=1))
    assert night.ended_at < night.ends_at
    client.force_login(charlie)
    feeds = {
        "club": client.get("/clubs/wolves/calendar.ics"),
        "night": client.get(f"/clubs/wolves/nights/{night.pk}/event.ics"),
        "mine": client.get(f"/calendar/{Preferences.of(charlie).feed_token}.ics"),
    }
    for name, response in feeds.items():
        (found,) = _events_of(_parse(response), night)
        assert found["DTSTART"].dt == night.starts_at, name
        assert found["DTEND"].dt == night.ended_at.replace(microsecond=0), name
        assert str(found["DTEND"].dt.tzinfo) == "Asia/Tehran", name
        assert found["SEQUENCE"] == 1, f"{name}: a shorter night is a new revision, as any change of length"


def test_a_night_ended_before_its_start_has_no_end_before_its_start_in_a_calendar(client, club, night, bob):
    from clubs import recap

    recap.end_night(night, bob)  # three days early: it never met
    night.refresh_from_db()
    (event,) = _parse(client.get("/clubs/wolves/calendar.ics")).walk("VEVENT")
    assert "DTEND" not in event and "DURATION" not in event, "RFC 5545: it ends at its start, an instant"
    (found,) = _events_of(_parse(client.get("/clubs/wolves/calendar.ics")), night)
    assert found["DTSTART"].dt == night.starts_at
    assert found.end == found.start


def test_a_night_ended_after_its_planned_end_keeps_its_planned_end(client, club, night, bob):
    _ended_early(night, bob, started_ago=timedelta(hours=4))
    (event,) = _parse(client.get("/clubs/wolves/calendar.ics")).walk("VEVENT")
    assert event["DTEND"].dt == night.ends_at and event["SEQUENCE"] == 0

"""iCalendar files, built with ``icalendar``: a club's public feed, a person's secret feed, and
one night's event (with an alarm). Times carry the club's time zone (a VTIMEZONE is added)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from icalendar import Alarm, Calendar, Event, vCalAddress

from clubs.models import Night


def night_path(night: Night) -> str:
    return f"/clubs/{night.club.slug}/nights/{night.pk}/"


def absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def uid(night: Night) -> str:
    return f"night-{night.pk}@shabneshin"


def _calendar(name: str, method: str | None = None) -> Calendar:
    cal = Calendar()
    cal.add("prodid", "-//Shabneshin//Clubs//EN")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    if method:
        cal.add("method", method)
    cal.add("x-wr-calname", name)
    return cal


def until(night: Night) -> datetime | None:
    """When the night's event ends in a calendar: its planned end, or when an organizer ended it
    if that was sooner. A night ended before its start (the ending closes its answers and its
    record: clubs.recap) took none of its planned time, so it has no DTEND at all: RFC 5545 then
    reads the event as ending at its DTSTART, an instant that blocks no one's evening, whereas a
    DTEND equal to or before DTSTART is not allowed. Its planned start stays, as the night is
    not cancelled (it has a recap)."""
    if night.ended_at is None or night.ended_at >= night.ends_at:
        return night.ends_at
    if night.ended_at <= night.starts_at:
        return None
    return night.ended_at


def event(night: Night, alarm_minutes: int | None = None, attendee=None) -> Event:  # noqa: ANN001
    """One night as a VEVENT. ``attendee`` names only the person the file is for."""
    zone = ZoneInfo(night.club.time_zone)
    url = absolute(night_path(night))
    item = Event()
    item.add("uid", uid(night))
    item.add("dtstamp", timezone.now())
    item.add("last-modified", night.updated_at)
    item.add("sequence", night.sequence)
    item.add("summary", f"{night.title} — {night.club.name}")
    item.add("dtstart", night.starts_at.astimezone(zone))
    end = until(night)
    if end is not None:
        item.add("dtend", end.astimezone(zone))
    item.add("location", _("Online") if night.online else night.address)
    item.add("description", "\n".join(part for part in (night.place_note, url) if part))
    item.add("url", url)
    item.add("status", "CANCELLED" if night.cancelled else "CONFIRMED")
    organizer = vCalAddress("mailto:" + settings.DEFAULT_FROM_EMAIL.split("<")[-1].rstrip(">"))
    organizer.params["cn"] = night.club.name
    item.add("organizer", organizer)
    if attendee is not None and attendee.email:
        person = vCalAddress(f"mailto:{attendee.email}")
        person.params["cn"] = str(attendee)
        person.params["partstat"] = "ACCEPTED"
        item.add("attendee", person)
    if alarm_minutes is not None and not night.cancelled:
        alarm = Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", night.title)
        alarm.add("trigger", -timedelta(minutes=alarm_minutes))
        item.add_component(alarm)
    return item


def _finish(cal: Calendar) -> bytes:
    cal.add_missing_timezones()
    return cal.to_ical()


def feed(name: str, nights: Iterable[Night]) -> bytes:
    cal = _calendar(name)
    for night in nights:
        cal.add_component(event(night))
    return _finish(cal)


def single(night: Night, method: str = "PUBLISH", alarm_minutes: int | None = None, attendee=None) -> bytes:  # noqa: ANN001
    cal = _calendar(night.club.name, method)
    cal.add_component(event(night, alarm_minutes, attendee))
    return _finish(cal)

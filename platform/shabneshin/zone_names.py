"""A time zone as a reader reads it: its city, in the page's language, and its offset from UTC in
the page's digits («تهران (UTC+۳:۳۰)», "Berlin (UTC+1)"), never its IANA name («Asia/Tehran»).

The common zones (where Persian speakers and clubs mostly are) have translated city names; any
other zone is named by the last part of its IANA name ("Buenos Aires"). The offset is the one in
force at a given moment (a night's start), or now: a zone with summer time has two. It is wrapped
in a left-to-right isolate, so that a right-to-left line shows the sign before the number.
"""

from __future__ import annotations

import zoneinfo
from datetime import datetime
from functools import cache

from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from shabneshin.localize import digits

UTC = "UTC"
LTR_ISOLATE, POP_ISOLATE = "\u2066", "\u2069"

# The common zones and their cities' names (translated in the catalogue).
CITIES = {
    "Asia/Tehran": gettext_noop("Tehran"),
    "Asia/Kabul": gettext_noop("Kabul"),
    "Asia/Dushanbe": gettext_noop("Dushanbe"),
    "Asia/Tashkent": gettext_noop("Tashkent"),
    "Asia/Baku": gettext_noop("Baku"),
    "Asia/Yerevan": gettext_noop("Yerevan"),
    "Asia/Tbilisi": gettext_noop("Tbilisi"),
    "Europe/Istanbul": gettext_noop("Istanbul"),
    "Asia/Baghdad": gettext_noop("Baghdad"),
    "Asia/Dubai": gettext_noop("Dubai"),
    "Asia/Qatar": gettext_noop("Doha"),
    "Asia/Riyadh": gettext_noop("Riyadh"),
    "Asia/Karachi": gettext_noop("Karachi"),
    "Asia/Kolkata": gettext_noop("Delhi"),
    "Asia/Kuala_Lumpur": gettext_noop("Kuala Lumpur"),
    "Asia/Shanghai": gettext_noop("Beijing"),
    "Asia/Tokyo": gettext_noop("Tokyo"),
    "Europe/Moscow": gettext_noop("Moscow"),
    "Europe/London": gettext_noop("London"),
    "Europe/Paris": gettext_noop("Paris"),
    "Europe/Berlin": gettext_noop("Berlin"),
    "Europe/Amsterdam": gettext_noop("Amsterdam"),
    "Europe/Brussels": gettext_noop("Brussels"),
    "Europe/Vienna": gettext_noop("Vienna"),
    "Europe/Zurich": gettext_noop("Zurich"),
    "Europe/Rome": gettext_noop("Rome"),
    "Europe/Madrid": gettext_noop("Madrid"),
    "Europe/Stockholm": gettext_noop("Stockholm"),
    "Europe/Oslo": gettext_noop("Oslo"),
    "Europe/Copenhagen": gettext_noop("Copenhagen"),
    "Europe/Helsinki": gettext_noop("Helsinki"),
    "Europe/Athens": gettext_noop("Athens"),
    "America/New_York": gettext_noop("New York"),
    "America/Toronto": gettext_noop("Toronto"),
    "America/Chicago": gettext_noop("Chicago"),
    "America/Denver": gettext_noop("Denver"),
    "America/Los_Angeles": gettext_noop("Los Angeles"),
    "America/Vancouver": gettext_noop("Vancouver"),
    "Australia/Sydney": gettext_noop("Sydney"),
    "Australia/Melbourne": gettext_noop("Melbourne"),
}


@cache
def _zone(name: str) -> zoneinfo.ZoneInfo:
    return zoneinfo.ZoneInfo(name)


def offset(name: str, at: datetime | None = None) -> str:
    """The zone's offset from UTC at ``at`` (now by default), as "UTC+3:30", "UTC-5", "UTC+0",
    in the page's digits, isolated left to right."""
    minutes = _minutes(name, at)
    sign = "-" if minutes < 0 else "+"
    hours, rest = divmod(abs(minutes), 60)
    text = f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")
    return f"{LTR_ISOLATE}{digits(text)}{POP_ISOLATE}"


def city(name: str) -> str:
    """The zone's city in the page's language (a common zone), else from its IANA name."""
    if name == UTC:
        return gettext("Coordinated Universal Time")
    known = CITIES.get(name)
    if known is not None:
        return gettext(known)
    return name.rsplit("/", 1)[-1].replace("_", " ")


def zone_name(name: str, at: datetime | None = None) -> str:
    """«تهران (UTC+۳:۳۰)», "Berlin (UTC+1)": what a page shows for a zone (a bad name as it is)."""
    try:
        _zone(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return name
    return gettext("%(city)s (%(offset)s)") % {"city": city(name), "offset": offset(name, at)}


def choices(every: tuple[str, ...]) -> list[tuple[str, list[tuple[str, str]]]]:
    """A select's zones: the common ones first, by offset now, then every zone by its IANA name
    (each with its offset)."""
    common = sorted([UTC, *CITIES], key=lambda n: (_minutes(n), city(n)))
    rest = [n for n in every if n not in CITIES and n != UTC]
    return [
        (gettext("Common time zones"), [(n, zone_name(n)) for n in common]),
        (
            gettext("Every time zone"),
            [(n, gettext("%(city)s (%(offset)s)") % {"city": n.replace("_", " "), "offset": offset(n)}) for n in rest],
        ),
    ]


def _minutes(name: str, at: datetime | None = None) -> int:
    moment = at if at is not None and timezone.is_aware(at) else timezone.now()
    delta = moment.astimezone(_zone(name)).utcoffset()
    return int(delta.total_seconds() // 60) if delta is not None else 0

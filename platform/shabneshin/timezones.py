"""Times on a page are shown in the reader's own time zone (ARCHITECTURE §8: dates as the reader
reads them). The browser names its zone (``Intl``, in static/js/table.js) in the ``tz`` cookie;
a page read before the script has run, or with scripts off, uses ``PERSIAN_TIME_ZONE`` on a
Persian page (Iran's, where most Persian readers are) and UTC on an English one. The zone is
activated for the request, so Django's ``localtime``, our ``jdate`` filter and ``__date`` lookups
(My games' date filters) all agree with what the page shows. A club night's times stay in the
club's own zone, which its pages name."""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from functools import cache
from urllib.parse import unquote

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation

from shabneshin.localize import is_persian

COOKIE = "tz"


@cache
def _known() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def zone_of(request: HttpRequest) -> str | None:
    """The reader's zone: the browser's (when it names a real zone), else the language's."""
    named = unquote(request.COOKIES.get(COOKIE, ""))[:64]
    if named in _known():
        return named
    if is_persian(translation.get_language()):
        return settings.PERSIAN_TIME_ZONE
    return None


class ReadersTimeZone:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        zone = zone_of(request)
        if zone:
            timezone.activate(zoneinfo.ZoneInfo(zone))
        else:
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

"""``{% load persian %}``: numbers and dates as the page's language shows them.

``{{ n|digits }}`` gives Persian digits on a Persian page; ``{{ when|jdate }}`` (or
``{{ when|jdate:"short" }}``, ``"date"``, ``"time"``) a Jalali date on a Persian page and a
Gregorian one on an English page. Use them in text only, never in attributes, JSON or form values.
"""

from __future__ import annotations

from typing import Any

from django import template

from shabneshin import localize

register = template.Library()


@register.filter(is_safe=True)
def digits(value: Any) -> str:
    """Safe text stays safe (``{% filter digits %}`` around markup): only digits change."""
    return localize.digits(value)


@register.filter
def jdate(value: Any, style: str = "datetime") -> str:
    return localize.format_date(value, style)


@register.filter
def jdate_in(value: Any, tz: str) -> str:
    """``{{ night.starts_at|jdate_in:club.time_zone }}``: the date and time in that zone."""
    return localize.format_date(value, "datetime", tz=tz)

"""``{% load persian %}``: numbers and dates as the page's language shows them.

``{{ n|digits }}`` gives Persian digits on a Persian page; ``{{ names|listing }}`` joins a list with the
language's separator; ``{{ when|jdate }}`` (or
``{{ when|jdate:"short" }}``, ``"date"``, ``"time"``) a Jalali date on a Persian page and a
Gregorian one on an English page. Use them in text only, never in attributes, JSON or form values.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django import template
from django.template import defaultfilters

from shabneshin import localize, zone_names
from shabneshin.number_inputs import DigitsIntegerField

register = template.Library()


@register.filter(is_safe=True)
def digits(value: Any) -> str:
    """Safe text stays safe (``{% filter digits %}`` around markup): only digits change."""
    return localize.digits(value)


@register.filter
def minus(value: Any) -> str:
    """``{{ penalty.points|short_number|minus }}``: the number taken away, «−۵» (its sign on the
    left even in right-to-left text) on a Persian page, "−5" on an English one."""
    return localize.minus(value)


@register.filter
def counted_name(count: int, opts: Any) -> str:
    """``{{ cl.result_count|counted_name:cl.opts }}``: the model's name after that many of it, as the
    page's language says it ("146 seats", «۱۴۶ صندلی»)."""
    return localize.counted_noun(count, opts.verbose_name, opts.verbose_name_plural)


@register.filter
def jdate(value: Any, style: str = "datetime") -> str:
    return localize.format_date(value, style)


@register.filter
def jdate_in(value: Any, tz: str) -> str:
    """``{{ night.starts_at|jdate_in:club.time_zone }}``: the date and time in that zone."""
    return localize.format_date(value, "datetime", tz=tz)


@register.filter(is_safe=True, needs_autoescape=True)
def listing(value: Any, autoescape: bool = True) -> str:
    """``{{ names|listing }}``: ``join`` with the page language's list separator (the Persian
    comma on a Persian page, a comma on an English one), each item escaped."""
    return defaultfilters.join(value, localize.list_separator(), autoescape=autoescape)


@register.simple_tag
def list_separator() -> str:
    """``{% list_separator %}`` between the items of a list written out in a loop."""
    return localize.list_separator()


@register.simple_tag
def sep() -> str:
    """``{% sep %}`` between two facts on one line: " · " on an English page, "، " on a Persian
    one, where a middle dot beside Persian digits reads as a zero («۳ · ۱۱» looks like ۳۰۱۱)."""
    return "، " if localize.is_persian() else " · "


@register.simple_tag
def back_arrow() -> str:
    """``{% back_arrow %}`` before a link back: it points the way the page reads (→ on a Persian,
    right-to-left page; ← on an English one)."""
    return "→" if localize.is_persian() else "←"


@register.simple_tag
def forward_arrow() -> str:
    """``{% forward_arrow %}`` between the steps of a chain (first this, then that): it points the
    way the page reads (← on a Persian page, → on an English one). An arrow, not «›»: that one is
    mirrored in right-to-left text by some browsers and not by others."""
    return "←" if localize.is_persian() else "→"


@register.filter
def short_number(value: Any) -> str:
    """``{{ points|short_number }}``: a number with no trailing zeros (14.5, not 14.50; 14, not
    14.00), still in Latin digits (``|digits`` after it gives a Persian page its own)."""
    try:
        number = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return str(value)
    if number == number.to_integral():
        return str(number.quantize(Decimal(1)))
    return format(number.normalize(), "f")


@register.simple_tag
def open_quote() -> str:
    """``{% open_quote %}…{% close_quote %}`` around a quoted name: «…» on a Persian page, “…” on
    an English one."""
    return "«" if localize.is_persian() else "\u201c"


@register.simple_tag
def close_quote() -> str:
    return "»" if localize.is_persian() else "\u201d"


@register.filter
def zone_name(value: str, at: Any = None) -> str:
    """``{{ club.time_zone|zone_name:night.starts_at }}``: «تهران (UTC+۳:۳۰)», "Berlin (UTC+1)"
    (the offset in force at that moment, else now), never the IANA name."""
    return zone_names.zone_name(str(value), at if isinstance(at, datetime) else None)


@register.simple_tag
def number_box(name: str, value: Any, low: int | None = None, high: int | None = None, **attrs: Any) -> str:
    """``{% number_box "points" 1 1 10 aria_label=… data_testid=… %}``: a whole-number box in the
    page's digits (shabneshin.number_inputs: the browser's number box on an English page, a numeric
    text box in Persian digits on a Persian one); ``aria_label`` is the attribute ``aria-label``."""
    field = DigitsIntegerField(min_value=low, max_value=high)
    given = {key.replace("_", "-"): text for key, text in attrs.items()}
    return field.widget.render(name, value, {**field.widget_attrs(field.widget), **given})

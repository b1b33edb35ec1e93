"""Date and date-time form fields in the page's calendar.

On an English page they are the browser's own pickers (``type="date"``, ``type="datetime-local"``,
ISO values). A browser's picker knows only the Gregorian calendar, so on a Persian page they are
text boxes that show a Jalali date in Persian digits (``۱۴۰۵/۰۹/۱۲``, ``۱۴۰۵/۰۹/۱۲ ۱۹:۳۰``) and take
one typed in Persian, Arabic-Indic or Latin digits, with ``/``, ``-`` or ``.`` between its parts.

Either page takes either calendar, told apart by the year: below ``JALALI_BEFORE_YEAR`` it is a
Jalali year (the 1400s now), from it a Gregorian one. So a form rendered in one language and sent
after a switch to the other (or an ISO value from a picker) still means the same day."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import jdatetime
from django import forms
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from shabneshin.localize import digits, is_persian
from shabneshin.number_inputs import latin_digits

JALALI_BEFORE_YEAR = 1700
_DATE = r"(?P<y>\d{4})[/\-.](?P<m>\d{1,2})[/\-.](?P<d>\d{1,2})"
_TIME = r"(?P<H>\d{1,2}):(?P<M>\d{2})"
_DATE_ONLY = re.compile(rf"{_DATE}")
_DATE_AND_TIME = re.compile(rf"{_DATE}(?:[T ]+|\s*،\s*){_TIME}")


def _persian_page() -> bool:
    return is_persian(translation.get_language())


def _gregorian(year: int, month: int, day: int) -> dt.date:
    """The day in either calendar (by its year), as a Gregorian date; ValueError for no such day."""
    if year < JALALI_BEFORE_YEAR:
        return jdatetime.date(year, month, day).togregorian()
    return dt.date(year, month, day)


def parse_date(text: str) -> dt.date | None:
    """A typed date in either calendar, or None when it is not one."""
    found = _DATE_ONLY.fullmatch(latin_digits(text))
    if not found:
        return None
    try:
        return _gregorian(int(found["y"]), int(found["m"]), int(found["d"]))
    except ValueError:
        return None


def parse_datetime(text: str) -> dt.datetime | None:
    """A typed date and time (hours and minutes) in either calendar, naive, or None."""
    found = _DATE_AND_TIME.fullmatch(latin_digits(text))
    if not found:
        return None
    try:
        day = _gregorian(int(found["y"]), int(found["m"]), int(found["d"]))
        return dt.datetime.combine(day, dt.time(int(found["H"]), int(found["M"])))
    except ValueError:
        return None


def _jalali(value: dt.date | dt.datetime, with_time: bool) -> str:
    if isinstance(value, dt.datetime):
        shown = jdatetime.datetime.fromgregorian(datetime=value)
        return digits(shown.strftime("%Y/%m/%d %H:%M" if with_time else "%Y/%m/%d"), "fa")
    return digits(jdatetime.date.fromgregorian(date=value).strftime("%Y/%m/%d"), "fa")


class CalendarDateInput(forms.DateInput):
    """The browser's date picker on an English page, a text box in Jalali on a Persian one. Its
    value is the one form value in Persian digits: text the person reads and edits, and the field
    reads any digits back (localize's rule of Latin digits in values is for machine values)."""

    native_type = "date"
    with_time = False
    iso_format = "%Y-%m-%d"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs, format=self.iso_format)

    def format_value(self, value: Any) -> str | None:
        if isinstance(value, dt.date) and _persian_page():
            return _jalali(value, self.with_time)
        return super().format_value(value)

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        widget = context["widget"]
        if _persian_page():
            widget["type"] = "text"
            example = dt.datetime(2026, 12, 3, 19, 30) if self.with_time else dt.date(2026, 12, 3)
            widget["attrs"].setdefault("placeholder", _jalali(example, self.with_time))
            if not self.with_time:  # a phone's number pad has the digits and "/", not the time's ":"
                widget["attrs"].setdefault("inputmode", "numeric")
            widget["attrs"].setdefault("autocomplete", "off")
        else:
            widget["type"] = self.native_type
        return context


class CalendarDateTimeInput(CalendarDateInput):
    native_type = "datetime-local"
    with_time = True
    iso_format = "%Y-%m-%dT%H:%M"


def _example(with_time: bool) -> str:
    """Today (and the next whole hour) as the page would write it, for an error message."""
    now = timezone.localtime().replace(minute=0, second=0, microsecond=0, tzinfo=None)
    # Today's date itself: the next hour's would be tomorrow's in a day's last hour.
    value: dt.date | dt.datetime = now + dt.timedelta(hours=1) if with_time else now.date()
    if _persian_page():
        return _jalali(value, with_time)
    return value.strftime("%Y-%m-%d %H:%M" if with_time else "%Y-%m-%d")


def _read(value: Any, with_time: bool) -> Any:
    """A typed date (and time) in either calendar, or the error that says how to write one."""
    parsed = parse_datetime(str(value)) if with_time else parse_date(str(value))
    if parsed is None:
        told = _("Enter a date and time such as %(example)s.") if with_time else _("Enter a date such as %(example)s.")
        raise forms.ValidationError(told % {"example": _example(with_time)}, code="invalid")
    return parsed


class CalendarDateField(forms.DateField):
    """A date in the page's calendar (see the module)."""

    widget = CalendarDateInput

    def to_python(self, value: Any) -> dt.date | None:
        if value in self.empty_values:
            return None
        if isinstance(value, dt.datetime):
            return value.date()
        return value if isinstance(value, dt.date) else _read(value, with_time=False)


class CalendarDateTimeField(forms.DateTimeField):
    """A date and time in the page's calendar (see the module), naive: the form decides its zone."""

    widget = CalendarDateTimeInput

    def to_python(self, value: Any) -> dt.datetime | None:
        if value in self.empty_values:
            return None
        return value if isinstance(value, dt.datetime) else _read(value, with_time=True)

"""Numbers and dates as a Persian or an English page shows them (ARCHITECTURE §8).

Persian pages show Persian digits and Jalali dates with Persian month and weekday names; English
pages show Latin digits and Gregorian dates. Everything is stored in UTC; a date is shown in the
time zone it is given (a club's), or the site's. These helpers change *text* only: never apply
them to attributes, JSON or form values, which must keep Latin digits. (The one exception is
a Persian page's date box, shabneshin.date_inputs: text the person types, read back in any digits.)
"""

from __future__ import annotations

import re
from datetime import date, datetime
from zoneinfo import ZoneInfo

import jdatetime
from django.utils import timezone
from django.utils.translation import get_language
from persiantools import digits as _digits

# Date formats by name: (Persian, English), strftime codes understood by jdatetime and datetime.
DATE_FORMATS = {
    "date": ("%A %-d %B %Y", "%A %-d %B %Y"),
    "datetime": ("%A %-d %B %Y، ساعت %H:%M", "%A %-d %B %Y, %H:%M"),
    "short": ("%-d %B %Y", "%-d %b %Y"),
    "short_datetime": ("%-d %B %Y، ساعت %H:%M", "%-d %b %Y, %H:%M"),
    "time": ("%H:%M", "%H:%M"),
    # The steps of a calendar drill-down (a year's months, a month's days).
    "year_month": ("%B %Y", "%B %Y"),
    "month_day": ("%-d %B", "%B %-d"),
}

_DECIMAL_POINT = re.compile(r"(?<=[0-9])\.(?=[0-9])")
# A negative number, alone: "-6", "-1.5" (what str() of a number or |short_number gives).
_NEGATIVE = re.compile(r"-(?=[0-9])[0-9.]*")

# A Persian page writes a negative number as the number reads left to right, with the minus sign
# (U+2212, not the hyphen) on its left: «−۶». Persian digits are European numbers to the bidi
# algorithm, so in right-to-left text a bare leading minus is a neutral that takes the text's
# direction and lands on the number's right («۶-»). A left-to-right isolate (U+2066 … U+2069)
# keeps the sign on the left, and does not disturb the text around it.
MINUS_SIGN = "\u2212"
_LTR_ISOLATE, _POP_ISOLATE = "\u2066", "\u2069"


def is_persian(language: str | None = None) -> bool:
    return (language or get_language() or "fa").split("-")[0] == "fa"


def digits(value: object, language: str | None = None) -> str:
    """``value`` as text, with Persian digits on a Persian page, and a decimal point between two
    digits as the Persian decimal separator «٫» (۷٫۵, not ۷.۵). A negative number alone («-6») is
    written as :func:`minus` writes it."""
    text = str(value)
    if not is_persian(language):
        return text
    if _NEGATIVE.fullmatch(text):
        return minus(text[1:], language)
    return _digits.en_to_fa(_DECIMAL_POINT.sub("\u066b", text))


def minus(value: object, language: str | None = None) -> str:
    """``value`` (a number, as text) taken away, as the page writes it: «−۶» on a Persian page, its
    sign kept on the number's left in right-to-left text; "−6" on an English one."""
    text = str(value)
    if not is_persian(language):
        return MINUS_SIGN + text
    return _LTR_ISOLATE + MINUS_SIGN + digits(text, language) + _POP_ISOLATE


def counted_noun(count: int, singular: object, plural: object, language: str | None = None) -> str:
    """The noun after a number: English names more than one thing in the plural ("146 seats"),
    Persian in the singular («۱۴۶ صندلی», never «۱۴۶ صندلی‌ها»). Django's admin writes a model's
    plural after every count, and no Persian plural form in a catalogue can drop it (msgfmt
    refuses a translation without the plural's placeholder), so the rule is here."""
    return str(singular if count == 1 or is_persian(language) else plural)


def list_separator(language: str | None = None) -> str:
    """What separates the items of a list in running text: the Persian comma on a Persian page."""
    return "، " if is_persian(language) else ", "


def _strftime(moment: datetime | date, fmt: str) -> str:
    # "%-d" (the day without padding) is not portable to jdatetime: the day is put in by hand. The
    # hours keep their zero (06:30, 00:05), as a 24-hour clock reads.
    return moment.strftime(fmt.replace("%-d", str(moment.day)))


def format_date(
    moment: datetime | date | None, style: str = "datetime", language: str | None = None, tz: str | None = None
) -> str:
    """A date or an aware datetime for the page's language: Jalali with Persian digits, or
    Gregorian. ``tz`` names the zone to show it in (default: the active one)."""
    if moment is None:
        return ""
    persian_fmt, english_fmt = DATE_FORMATS[style]
    if isinstance(moment, datetime):
        zone = ZoneInfo(tz) if tz else timezone.get_current_timezone()
        moment = timezone.localtime(moment, zone) if timezone.is_aware(moment) else moment
    if not is_persian(language):
        return _strftime(moment, english_fmt)
    if isinstance(moment, datetime):
        jalali: jdatetime.date = jdatetime.datetime.fromgregorian(datetime=moment, locale="fa_IR")
    else:
        jalali = jdatetime.date.fromgregorian(date=moment, locale="fa_IR")
    return digits(_strftime(jalali, persian_fmt), "fa")

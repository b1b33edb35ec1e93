"""Persian digits and Jalali dates (ARCHITECTURE §8)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal

from django.template import Context, Template
from django.utils import translation

from shabneshin import localize


def test_digits_are_persian_on_a_persian_page_and_latin_on_an_english_one():
    assert localize.digits(2026, "fa") == "۲۰۲۶"
    assert localize.digits("12:05", "fa") == "۱۲:۰۵"
    assert localize.digits(2026, "en") == "2026"


def test_a_known_date_renders_jalali_with_persian_digits_and_names():
    # 1 December 2026 is Tuesday 10 Azar 1405.
    moment = datetime(2026, 12, 1, 15, 0, tzinfo=UTC)
    text = localize.format_date(moment, "datetime", "fa", tz="Asia/Tehran")
    assert text == "سه‌شنبه ۱۰ آذر ۱۴۰۵، ساعت ۱۸:۳۰"
    assert localize.format_date(date(2026, 12, 1), "short", "fa") == "۱۰ آذر ۱۴۰۵"


def test_english_pages_show_gregorian_dates():
    moment = datetime(2026, 12, 1, 15, 0, tzinfo=UTC)
    assert localize.format_date(moment, "datetime", "en", tz="Asia/Tehran") == "Tuesday 1 December 2026, 18:30"


def test_filters_follow_the_active_language():
    template = Template("{% load persian %}{{ n|digits }} {{ when|jdate:'short' }}")
    ctx = Context({"n": 42, "when": date(2026, 3, 21)})
    with translation.override("fa"):
        assert template.render(ctx) == "۴۲ ۱ فروردین ۱۴۰۵"
    with translation.override("en"):
        assert template.render(ctx) == "42 21 Mar 2026"


def test_a_list_in_running_text_takes_the_pages_own_comma_and_escapes_each_item():
    template = Template("{% load persian %}{{ names|listing }}|{% list_separator %}")
    names = ["Ali", "<b>Sara</b>"]
    with translation.override("en"):
        assert template.render(Context({"names": names})) == "Ali, &lt;b&gt;Sara&lt;/b&gt;|, "
    with translation.override("fa"):
        assert template.render(Context({"names": names})) == "Ali، &lt;b&gt;Sara&lt;/b&gt;|، "


def test_a_decimal_point_is_the_persian_separator_on_a_persian_page():
    assert localize.digits("7.5", "fa") == "۷٫۵"
    assert localize.digits("Score 12.0. Next.", "fa") == "Score ۱۲٫۰. Next."
    assert localize.digits("7.5", "en") == "7.5"


def test_points_show_no_trailing_zeros():
    from decimal import Decimal

    template = Template("{% load persian %}{{ v|short_number|digits }}")
    with translation.override("fa"):
        assert template.render(Context({"v": Decimal("14.50")})) == "۱۴٫۵"
        assert template.render(Context({"v": Decimal("14.00")})) == "۱۴"
    with translation.override("en"):
        assert template.render(Context({"v": Decimal("-1.25")})) == "-1.25"
        assert template.render(Context({"v": 3})) == "3"



def test_a_time_keeps_its_zeros_as_a_24_hour_clock_reads():
    moment = datetime(2026, 12, 1, 0, 5, tzinfo=UTC)
    assert localize.format_date(moment, "time", "en", tz="UTC") == "00:05"
    assert localize.format_date(moment, "datetime", "en", tz="UTC") == "Tuesday 1 December 2026, 00:05"
    assert localize.format_date(moment, "time", "fa", tz="UTC") == "۰۰:۰۵"


def test_a_quoted_name_takes_the_pages_own_quotation_marks():
    template = Template("{% load persian %}{% open_quote %}Anubis{% close_quote %}")
    with translation.override("en"):
        assert template.render(Context()) == "\u201cAnubis\u201d"
    with translation.override("fa"):
        assert template.render(Context()) == "«Anubis»"


def test_a_negative_number_on_a_persian_page_takes_the_minus_sign_on_its_left():
    """«−۶»: U+2212, not the hyphen, inside a left-to-right isolate so that right-to-left text does
    not carry the sign to the number's right; English keeps "-6"."""
    assert localize.digits(-6, "fa") == "\u2066\u2212۶\u2069"
    assert localize.digits("-1.5", "fa") == "\u2066\u2212۱٫۵\u2069"
    assert localize.digits(6, "fa") == "۶" and localize.digits("-", "fa") == "-"
    assert localize.digits(-6, "en") == "-6"
    template = Template("{% load persian %}{{ v|short_number|digits }} {{ p|short_number|minus }}")
    with translation.override("fa"):
        assert template.render(Context({"v": Decimal("-12.00"), "p": 5})) == "\u2066\u2212۱۲\u2069 \u2066\u2212۵\u2069"
    with translation.override("en"):
        assert template.render(Context({"v": Decimal("-12.00"), "p": 5})) == "-12 \u22125"

"""The admin's dates and numbers as the rest of the site shows them (ARCHITECTURE §8).

Django's admin writes a date with Django's own formats, Gregorian and in Latin digits, on the
Persian admin too («7 دسامبر 2026، ساعت 17:19»), and its page numbers and counts in Latin digits.
On a Persian page the admin shows them as every other page does: a Jalali date in Persian digits
(«۱۶ آذر ۱۴۰۵، ساعت ۱۷:۱۹», through shabneshin.localize) and Persian digits. An English page keeps
Django's own text, character for character.

Only text changes. Sorting, filters, query strings and the form fields (which take ISO dates as
Django's do) are Django's. The places:

- a date, time or date-time field's value in a list column, a read-only field or an inline:
  ``display_for_field``, put by ``install`` where the admin's list and change page call Django's;
- the date drill-down (``date_hierarchy``): on a Persian page it steps through Jalali years,
  months and days (``JalaliDrillDown``); a Gregorian month is not a Jalali one, so its own
  parameters (``<field>__jalali_year`` …) filter by the Jalali span in the reader's zone (as
  Django's own do by a Gregorian one), and a link means the same days in either language;
- the history page, the page links, the counts: template filters and tags in
  ``{% load admin_calendar %}`` (templates/admin/).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import jdatetime
from django.contrib import admin
from django.contrib.admin import helpers
from django.contrib.admin import utils as admin_utils
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.templatetags import admin_list
from django.contrib.admin.views.main import PAGE_VAR, ChangeList
from django.db import models
from django.http import HttpRequest
from django.utils import formats, timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from shabneshin.localize import digits, format_date, is_persian

_djangos_display_for_field = admin_utils.display_for_field

JALALI_PARTS = ("jalali_year", "jalali_month", "jalali_day")


def display_for_field(value: Any, field: models.Field, empty_value_display: str, avoid_link: bool = False) -> Any:
    """Django's ``display_for_field``, but a date, time or date-time in the page's calendar and
    digits on a Persian page (a field with choices shows its choice's name, as in Django's)."""
    if is_persian() and not getattr(field, "flatchoices", None) and value not in field.empty_values:
        if isinstance(field, models.DateTimeField):
            return format_date(value, "short_datetime")
        if isinstance(field, models.DateField):
            return format_date(value, "short")
        if isinstance(field, models.TimeField):
            return digits(formats.localize(value))
    return _djangos_display_for_field(value, field, empty_value_display, avoid_link)


def install() -> None:
    """Puts ``display_for_field`` where the admin's list (its columns) and its change page (its
    read-only fields, inlines among them) call Django's: both import it by name."""
    admin_list.display_for_field = display_for_field
    helpers.display_for_field = display_for_field


def moment(value: dt.datetime | None) -> str:
    """A date-time as the history page shows it: Django's own on an English page."""
    if value is None:
        return ""
    if is_persian():
        return format_date(value, "short_datetime")
    return formats.date_format(timezone.template_localtime(value), "DATETIME_FORMAT")


def page_link(cl: ChangeList, i: Any) -> SafeString:
    """Django's link to page ``i`` of a list, its number in the page's digits."""
    if not is_persian():
        return admin_list.paginator_number(cl, i)
    if i == cl.paginator.ELLIPSIS:
        return format_html("{} ", cl.paginator.ELLIPSIS)
    if i == cl.page_num:
        return format_html('<span class="this-page">{}</span> ', digits(i))
    end = mark_safe(' class="end"' if i == cl.paginator.num_pages else "")
    return format_html('<a href="{}"{}>{}</a> ', cl.get_query_string({PAGE_VAR: i}), end, digits(i))


# --- the date drill-down -----------------------------------------------------------------------------


def _parameters(field_name: str) -> list[str]:
    return [f"{field_name}__{part}" for part in JALALI_PARTS]


def _jalali_span(year: int, month: int | None, day: int | None) -> tuple[dt.date, dt.date]:
    """The Gregorian days [first, after) of a Jalali year, month or day; ValueError for none such."""
    if day is not None and month is None:
        raise ValueError("a day needs its month")
    first = jdatetime.date(year, 1 if month is None else month, 1 if day is None else day)
    if day is not None:
        after = first + dt.timedelta(days=1)
    elif month is not None:
        after = jdatetime.date(year + month // 12, month % 12 + 1, 1)
    else:
        after = jdatetime.date(year + 1, 1, 1)
    return first.togregorian(), after.togregorian()


def _number(given: list[str] | None) -> int | None:
    """A query parameter's (last) value as a number; ValueError for one that is not."""
    return None if given is None else int(given[-1])


class JalaliChangeList(ChangeList):
    """Django's list, which also filters by the Jalali drill-down's parameters (in either
    language: a link means the same days to whoever opens it)."""

    def get_filters(self, request: HttpRequest) -> Any:
        specs, has_filters, lookup_params, duplicates, active = super().get_filters(request)
        if self.date_hierarchy:
            year, month, day = (lookup_params.pop(name, None) for name in _parameters(self.date_hierarchy))
            if year is not None:
                try:
                    first, after = _jalali_span(int(year[-1]), _number(month), _number(day))
                except ValueError as e:
                    raise IncorrectLookupParameters(e) from e
                field = admin_utils.get_fields_from_path(self.model, self.date_hierarchy)[-1]
                bounds: tuple[Any, Any] = (first, after)
                if isinstance(field, models.DateTimeField):
                    bounds = tuple(timezone.make_aware(dt.datetime.combine(d, dt.time())) for d in (first, after))
                lookup_params[f"{self.date_hierarchy}__gte"] = [bounds[0]]
                lookup_params[f"{self.date_hierarchy}__lt"] = [bounds[1]]
        return specs, has_filters, lookup_params, duplicates, active


class JalaliDrillDown(admin.ModelAdmin):
    """A ModelAdmin with a ``date_hierarchy`` that a Persian page steps through by Jalali years,
    months and days (tests/platform check that every such admin has it)."""

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return JalaliChangeList


def _label(day: jdatetime.date, style: str) -> str:
    return capfirst(format_date(day.togregorian(), style))


def date_hierarchy(cl: ChangeList) -> dict[str, Any] | None:
    """What admin/date_hierarchy.html shows: Django's own, except on a Persian page of a list that
    filters by Jalali spans, where the years, months and days are Jalali ones."""
    if not (is_persian() and isinstance(cl, JalaliChangeList)):
        return admin_list.date_hierarchy(cl)
    if not cl.date_hierarchy:
        return None
    field_name = cl.date_hierarchy
    field = admin_utils.get_fields_from_path(cl.model, field_name)[-1]
    year_name, month_name, day_name = _parameters(field_name)
    year, month, day = (cl.params.get(name) for name in (year_name, month_name, day_name))
    if isinstance(field, models.DateTimeField):
        days = [jdatetime.date.fromgregorian(date=d.date()) for d in cl.queryset.datetimes(field_name, "day")]
    else:
        days = [jdatetime.date.fromgregorian(date=d) for d in cl.queryset.dates(field_name, "day")]

    def link(filters: dict[str, Any]) -> str:
        return cl.get_query_string(filters, [f"{field_name}__"])

    if not year and days:  # start where the records are, as Django's does
        if len({d.year for d in days}) == 1:
            year = str(days[0].year)
            if len({d.month for d in days}) == 1:
                month = str(days[0].month)
    if year and month and day:
        shown = jdatetime.date(int(year), int(month), int(day))
        return {
            "show": True,
            "back": {"link": link({year_name: year, month_name: month}), "title": _label(shown, "year_month")},
            "choices": [{"title": _label(shown, "month_day")}],
        }
    if year and month:
        return {
            "show": True,
            "back": {"link": link({year_name: year}), "title": digits(year)},
            "choices": [
                {"link": link({year_name: year, month_name: month, day_name: d.day}), "title": _label(d, "month_day")}
                for d in days
                if (d.year, d.month) == (int(year), int(month))
            ],
        }
    if year:
        months = sorted({(d.year, d.month) for d in days if d.year == int(year)})
        return {
            "show": True,
            "back": {"link": link({}), "title": _("All dates")},
            "choices": [
                {"link": link({year_name: y, month_name: m}), "title": _label(jdatetime.date(y, m, 1), "year_month")}
                for y, m in months
            ],
        }
    return {
        "show": True,
        "back": None,
        "choices": [{"link": link({year_name: y}), "title": digits(y)} for y in sorted({d.year for d in days})],
    }

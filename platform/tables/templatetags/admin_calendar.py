"""``{% load admin_calendar %}``: the admin's dates, page numbers and counts in the page's
calendar and digits (shabneshin.admin_calendar), for the admin templates we override."""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib.admin.views.main import ChangeList
from django.utils.safestring import SafeString

from shabneshin import admin_calendar

register = template.Library()


@register.filter(expects_localtime=True)
def admin_moment(value: Any) -> str:
    """``{{ action.action_time|admin_moment }}``: Django's ``|date:"DATETIME_FORMAT"`` on an English
    page, a Jalali date and time on a Persian one."""
    return admin_calendar.moment(value)


@register.simple_tag
def page_link(cl: ChangeList, i: Any) -> SafeString:
    """``{% page_link cl i %}``: Django's ``{% paginator_number cl i %}`` in the page's digits."""
    return admin_calendar.page_link(cl, i)


@register.inclusion_tag("admin/date_hierarchy.html")
def calendar_date_hierarchy(cl: ChangeList) -> dict[str, Any]:
    """``{% calendar_date_hierarchy cl %}``: Django's ``{% date_hierarchy cl %}``, in Jalali years,
    months and days on a Persian page."""
    return admin_calendar.date_hierarchy(cl) or {}

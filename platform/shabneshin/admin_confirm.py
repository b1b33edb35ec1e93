"""Admin actions that change what players live with (abort a running match, ban or mute a player)
ask first, as Django's own "delete selected" does: the first post answers a page that names what
will change, and only its "Yes, I'm sure" (``post=yes``) runs the action."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib import admin
from django.contrib.admin import helpers
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse


def confirmation(
    modeladmin: admin.ModelAdmin,
    request: HttpRequest,
    queryset: QuerySet,
    *,
    action: str,
    title: str,
    question: str,
    lines: Iterable[str],
) -> TemplateResponse | None:
    """The page that asks, or None once the staff member said yes (the action then runs)."""
    if request.POST.get("post") == "yes":
        return None
    opts = modeladmin.model._meta
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "question": question,
        "lines": list(lines),
        "queryset": queryset,
        "action": action,
        "opts": opts,
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        "media": modeladmin.media,
    }
    request.current_app = modeladmin.admin_site.name
    return TemplateResponse(request, "admin/confirm_action.html", context)

"""``{% load clubtags %}``: the "My nights" box at the top of the home page: coming nights, and
the recaps of nights one came to lately."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.inclusion_tag("clubs/_my_nights.html", takes_context=True)
def my_nights_box(context: dict[str, Any], limit: int = 5) -> dict[str, Any]:
    from clubs import my_nights

    request = context.get("request")
    user = getattr(request, "user", None)
    return {"nights": my_nights.upcoming(user, limit), "came_to": my_nights.recent(user)}


@register.filter
def get_item(mapping: dict[str, Any], key: str) -> Any:
    return mapping.get(key) if isinstance(mapping, dict) else None

"""Small filters for game templates, which receive view dicts and seat-number lists."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.filter
def at(sequence: Any, index: Any) -> Any:
    """``names|at:seat``: the item at an index, or an empty string."""
    try:
        return sequence[int(index)]
    except (TypeError, ValueError, IndexError, KeyError):
        return ""


@register.filter
def get(mapping: Any, key: Any) -> Any:
    """``view.public|get:"some-key"``: a dict's value (string keys as well as integer ones)."""
    if not isinstance(mapping, dict):
        return ""
    if key in mapping:
        return mapping[key]
    return mapping.get(str(key), "")


@register.filter
def seat_names(seats: Any, names: Any) -> SafeString:
    """``[1, 3]|seat_names:names`` → "Ali، Sara", each name escaped (and isolated in ``<bdi>``)."""
    try:
        return mark_safe("، ".join(conditional_escape(names[int(s)]) for s in seats))
    except (TypeError, ValueError, IndexError):
        return mark_safe("")

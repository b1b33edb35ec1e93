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


@register.simple_tag
def chat_text(message: Any, table: Any, names: list[str]) -> Any:
    """``{% chat_text m table names %}``: a chat line in the reader's language. A practice bot's
    templated line is rendered from its key and params (names in ``<bdi>``); any other line (a
    player's, or a bot line stored before keys existed) is its text, escaped."""
    from tables.bot_chat import line_html  # the bots' lines live with the bots' chat

    html = line_html(table.game, getattr(message, "key", ""), getattr(message, "params", {}), names)
    return conditional_escape(message.text) if html is None else html

"""Small filters for game templates, which receive view dicts and seat-number lists."""

from __future__ import annotations

from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from shabneshin import localize
from tables.lru import LRU

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
    """``[1, 3]|seat_names:names`` → "Ali، Sara" (on an English page "Ali, Sara"), each name escaped
    (and isolated in ``<bdi>``)."""
    try:
        return mark_safe(localize.list_separator().join(conditional_escape(names[int(s)]) for s in seats))
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


# A small template that reads nothing but the values it is given (and the active language) looks
# the same every time it gets the same values: a werewolf role's name, an icon. Included with
# ``{% include %}``, it was rendered again at each use (a werewolf move rendered about nine role
# names); ``include_once`` renders it once per process for each set of values.
_included_once = LRU(4096)


@register.simple_tag(takes_context=True)
def include_once(context: Any, template_name: str, **values: Any) -> SafeString:
    """``{% include_once "games/werewolf/_role.html" role=r of=s %}``: the template rendered with
    only ``values``, once per template, language and values. ``tests/platform/test_include_once.py``
    renders every fragment of random games both ways (this, and an include that also sees the
    whole context) and compares, so a template that read anything else fails there."""
    try:
        key = (template_name, translation.get_language(), tuple(sorted((k, type(v), v) for k, v in values.items())))
        html = _included_once.get(key)
    except TypeError:  # a value that cannot be a key: rendered every time
        return _render_included(context, template_name, values)
    if html is None:
        html = _render_included(context, template_name, values)
        _included_once.put(key, html)
    return html  # type: ignore[no-any-return]


def _render_included(context: Any, template_name: str, values: dict[str, Any]) -> SafeString:
    """Renders with ``values`` alone; it takes the including ``context`` so that the test can swap
    in a rendering that sees it too."""
    return mark_safe(render_to_string(template_name, values))  # noqa: S308 - our own autoescaping template

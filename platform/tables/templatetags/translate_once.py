"""``{% translate %}`` of a literal, looked up once per language and reused.

Django's ``{% translate "Your turn" %}`` builds a lazy translation of the literal at every
rendering, then casts it to a string through ``gettext`` and escapes it: about a tenth of a
table's rendering time in the bench (issue 9), for text that is the same every time in a language.
Loaded after ``i18n`` (``{% load i18n translate_once %}``), this library's ``translate`` and
``trans`` tags render such a literal (no filters, no ``as``, a literal ``context`` if any) once per
language and autoescaping, and every other use as Django does. ``makemessages`` finds these tags as
it finds Django's: by their text.

The catalogues do not change while a process runs; when a test changes the languages or the
locale paths, or the development server reloads a catalogue, the kept texts are dropped.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template.base import Variable
from django.templatetags.i18n import TranslateNode, do_translate
from django.utils import translation
from django.utils.autoreload import file_changed

register = template.Library()

_texts: dict[tuple[Any, ...], str] = {}


class TranslateOnceNode(TranslateNode):
    def render(self, context: Any) -> str:
        key = self._key(context)
        if key is None:
            return super().render(context)  # type: ignore[no-any-return]
        text = _texts.get(key)
        if text is None:
            text = _texts[key] = super().render(context)
        return text

    def _key(self, context: Any) -> tuple[Any, ...] | None:
        """The literal, its message context, the language and the autoescaping; None where the
        tag is not a plain literal."""
        expression, message_context = self.filter_expression, self.message_context
        if self.asvar or expression.filters or expression.var.lookups is not None:
            return None
        text_context = None
        if message_context is not None:
            text_context = _literal(message_context)
            if text_context is None:
                return None
        return (expression.var.literal, self.noop, text_context, translation.get_language(), bool(context.autoescape))


def _literal(expression: Any) -> str | None:
    """A filter expression's constant string (a parsed constant is its value), or None."""
    if expression.filters:
        return None
    var = expression.var
    if isinstance(var, Variable):
        return var.literal if var.lookups is None and isinstance(var.literal, str) else None
    return var if isinstance(var, str) else None


@register.tag("translate")
@register.tag("trans")
def translate(parser: Any, token: Any) -> TranslateOnceNode:
    node = do_translate(parser, token)
    return TranslateOnceNode(node.filter_expression, node.noop, node.asvar, node.message_context)


@receiver(setting_changed)
def _forget_on_new_languages(setting: str, **_: Any) -> None:
    if setting in ("LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS", "USE_I18N"):
        _texts.clear()


@receiver(file_changed)
def _forget_on_new_catalogue(file_path: Any, **_: Any) -> None:
    if str(file_path).endswith(".mo"):
        _texts.clear()

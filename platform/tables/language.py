"""The language of a WebSocket connection: LocaleMiddleware does not run for sockets."""

from __future__ import annotations

from http.cookies import SimpleCookie
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header


def language_from_scope(scope: dict[str, Any]) -> str:
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
    supported = {code for code, _ in settings.LANGUAGES}
    cookie = SimpleCookie()
    try:
        cookie.load(headers.get("cookie", ""))
    except Exception:  # a malformed cookie header only loses the preference
        cookie = SimpleCookie()
    morsel = cookie.get(settings.LANGUAGE_COOKIE_NAME)
    if morsel and morsel.value in supported:
        return morsel.value
    for code, _quality in parse_accept_lang_header(headers.get("accept-language", "")):
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE

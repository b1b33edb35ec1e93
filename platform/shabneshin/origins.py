"""The WebSocket Origin check, by full origin (scheme://host:port).

Channels' ``AllowedHostsOriginValidator`` compares the host alone, so a page served on another
port or scheme of the same host (``http://127.0.0.1:9999`` for an ``http://127.0.0.1:8000`` site)
could open a socket that carries the visitor's cookies. Here an origin is accepted only when it is
the address the socket itself was opened on (same origin: the request's scheme and ``Host``
header, which must be an allowed host) or is listed in ``WEBSOCKET_ORIGINS`` (by default
``CSRF_TRUSTED_ORIGINS``, the origins already trusted to post forms). Behind a TLS-terminating
proxy, run daphne with ``--proxy-headers`` or list the public ``https://`` origin there.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}


def normalised(origin: str) -> str | None:
    """``scheme://host:port`` with the default port written out, or ``None`` if it is not an
    http(s) origin (``null``, a path, a user name, an unknown scheme)."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname or parts.username or parts.path not in ("", "/"):
        return None
    return f"{scheme}://{parts.hostname.lower()}:{port or DEFAULT_PORTS[scheme]}"


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return bytes(value).decode("latin1")
    return None


def own_origin(scope: dict[str, Any]) -> str | None:
    """The origin of the address this socket was opened on, if its host is an allowed host."""
    host = _header(scope, b"host")
    if not host:
        return None
    domain, _ = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    return normalised(f"{scheme}://{host}")


def origin_allowed(scope: dict[str, Any]) -> bool:
    origin = _header(scope, b"origin")
    wanted = normalised(origin) if origin else None
    if wanted is None:
        return False
    listed = {normalised(o) for o in settings.WEBSOCKET_ORIGINS}
    return wanted in listed or wanted == own_origin(scope)


class OriginValidator:
    """ASGI middleware for the websocket route: refuses a socket whose Origin is not allowed."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.app(scope, receive, send)

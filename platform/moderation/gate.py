"""The socket gate: a banned player (or a banned device) is told why at socket connect, and the
socket is closed with 4403, a code the htmx ws extension does not reconnect after."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.utils import translation

from moderation import bans
from moderation.devices import COOKIE, device_from_cookie
from moderation.models import Sanction
from shabneshin.loop_db import database_work
from tables.language import language_from_scope

BANNED_CLOSE_CODE = 4403


@database_work
def _ban_for(scope: dict[str, Any]) -> Sanction | None:
    user = scope.get("user")
    ban = bans.ban_of(user) if user is not None and user.is_authenticated else None
    return ban or bans.ban_of_device(device_from_cookie((scope.get("cookies") or {}).get(COOKIE)))


@database_work
def _refusal(ban: Sanction, language: str) -> str:
    with translation.override(language):
        return render_to_string("tables/_errors.html", {"error": bans.ban_text(ban), "oob": True})


class BanGate:
    """ASGI middleware inside the auth stack of the websocket route."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        ban = await _ban_for(scope) if scope["type"] == "websocket" else None
        if ban is None:
            return await self.app(scope, receive, send)
        message = await receive()
        if message["type"] != "websocket.connect":
            return None
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": await _refusal(ban, language_from_scope(scope))})
        await send({"type": "websocket.close", "code": BANNED_CLOSE_CODE})
        return None

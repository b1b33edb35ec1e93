"""WebSocket consumers. ``TableConsumer`` renders only its own seat's view; the group message
names a version and carries no secret. ``LobbyConsumer`` keeps the lobby's table list live."""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from accounts.sessions import session_still_acts
from games.base import IllegalAction
from tables import broadcast, chat, moderator, rendering
from tables.language import language_from_scope
from tables.lobby import lobby_context
from tables.models import Match, Table

MAX_MESSAGE_BYTES = 8192
MAX_VERSION_DIGITS = 10
_MALFORMED = object()


def _loads(text: str) -> Any:
    """Parsed JSON, or ``_MALFORMED`` for text that is not JSON or nests deeper than the parser
    can recurse (``RecursionError``)."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return _MALFORMED


def _version(raw: Any) -> int | None:
    """The version a form was rendered at: a non-negative integer, or its decimal digits (form
    values arrive as text). Booleans (``True == 1``), fractions and infinities are refused."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw if raw >= 0 else None
    if isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) <= MAX_VERSION_DIGITS:
        return int(raw)
    return None


class TableConsumer(AsyncWebsocketConsumer):
    table_id: int | None = None

    async def connect(self) -> None:
        self.language = language_from_scope(self.scope)
        self.token = self.scope["url_route"]["kwargs"]["token"]
        self.table_id = await self._table_id()
        if self.table_id is None:
            await self.close(code=4404)
            return
        self.group = broadcast.group_for(self.token)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._send_fragments()

    async def disconnect(self, code: int) -> None:
        if self.table_id is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    # -- from the browser --

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        message = self._parse(text_data)
        if isinstance(message, str):
            await self._send_error(message)
            return
        if "chat" in message:
            await self._send_error(await self._post_chat(message["chat"]), only_if_error=True)
            return
        if "resume" in message:
            await self._take_back_seat()
            return
        action, version = message.get("action"), message.get("version")
        error = await self._submit(action, version)
        if error is not None:
            code, text = error
            if code == "stale_version":
                await self._send_fragments(error=text)
            else:
                await self._send_error(text)

    def _parse(self, text_data: str | None) -> dict[str, Any] | str:
        """The message as a dict, or the readable reason it cannot be one."""
        with translation.override(self.language):
            if not text_data or len(text_data) > MAX_MESSAGE_BYTES:
                return rendering.error_message("malformed")
            message = _loads(text_data)
            if not isinstance(message, dict):
                return rendering.error_message("malformed")
            if "chat" in message:
                return message if isinstance(message["chat"], str) else rendering.error_message("malformed")
            if "resume" in message:
                return message
            action = message.get("action")
            if isinstance(action, str):
                action = _loads(action)
            version = _version(message.get("version"))
            if not isinstance(action, dict) or version is None:
                return rendering.error_message("malformed")
            return {"action": action, "version": version}

    # -- from the group --

    async def table_changed(self, event: dict[str, Any]) -> None:
        await self._send_fragments()

    async def chat_posted(self, event: dict[str, Any]) -> None:
        await self._send_fragments(names=("chat",))

    # -- helpers --

    async def _send_fragments(self, error: str | None = None, names: tuple[str, ...] = rendering.FRAGMENTS) -> None:
        html = await self._render(error, names)
        if html:
            await self.send(text_data=html)

    async def _send_error(self, text: str | None, only_if_error: bool = False) -> None:
        if text is None and only_if_error:
            return
        await self.send(text_data=await self._render_error(text))

    def _csrf_token(self) -> str:
        """The browser's CSRF cookie: Django accepts its secret as a form token, so the seating
        forms in a fragment rendered here post like those of the page."""
        cookies = self.scope.get("cookies") or {}
        return str(cookies.get(settings.CSRF_COOKIE_NAME, ""))

    @database_sync_to_async
    def _table_id(self) -> int | None:
        return Table.objects.filter(token=self.token).values_list("pk", flat=True).first()

    @database_sync_to_async
    def _render(self, error: str | None, names: tuple[str, ...]) -> str:
        table = Table.objects.filter(pk=self.table_id).first()
        if table is None:
            return ""
        with translation.override(self.language):
            ctx = rendering.context_for(table, self.scope.get("user"), error)
            ctx["csrf_token"] = self._csrf_token()
            return rendering.render_fragments(ctx, names)

    @database_sync_to_async
    def _render_error(self, text: str | None) -> str:
        with translation.override(self.language):
            return render_to_string("tables/_errors.html", {"error": text, "oob": True})

    def _acting_user(self) -> Any:
        """The socket's user, if their session still says so: a tab left open after logging out
        (or after a guest merged into an account, a password change, a ban) may watch, but not
        act, until it reloads."""
        user = self.scope.get("user")
        session = self.scope.get("session")
        if user is None or not user.is_authenticated or session is None or not session.session_key:
            return None
        return user if session_still_acts(session.session_key, user) else None

    @database_sync_to_async
    def _submit(self, action: dict[str, Any], version: int) -> tuple[str, str] | None:
        with translation.override(self.language):
            user = self._acting_user()
            table = Table.objects.get(pk=self.table_id)
            seat = chat.seat_of(table, user)
            match = Match.objects.filter(table=table).first()
            if seat is None or match is None:
                return "forbidden", rendering.error_message("forbidden" if seat is None else "not_awaited")
            try:
                moderator.submit(match.pk, seat, action, version)
            except IllegalAction as exc:
                return exc.code, rendering.error_message(exc.code)
            return None

    @database_sync_to_async
    def _take_back_seat(self) -> None:
        table = Table.objects.get(pk=self.table_id)
        seat = chat.seat_of(table, self._acting_user())
        match = Match.objects.filter(table=table).first()
        if seat is not None and match is not None:
            moderator.take_back_seat(match, seat)

    @database_sync_to_async
    def _post_chat(self, text: str) -> str | None:
        with translation.override(self.language):
            table = Table.objects.get(pk=self.table_id)
            try:
                chat.post(table, self._acting_user(), text)
            except chat.ChatRefused as exc:
                return exc.message
            return None


class LobbyConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.language = language_from_scope(self.scope)
        await self.channel_layer.group_add(broadcast.LOBBY_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(broadcast.LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # the lobby listens only

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        await self.send(text_data=await self._render())

    @database_sync_to_async
    def _render(self) -> str:
        with translation.override(self.language):
            return render_to_string("tables/_lobby_tables.html", {**lobby_context(), "oob": True})

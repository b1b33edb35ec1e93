"""WebSocket consumers. ``TableConsumer`` renders only its own seat's view; the group message
names a version and carries no secret. ``LobbyConsumer`` keeps the lobby's table list live."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from accounts import sessions
from accounts.sessions import ActingCheck
from games.base import IllegalAction
from shabneshin import generations, ratelimit
from shabneshin.dispatch import DispatchesOnTheLoop
from shabneshin.loop_db import database_work
from shabneshin.rejoin import RejoinsItsGroups
from tables import broadcast, chat, decisions, moderator, renderer, rendering
from tables.hub import Rendered, hub
from tables.language import language_from_scope
from tables.lobby import for_viewer, lobby_context, shut_out
from tables.lru import LRU
from tables.models import Match, Table

MAX_MESSAGE_BYTES = 8192
ERROR_KEPT_S = 6.0  # a refusal stays in #errors this long, whatever else changes meanwhile
POLICY_VIOLATION = 1008
MAX_VERSION_DIGITS = 10
_MALFORMED = object()
log = logging.getLogger(__name__)
_lobby_renders: dict[tuple[str, str], tuple[str, dict[str, Any], dict[int, frozenset[int]]]] = {}
# A table's token and id never change: a socket arriving at a table this process has seen (a
# reconnect, another tab, a restart's wave of sockets) asks the database nothing before accept.
_table_ids = LRU(4096)


def csrf_secret(scope: dict[str, Any]) -> str:
    """The browser's CSRF cookie: Django accepts its secret as a form token, so the forms in a
    fragment rendered for a socket (a table's seating, a club night's offer) post like the page's."""
    cookies = scope.get("cookies") or {}
    return str(cookies.get(settings.CSRF_COOKIE_NAME, ""))


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


class FrameBudget:
    """A token bucket per socket: ``BURST`` frames at once, ``RATE`` a second after that. Frames
    past it are dropped (the first drop of a ``WINDOW_S`` window is told once); more than
    ``CLOSE_AFTER_DROPS`` drops within a window close the socket. A socket lives in one process,
    so its budget is plain memory: no cache round trip on every frame."""

    RATE = 8.0
    BURST = 24.0
    WINDOW_S = 10.0
    CLOSE_AFTER_DROPS = 200

    def __init__(self) -> None:
        self.tokens = self.BURST
        self.at = time.monotonic()
        self.window_start = self.at
        self.dropped = 0  # within the current window

    def take(self) -> str:
        """``ok``, ``drop`` (``drop-first`` once a window), or ``close``."""
        now = time.monotonic()
        self.tokens = min(self.BURST, self.tokens + (now - self.at) * self.RATE)
        self.at = now
        if now - self.window_start > self.WINDOW_S:
            self.window_start, self.dropped = now, 0
        if self.tokens >= 1:
            self.tokens -= 1
            return "ok"
        return self.drop()

    def drop(self) -> str:
        """Count one dropped frame (also when a shared limit dropped it): ``drop``, ``drop-first``
        or ``close``."""
        self.dropped += 1
        if self.dropped > self.CLOSE_AFTER_DROPS:
            return "close"
        return "drop-first" if self.dropped == 1 else "drop"


class TableConsumer(DispatchesOnTheLoop, RejoinsItsGroups, AsyncWebsocketConsumer):
    """One browser tab at a table. It sends only its own audience's fragments, rendered once per
    version and audience by tables.renderer, and of those only the ones that changed since it
    last sent them (a reconnect is a new consumer, so it sends everything)."""

    table_id: int | None = None
    error_text: str | None = None
    error_until = 0.0

    async def connect(self) -> None:
        self.language = language_from_scope(self.scope)
        self.token = self.scope["url_route"]["kwargs"]["token"]
        self.sent = renderer.SentFragments()
        self.acting = ActingCheck()
        self.budget = FrameBudget()
        self.seen: renderer.Snapshot | None = None
        self.audience: renderer.Audience | None = None
        self.table_id = _table_ids.get(self.token) or await self._table_id()
        if self.table_id is None:
            await self.close(code=4404)
            return
        self.group = broadcast.group_for(self.token)
        await self.channel_layer.group_add(self.group, self.channel_name)
        hub.join(self.table_id, self)
        await self.accept()
        # Presence, the first "does this session still act" check and the first render, in one
        # hop shared with this process's other sockets arriving at the table (tables/hub.py).
        rendered = await hub.arrive(self.table_id, self)
        if rendered is None:  # the table is gone (staff deleted it since its id was read)
            _table_ids.forget(self.token)
            await self.close(code=4404)
            return
        await self._send_rendered(rendered)

    async def disconnect(self, code: int) -> None:
        if self.table_id is not None:
            hub.leave(self.table_id, self)
            await self.channel_layer.group_discard(self.group, self.channel_name)

    def groups_to_rejoin(self) -> list[str]:
        return [self.group] if self.table_id is not None else []

    async def rejoined(self) -> None:
        await self._push()  # what changed while the layer was away never reached this socket

    # -- from the browser --

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        verdict = self.budget.take()
        if verdict == "ok" and not self._shared_budget_allows():
            verdict = self.budget.drop()
        if verdict == "close":
            await self.close(code=POLICY_VIOLATION)
            return
        if verdict != "ok":
            if verdict == "drop-first":
                await self._send_error(self._text("too_fast"))
            return
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
        action, version = message["action"], message["version"]
        if self._surely_stale(version):
            await self._push(error=self._text("stale_version"), again=True)
            return
        error = await self._submit(action, version)
        if error is None:
            self.error_text = None  # applied: an earlier refusal no longer stands
        else:
            code, text = error
            if code == "stale_version":
                await self._push(error=text, fresh=True)
            else:
                await self._send_error(text)

    def _shared_budget_allows(self) -> bool:
        """The session's and the address's frame limits (shabneshin.ratelimit, on the cache): many
        tabs or many guests flooding together, each within its own socket's budget. Counted in this
        process and taken to the cache in the background (ratelimit.FrameTally): no round trip
        here."""
        session = self.scope.get("session")
        client = self.scope.get("client") or ("unknown",)
        return ratelimit.frame_allowed(getattr(session, "session_key", None) or "", str(client[0]))

    def _text(self, code: str) -> str:
        with translation.override(self.language):
            return rendering.error_message(code)

    def _surely_stale(self, version: int) -> bool:
        """Older than this seat's decision in what this socket last showed: stale for certain
        (decisions only move forward), answered without touching the database."""
        seen, audience = self.seen, self.audience
        if seen is None or seen.match is None or audience is None or audience.seat is None:
            return False
        return version < decisions.opened_at(seen.match, audience.seat)

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
        await self._push_event(event.get("event"))

    async def chat_posted(self, event: dict[str, Any]) -> None:
        await self._push_event(event.get("event"))

    async def _push_event(self, event: str | None) -> None:
        """A group message: rendered in one hop for all of this process's sockets at the table
        (tables/hub.py); this socket only picks what changed for it, on the event loop."""
        if event is None or self.table_id is None:
            await self._push(event=event)
            return
        rendered = await hub.rendered_for(self.table_id, event, self)
        if rendered is not None:
            await self._send_rendered(rendered)

    async def _send_rendered(self, rendered: Rendered) -> None:
        """What changed for this socket in a render shared with the process's other sockets. A
        render of an older version than this socket shows (two threads' moves, or two processes',
        whose messages crossed on the way) is not sent: that would put the table back a move until
        the next one. The socket is sent the table as it is now instead, so a chat line that rode
        with the older message still arrives."""
        if _older_than_shown(rendered.snapshot, self.seen):
            await self._push()
            return
        fragments = dict(rendered.fragments)
        fragments["errors"] = renderer.error_fragment(self._error_now(None), self.language)
        self.seen, self.audience = rendered.snapshot, rendered.audience
        html = self._changed_html(fragments)
        if html:
            await self.send(text_data=html)

    # -- helpers --

    async def _push(
        self, error: str | None = None, event: str | None = None, again: bool = False, fresh: bool = False
    ) -> None:
        """Send what changed for this socket. ``again``: the answer to a stale move, from what this
        socket last showed (no database), with ``#status`` re-sent so the page confirms its
        version; ``fresh``: the same after reading the table anew."""
        html = await self._render(error, event, reuse=again, status_again=again or fresh)
        if html:
            await self.send(text_data=html)

    async def _send_error(self, text: str | None, only_if_error: bool = False) -> None:
        if text is None and only_if_error:
            return
        html = renderer.error_fragment(self._error_now(text) if text is not None else None, self.language)
        if self.sent.changed({"errors": html}) or text is not None:
            await self.send(text_data=html)

    def _csrf_token(self) -> str:
        return csrf_secret(self.scope)

    @database_work
    def _table_id(self) -> int | None:
        table_id = Table.objects.filter(token=self.token).values_list("pk", flat=True).first()
        if table_id is not None:
            _table_ids.put(self.token, table_id)
        return table_id

    @database_work
    def _render(self, error: str | None, event: str | None, reuse: bool = False, status_again: bool = False) -> str:
        assert self.table_id is not None
        snapshot = self.seen if reuse and self.seen is not None else renderer.snapshot_for_event(self.table_id, event)
        if snapshot is not None and _older_than_shown(snapshot, self.seen):  # see _send_rendered
            snapshot = renderer.load(self.table_id)
        if snapshot is None:
            return ""
        if status_again:
            self.sent.forget("status")
        audience = snapshot.audience(self.scope.get("user"), self.language)
        fragments = dict(renderer.fragments_for(snapshot, audience))
        fragments["errors"] = renderer.error_fragment(self._error_now(error), self.language)
        self.seen, self.audience = snapshot, audience
        return self._changed_html(fragments)

    def _error_now(self, error: str | None) -> str | None:
        """What ``#errors`` shows now: a new refusal, or the last one for ``ERROR_KEPT_S`` after it
        came. Another seat's move re-renders the table at once, and a refusal wiped with it was
        gone before it could be read; this socket's next applied move clears it."""
        now = time.monotonic()
        if error is not None:
            self.error_text, self.error_until = error, now + ERROR_KEPT_S
        elif self.error_text is not None and now >= self.error_until:
            self.error_text = None
        return self.error_text

    def _changed_html(self, fragments: dict[str, str]) -> str:
        token = self._csrf_token()
        return "".join(renderer.with_csrf(fragments[name], token) for name in self.sent.changed(fragments))

    def _acting_user(self) -> Any:
        """The socket's user, if their session still says so: a tab left open after logging out
        (or after a guest merged into an account, a password change, a ban) may watch, but not
        act, until it reloads."""
        user = self.scope.get("user")
        session = self.scope.get("session")
        if user is None or not user.is_authenticated or session is None or not session.session_key:
            return None
        return user if self.acting.still_acts(session.session_key, user) else None

    def _seat_and_match(self, user: Any) -> tuple[int | None, Match | None]:
        """Where this socket's user sits and the match, from what the socket last rendered (the
        moderator checks both again under its lock)."""
        seen = self.seen
        if seen is None or seen.match is None:
            assert self.table_id is not None
            seen = renderer.load(self.table_id)
        if seen is None:
            return None, None
        return seen.seat_of(user), seen.match

    @database_work
    def _submit(self, action: dict[str, Any], version: int) -> tuple[str, str] | None:
        # The player's auth generation (checked first) and the chat's (read once the move
        # committed, to render it): one read of the cache for both.
        acting = sessions.generation_key(self.scope.get("user"))
        assert self.table_id is not None
        ahead = (*([acting] if acting else []), *chat.generation_keys(self.table_id))
        with translation.override(self.language), generations.read_ahead(*ahead):
            user = self._acting_user()
            seat, match = self._seat_and_match(user)
            if seat is None or match is None:
                return "forbidden", rendering.error_message("forbidden" if seat is None else "not_awaited")
            try:
                moderator.submit(match.pk, seat, action, version, user_id=user.pk)
            except IllegalAction as exc:
                return exc.code, rendering.error_message(exc.code)
            return None

    @database_work
    def _take_back_seat(self) -> None:
        user = self._acting_user()
        seat, match = self._seat_and_match(user)
        if seat is not None and match is not None:
            moderator.take_back_seat(match, seat)

    @database_work
    def _post_chat(self, text: str) -> str | None:
        with translation.override(self.language):
            table = Table.objects.get(pk=self.table_id)
            try:
                chat.post(table, self._acting_user(), text)
            except chat.ChatRefused as exc:
                return exc.message
            return None


def _older_than_shown(snapshot: renderer.Snapshot, shown: renderer.Snapshot | None) -> bool:
    """Whether ``snapshot`` holds an earlier version of the match this socket last showed."""
    if shown is None or shown.match is None or snapshot.match is None:
        return False
    return snapshot.match.pk == shown.match.pk and snapshot.match.version < shown.match.version


class LobbyConsumer(DispatchesOnTheLoop, RejoinsItsGroups, AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.language = language_from_scope(self.scope)
        await self.channel_layer.group_add(broadcast.LOBBY_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(broadcast.LOBBY_GROUP, self.channel_name)

    def groups_to_rejoin(self) -> list[str]:
        return [broadcast.LOBBY_GROUP]

    async def rejoined(self) -> None:
        await self.send(text_data=await self._render(None))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # the lobby listens only

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        await self.send(text_data=await self._render(event.get("event")))

    @database_work
    def _render(self, event: str | None) -> str:
        """The lobby's list, rendered once per change and language in this process; a viewer some
        of whose tables are hidden from them (tables.lobby.shut_out) gets their own."""
        key = (event, self.language)
        kept = _lobby_renders.get(key) if event else None
        if kept is None:
            ctx = {**lobby_context(), "oob": True}
            shut = shut_out(ctx["public_tables"])
            with translation.override(self.language):
                kept = (render_to_string("tables/_lobby_tables.html", ctx), ctx, shut)
            if event:
                _lobby_renders[key] = kept
                while len(_lobby_renders) > 16:
                    _lobby_renders.pop(next(iter(_lobby_renders)))
        html, ctx, shut = kept
        user = self.scope.get("user")
        hidden = shut.get(user.pk, frozenset()) if user is not None and user.is_authenticated else frozenset()
        if hidden:
            with translation.override(self.language):
                html = render_to_string("tables/_lobby_tables.html", for_viewer(ctx, hidden))
        return html

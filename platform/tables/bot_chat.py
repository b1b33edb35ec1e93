"""Practice bots that talk at the table, at a human pace (the clock calls :func:`run_due`).

A game that ships ``games/<slug>/talk.py`` (werewolf) gives its bots day-chat lines: what a bot
says is decided by ``talk.lines(view, public_chat, rng)`` from that seat's view and the public
chat alone. This module turns the chat into the entries ``talk`` reads, renders a line as
translated text, and posts it the way a player's message is posted (the engine's view must let
the seat write now: never at night, in the vote or from the dead; then the ``#chat`` fragment is
pushed to the table).

Pace: a bot's k-th line of a discussion is due at a share of the discussion timer, counted from
the window's start (``LINE_SHARES``, plus a per-bot jitter from the seed and seat), so lines come
one by one, before the bot is ready (``bot_pace``).

Language: a bot's line is stored with its ``key`` and ``params`` (``ChatMessage``), and each
reader's chat fragment renders it in that reader's language (``line_html``, through the
``chat_text`` tag); its ``text`` is the line in the site's default language, for the admin and
moderation. A line stored before keys existed shows its text. A human who types a templated line
writes text like any message; the bots still read it (``public_chat``).
"""

from __future__ import annotations

import importlib
from datetime import datetime, timedelta
from types import ModuleType
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from games.base import rng_for
from tables import broadcast, chat
from tables.models import ChatMessage, Match, Seat, Table
from tables.rendering import seat_names

# Shares of the discussion timer at which a bot's first and second lines are due.
LINE_SHARES = (0.06, 0.16)
JITTER_SHARE = 0.06


def talk_module(slug: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"games.{slug}.talk")
    except ModuleNotFoundError:
        return None


def _named(params: dict[str, Any], names: list[str], html: bool = False) -> dict[str, Any]:
    """A line's params with its seat (``target``) shown by name; as HTML, every value escaped and
    the name inside ``<bdi>``."""
    out = {}
    for key, value in params.items():
        if key == "target":
            named = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names)
            value = names[value] if named else "?"
            out[key] = format_html("<bdi>{}</bdi>", str(value)) if html else value
        else:
            out[key] = conditional_escape(value) if html else value
    return out


def render(talk: ModuleType, line: dict[str, Any], names: list[str]) -> str:
    """A line's translated text in the active language, seats shown by name."""
    return _(talk.MESSAGES[line["key"]]) % _named(line.get("params") or {}, names)


def line_html(game: str, key: str, params: dict[str, Any], names: list[str]) -> SafeString | None:
    """A stored bot line in the active language, as HTML: the translated template escaped, each
    name inside ``<bdi>``; ``None`` when ``key`` is no line of this game's bots."""
    talk = talk_module(game) if key else None
    if talk is None or key not in talk.MESSAGES:
        return None
    # Every part is escaped: the translated template here, the values in ``_named``.
    return mark_safe(conditional_escape(_(talk.MESSAGES[key])) % _named(params or {}, names, html=True))


def _known_lines(talk: ModuleType, table: Table) -> dict[str, dict[str, Any]]:
    """Every templated line's text, in every language, back to its key and params."""
    known: dict[str, dict[str, Any]] = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            names = seat_names(table)
            for key, message in talk.MESSAGES.items():
                if "%(target)s" not in message:
                    known[_(message)] = {"key": key, "params": {}}
                    continue
                for seat in range(len(names)):
                    known[render(talk, {"key": key, "params": {"target": seat}}, names)] = {
                        "key": key,
                        "params": {"target": seat},
                    }
    return known


def public_chat(match: Match, talk: ModuleType | None = None) -> list[dict[str, Any]]:
    """The match's chat as the bots read it: every message in one of ``talk``'s templated forms
    (a bot's line, or a human who wrote the same words), in order, with its author's seat."""
    talk = talk or talk_module(match.game)
    if talk is None:
        return []
    known = _known_lines(talk, match.table)
    messages = ChatMessage.objects.filter(table_id=match.table_id, created_at__gte=match.started_at, seat__isnull=False)
    out = []
    for message in messages.order_by("created_at", "pk"):
        if message.key in talk.MESSAGES:
            entry: dict[str, Any] | None = {"key": message.key, "params": dict(message.params or {})}
        else:
            entry = known.get(message.text.strip())
        if entry is not None:
            out.append({"seat": message.seat, **entry})
    return out


def post_as_bot(
    table: Table, seat: int, text: str, at: datetime | None = None, line: dict[str, Any] | None = None
) -> ChatMessage:
    """A practice bot's message: refused like a player's when the chat is closed to its seat.
    ``line`` is the templated line (key and params) the text renders, so that each reader sees it
    in their own language. ``at`` is the clock's time of the line (the time the moderator's
    deadlines are counted in)."""
    if not Seat.objects.filter(table=table, number=seat, is_bot=True).exists():
        raise chat.ChatRefused(_("Only seated players can write here."))
    if not chat.may_chat(table, seat):
        raise chat.ChatRefused(_("The chat is closed for you right now."))
    message = ChatMessage.objects.create(
        table=table,
        author=None,
        seat=seat,
        text=text[: chat.MAX_LENGTH],
        key=(line or {}).get("key", ""),
        params=dict((line or {}).get("params") or {}),
    )
    if at is not None:
        ChatMessage.objects.filter(pk=message.pk).update(created_at=at)
        chat.changed(table.pk)  # no signal reports an update()
        message.created_at = at
    broadcast.chat_posted(table.token)
    return message


def line_due(match: Match, seat: int, k: int, discussion_s: float) -> datetime:
    """When the bot in ``seat`` may say its k-th line of the current discussion."""
    jitter = rng_for(f"pace:{match.seed}", seat).random() * JITTER_SHARE
    share = LINE_SHARES[min(k, len(LINE_SHARES) - 1)] + jitter
    return (match.window_started_at or timezone.now()) + timedelta(seconds=share * discussion_s)


def _speak(match_id: int, now: datetime) -> int:
    with transaction.atomic():
        match = Match.objects.select_for_update().select_related("table").filter(pk=match_id).first()
        if match is None or match.status != Match.Status.PLAYING or match.paused_at is not None:
            return 0
        talk = talk_module(match.game)
        engine = match.engine
        if talk is None or not talk.may_talk(engine.view(match.state, None)):
            return 0
        discussion_s = float(match.table.timers().get("discussion_s", 0))
        since = match.window_started_at or now
        bots = [s.number for s in match.table.seats.filter(is_bot=True)]
        posted = 0
        chat_now: list[dict[str, Any]] | None = None
        for seat in bots:
            said = [
                (key, params or {})
                for key, params in ChatMessage.objects.filter(
                    table_id=match.table_id, seat=seat, author__isnull=True, created_at__gte=since
                ).values_list("key", "params")
            ]
            if len(said) >= talk.MAX_LINES or now < line_due(match, seat, len(said), discussion_s):
                continue
            view = engine.view(match.state, seat)
            chat_now = public_chat(match, talk) if chat_now is None else chat_now
            lines = talk.lines(view, chat_now, talk.rng_for_seat(match.seed, seat))
            fresh = [line for line in lines if (line["key"], line.get("params") or {}) not in said]
            if not fresh:
                continue
            with translation.override(settings.LANGUAGE_CODE):
                text = render(talk, fresh[0], seat_names(match.table))
            try:
                post_as_bot(match.table, seat, text, at=now, line=fresh[0])
            except chat.ChatRefused:
                continue
            chat_now = None  # the next bot reads this line too
            posted += 1
        return posted


def run_due(now: datetime | None = None) -> int:
    """Let every talking bot whose next line is due say it; return how many lines were posted."""
    now = now or timezone.now()
    playing = Match.objects.filter(status=Match.Status.PLAYING).values_list("game", flat=True).distinct()
    slugs = [slug for slug in playing if talk_module(slug) is not None]
    if not slugs:
        return 0
    running = Match.objects.filter(status=Match.Status.PLAYING, game__in=slugs, paused_at__isnull=True)
    # Only tables with a bot seat can have a bot to speak: a table of people costs no lock a tick.
    with_bots = running.filter(table__seats__is_bot=True).distinct()
    ids = with_bots.values_list("pk", flat=True)  # a paused match's bots wait, in the chat too
    return sum(_speak(match_id, now) for match_id in ids)


def choose(bots: ModuleType, match: Match, view: dict[str, Any], legal: list[dict[str, Any]], rng: Any) -> Any:
    """A bot's move: a bot that reads the chat (``READS_CHAT``) is also given the public chat."""
    if getattr(bots, "READS_CHAT", False):
        return bots.choose(view, legal, rng, chat=public_chat(match))
    return bots.choose(view, legal, rng)

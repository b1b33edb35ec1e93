"""Table chat, with each game's phase rules: the engine's view says who may write now.

A table's recent chat and who muted its authors are read on every change of the table, to render
it (tables.renderer.load), although moves rarely change them. This process keeps them under the
table's **chat generation** and the site's, on Django's cache framework (so on Redis, shared by
processes): a line written or deleted, a line hidden or shown again, bumps its table's; a mute
given or lifted, an account saved or deleted (names, a guest merged away) bumps the site's. A
bump happens at once and again when the transaction commits, and the generations are read before
the rows, so a reader never keeps rows older than the generation it saw.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils.translation import gettext as _

from accounts.models import User
from moderation import bans
from moderation.models import HiddenMessage, PersonalMute
from shabneshin import generations, ratelimit
from shabneshin.localize import digits
from tables import broadcast
from tables.lru import LRU
from tables.models import ChatMessage, Match, Table

MAX_LENGTH = 500
HISTORY = 100
KEPT = 500


class ChatRefused(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def seat_of(table: Table, user: User | None) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    seat = table.seats.filter(user=user).first()
    return seat.number if seat else None


def may_chat(table: Table, seat: int | None) -> bool:
    """Seated players chat before and after a match; during it, the engine's view decides, and a
    player who left the game (tables.moderator.leave_game) watches it without a word."""
    if seat is None:
        return False
    match = Match.objects.filter(table=table).first()
    if match is None or match.status != Match.Status.PLAYING:
        return True
    if table.seats.filter(number=seat, left_at_version__isnull=False).exists():
        return False
    view = match.engine.view(match.state, seat)
    return bool(view.get("can_chat", True))


@transaction.atomic
def post(table: Table, user: User, text: str) -> ChatMessage:
    text = (text or "").strip()
    if not text:
        raise ChatRefused(_("Write something first."))
    if len(text) > MAX_LENGTH:
        raise ChatRefused(digits(_("A message can have at most %(n)d characters.") % {"n": MAX_LENGTH}))
    seat = seat_of(table, user)
    if seat is None:
        raise ChatRefused(_("Only seated players can write here."))
    mute = bans.chat_mute_of(user)
    if mute is not None:
        raise ChatRefused(bans.chat_mute_text(mute))
    if not ratelimit.CHAT_POSTS.allows(str(user.pk)):
        raise ChatRefused(_("You are writing too fast. Wait a moment, then send it again."))
    if not may_chat(table, seat):
        raise ChatRefused(_("The chat is closed for you right now."))
    message = ChatMessage.objects.create(table=table, author=user, seat=seat, text=text)
    _keep_bounded(table)
    broadcast.chat_posted(table.token)
    return message


def _keep_bounded(table: Table) -> None:
    """A table stores its last KEPT lines; older ones go, except lines someone reported."""
    oldest_kept = table.chat.order_by("-pk").values_list("pk", flat=True)[KEPT - 1 : KEPT]
    if oldest_kept:
        table.chat.filter(pk__lt=oldest_kept[0], report__isnull=True).delete()


def recent(table: Table) -> list[ChatMessage]:
    return recent_for(table.pk)


def recent_for(table_id: int) -> list[ChatMessage]:
    """The last HISTORY messages, oldest first, with their authors and ``is_hidden`` (a moderator
    hid it: shown as such to everyone), in one query."""
    hidden = HiddenMessage.objects.filter(message=OuterRef("pk"))
    lines = ChatMessage.objects.filter(table_id=table_id).select_related("author").annotate(is_hidden=Exists(hidden))
    return list(lines.order_by("-created_at", "-pk")[:HISTORY])[::-1]


def recent_with_mutes(table_id: int) -> tuple[list[ChatMessage], dict[int, frozenset[int]]]:
    """:func:`recent_for` and :func:`mutes_of_authors` of a table, read again only when its chat
    generation or the site's moved. The lists are shared: callers must not change them."""
    key = (table_id, *generations.current_many(*generation_keys(table_id)))
    kept = _recent.get(key)
    if kept is None:
        messages = recent_for(table_id)
        kept = (messages, mutes_of_authors(messages))
        _recent.put(key, kept)
    return kept  # type: ignore[no-any-return]


def mutes_of_authors(messages: list[ChatMessage]) -> dict[int, frozenset[int]]:
    """Who muted which of these lines' authors, in one query: each viewer's muted authors are
    part of whose eyes a chat fragment is rendered for (tables.renderer.Audience)."""
    authors = {m.author_id for m in messages if m.author_id is not None}
    if not authors:
        return {}
    mutes: dict[int, set[int]] = {}
    for muter, muted in PersonalMute.objects.filter(muted_id__in=authors).values_list("muter_id", "muted_id"):
        mutes.setdefault(muter, set()).add(muted)
    return {muter: frozenset(muted) for muter, muted in mutes.items()}


# --- generations (see the module's docstring) ------------------------------------------------------

SITE_KEY = "chat-generation:site"
_recent = LRU(1024)


def generation_keys(table_id: Any) -> tuple[str, str]:
    """The generations a table's chat is read under (:func:`recent_with_mutes`)."""
    return _table_key(table_id), SITE_KEY


def _table_key(table_id: Any) -> str:
    return f"chat-generation:{table_id}"


def _bump(key: str) -> None:
    generations.bump(key, again_on_commit=True)


def changed(table_id: int) -> None:
    """A table's chat lines changed in a way no model signal reports (a bulk ``update()``)."""
    _bump(_table_key(table_id))


def clear_kept() -> None:
    _recent.clear()


@receiver(post_save, sender=ChatMessage)
@receiver(post_delete, sender=ChatMessage)
def _on_line(sender: Any, instance: ChatMessage, **kwargs: Any) -> None:
    changed(instance.table_id)


@receiver(post_save, sender=HiddenMessage)
@receiver(post_delete, sender=HiddenMessage)
def _on_hidden(sender: Any, instance: HiddenMessage, **kwargs: Any) -> None:
    table_id = ChatMessage.objects.filter(pk=instance.message_id).values_list("table_id", flat=True).first()
    if table_id is not None:
        changed(table_id)
    else:
        _bump(SITE_KEY)


@receiver(post_save, sender=PersonalMute)
@receiver(post_delete, sender=PersonalMute)
@receiver(post_save, sender=User)
@receiver(post_delete, sender=User)
def _on_site_change(sender: Any, **kwargs: Any) -> None:
    _bump(SITE_KEY)

"""Table chat, with each game's phase rules: the engine's view says who may write now."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from tables import broadcast
from tables.models import ChatMessage, Match, Table

MAX_LENGTH = 500
HISTORY = 100


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
    """Seated players chat before and after a match; during it, the engine's view decides."""
    if seat is None:
        return False
    match = Match.objects.filter(table=table).first()
    if match is None or match.status != Match.Status.PLAYING:
        return True
    view = match.engine.view(match.state, seat)
    return bool(view.get("can_chat", True))


@transaction.atomic
def post(table: Table, user: User, text: str) -> ChatMessage:
    text = (text or "").strip()
    if not text:
        raise ChatRefused(_("Write something first."))
    if len(text) > MAX_LENGTH:
        raise ChatRefused(_("A message can have at most %(n)d characters.") % {"n": MAX_LENGTH})
    seat = seat_of(table, user)
    if seat is None:
        raise ChatRefused(_("Only seated players can write here."))
    if not may_chat(table, seat):
        raise ChatRefused(_("The chat is closed for you right now."))
    message = ChatMessage.objects.create(table=table, author=user, seat=seat, text=text)
    broadcast.chat_posted(table.token)
    return message


def recent(table: Table) -> list[ChatMessage]:
    return recent_for(table.pk)


def recent_for(table_id: int) -> list[ChatMessage]:
    """The last HISTORY messages, oldest first, with their authors (one query)."""
    messages = list(
        ChatMessage.objects.filter(table_id=table_id).select_related("author").order_by("-created_at", "-pk")[:HISTORY]
    )
    return messages[::-1]

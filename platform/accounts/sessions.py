"""Whether a session still speaks for its user, checked again on every act of a long-lived
socket: the scope's user was read once, at connect, and a socket can stay open for hours."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.db.models import Exists, OuterRef
from django.utils.crypto import constant_time_compare

from accounts.models import User
from moderation.models import Sanction


def session_still_acts(session_key: str | None, user: Any) -> bool:
    """True while the session still names ``user`` with the auth hash of their current password,
    and the account may still log in. A log-out, a password change elsewhere (Django's session
    hash), a deactivated or banned account: each ends the socket's right to act at once."""
    if not session_key or user is None or not getattr(user, "is_authenticated", False):
        return False
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=session_key)
    if store.get(SESSION_KEY) != str(user.pk):
        return False
    banned = Exists(Sanction.objects.active().filter(kind=Sanction.Kind.BAN, user=OuterRef("pk")))
    current = User.objects.filter(pk=user.pk, is_active=True).annotate(banned=banned).first()
    if current is None or current.banned:  # one query: the current password hash and any ban
        return False
    session_hash = store.get(HASH_SESSION_KEY) or ""
    hashes = [current.get_session_auth_hash(), *current.get_session_auth_fallback_hash()]
    return bool(session_hash) and any(constant_time_compare(session_hash, h) for h in hashes)

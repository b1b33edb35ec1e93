"""Whether a session still speaks for its user, checked again on every act of a long-lived
socket: the scope's user was read once, at connect, and a socket can stay open for hours.

The full check (:func:`session_still_acts`) reads the session, the account and its bans, and
decodes the session: done on every move, it cost ~2 ms of the one database thread (issue 9).
:class:`ActingCheck` keeps a socket's last positive answer while nothing that could change it happened. Every such
event bumps the user's **auth generation** on Django's cache framework (so on Redis, across
processes): a log-in or log-out, any save or deletion of the account (a password change, a
deactivation, a guest merged away), a sanction given, changed or lifted, a session of theirs
deleted. A socket whose generation moved checks in full again, as does one whose last full check is
``ACTING_RECHECK_S`` old (what no signal reports: a session expiring, a bulk ``update()``). A
negative answer is never kept.
"""

from __future__ import annotations

import time
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, user_logged_in, user_logged_out
from django.contrib.sessions.models import Session
from django.db.models import Exists, OuterRef
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from accounts.models import User
from moderation.models import Sanction
from shabneshin import generations
from shabneshin.precompiled import Param, Select, run_together

DB_SESSIONS = "django.contrib.sessions.backends.db"

# The full check's three reads, compiled once per connection and sent in one round trip
# (shabneshin.precompiled): the session row, the account while it may log in, and its bans in force.
_SESSION = Select(
    Session.objects.filter(
        session_key=Param("key", Session._meta.get_field("session_key")),
        expire_date__gt=Param("now", Session._meta.get_field("expire_date")),
    ).order_by()
)
_ACCOUNT = Select(User.objects.filter(pk=Param("pk", User._meta.pk), is_active=True).order_by())
_BANS = Select(
    Sanction.objects.active_at(Param("now", Sanction._meta.get_field("until")))
    .filter(kind=Sanction.Kind.BAN, user_id=Param("pk", Sanction._meta.get_field("user")))
    .order_by()
)


def session_still_acts(session_key: str | None, user: Any) -> bool:
    """True while the session still names ``user`` with the auth hash of their current password,
    and the account may still log in. A log-out, a password change elsewhere (Django's session
    hash), a deactivated or banned account: each ends the socket's right to act at once.

    With sessions in the database (Django's default, and this site's), the session row, the
    account and its bans are read in one round trip by queries compiled once (a socket's first
    check at connect cost 3.4 ms of the database thread through the ORM; issue 9). The row is
    read as Django's own database store reads it: unexpired, its data decoded (a tampered one
    decodes to nothing). Any other session engine is read through its own store."""
    if not session_key or user is None or not getattr(user, "is_authenticated", False):
        return False
    engine = import_module(settings.SESSION_ENGINE)
    if settings.SESSION_ENGINE == DB_SESSIONS:
        now = timezone.now()
        rows, accounts, bans = run_together(
            _SESSION.prepare(key=session_key, now=now), _ACCOUNT.prepare(pk=user.pk), _BANS.prepare(pk=user.pk, now=now)
        )
        data = engine.SessionStore().decode(rows[0].session_data) if rows else {}
        current = accounts[0] if accounts and not bans else None
    else:
        data = engine.SessionStore(session_key=session_key).load()
        banned = Exists(Sanction.objects.active().filter(kind=Sanction.Kind.BAN, user=OuterRef("pk")))
        found = User.objects.filter(pk=user.pk, is_active=True).annotate(banned=banned).first()
        current = found if found is not None and not found.banned else None
    if current is None or data.get(SESSION_KEY) != str(user.pk):
        return False
    session_hash = data.get(HASH_SESSION_KEY) or ""
    hashes = [current.get_session_auth_hash(), *current.get_session_auth_fallback_hash()]
    return bool(session_hash) and any(constant_time_compare(session_hash, h) for h in hashes)


ACTING_RECHECK_S = 300.0


def generation_key(user: Any) -> str | None:
    """The auth generation an :class:`ActingCheck` reads for ``user`` (None for nobody)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return _generation_key(user.pk)


def _generation_key(user_pk: Any) -> str:
    return f"auth-generation:{user_pk}"


def bump_generation(user_pk: Any) -> None:
    """Something that may end a session's right to act happened to this user. The signals that
    call this fire inside the change's transaction: a socket that checks before the commit reads
    the rows as they were and would keep that answer under the new token, so the generation moves
    once more as the change commits."""
    if user_pk is not None:
        generations.bump(_generation_key(user_pk), again_on_commit=True)


class ActingCheck:
    """One socket's :func:`session_still_acts`, kept while its user's generation stands still."""

    def __init__(self) -> None:
        self.generation: str | None = None
        self.checked_at = 0.0

    def still_acts(self, session_key: str | None, user: Any) -> bool:
        if not session_key or user is None or not getattr(user, "is_authenticated", False):
            return False
        now = time.monotonic()
        # Read before the full check: a bump during it is seen next time.
        current = generations.current(_generation_key(user.pk))
        if self.generation == current and now - self.checked_at < ACTING_RECHECK_S:
            return True
        acts = session_still_acts(session_key, user)
        self.generation, self.checked_at = (current, now) if acts else (None, 0.0)
        return acts


@receiver(user_logged_in)
@receiver(user_logged_out)
def _on_log_in_or_out(sender: Any, user: Any = None, **kwargs: Any) -> None:
    bump_generation(getattr(user, "pk", None))


def _on_account_or_sanction(sender: Any, instance: Any, **kwargs: Any) -> None:
    bump_generation(instance.user_id if isinstance(instance, Sanction) else instance.pk)


for _signal in (post_save, post_delete):
    for _model in (User, Sanction):
        _signal.connect(_on_account_or_sanction, sender=_model, dispatch_uid=f"auth-generation-{_model.__name__}")


@receiver(post_delete, sender=Session)
def _on_session_deleted(sender: Any, instance: Session, **kwargs: Any) -> None:
    try:
        user_pk = instance.get_decoded().get(SESSION_KEY)
    except Exception:  # a session that no longer decodes names nobody
        return
    bump_generation(user_pk)

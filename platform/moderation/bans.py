"""Who may not play or chat now: staff sanctions, read the same way by log-in, guest creation,
chat, the socket gate and the session check."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from moderation.models import Report, Sanction
from shabneshin.localize import format_date


def _active(kind: str) -> Any:
    return Sanction.objects.active().filter(kind=kind).order_by("until")


def ban_of(user: Any) -> Sanction | None:
    if user is None or not getattr(user, "pk", None):
        return None
    return _active(Sanction.Kind.BAN).filter(user=user).order_by("-until").first()


def ban_of_device(device: str | None) -> Sanction | None:
    """An active ban of any player who has used this device."""
    if not device:
        return None
    return _active(Sanction.Kind.BAN).filter(user__devices__device=device).first()


def chat_mute_of(user: Any) -> Sanction | None:
    if user is None or not getattr(user, "pk", None):
        return None
    return _active(Sanction.Kind.CHAT_MUTE).filter(user=user).order_by("-until").first()


def _until(sanction: Sanction) -> str:
    return format_date(sanction.until, "datetime")


def reason_text(sanction: Sanction) -> str:
    """The sanction's reason as its reader reads it: a report's reason (stored as its key by the
    report queue's actions) in the reader's language, or what staff typed."""
    return str(dict(Report.Reason.choices).get(sanction.reason, sanction.reason))


def ban_text(ban: Sanction) -> str:
    if ban.until is None:
        return _("You are banned for good. Reason: %(reason)s") % {"reason": reason_text(ban)}
    return _("You are banned until %(until)s. Reason: %(reason)s") % {"until": _until(ban), "reason": reason_text(ban)}


def chat_mute_text(mute: Sanction) -> str:
    if mute.until is None:
        return _("A moderator muted you in chat. Reason: %(reason)s") % {"reason": reason_text(mute)}
    return _("A moderator muted you in chat until %(until)s. Reason: %(reason)s") % {
        "until": _until(mute),
        "reason": reason_text(mute),
    }

"""What a moderator does, each logged in the audit log (``ModeratorAction``) and, where players
see it, announced to the table at once."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from moderation.models import HiddenMessage, ModeratorAction, Report, Sanction
from tables import broadcast
from tables.models import ChatMessage


def log(actor: Any, action: str, target: Any = None, details: str = "") -> ModeratorAction:
    return ModeratorAction.objects.create(actor=actor, action=action, target=target, details=details)


@transaction.atomic
def hide_message(actor: Any, message: ChatMessage) -> bool:
    """Hide a chat line for everyone; every open socket at its table re-renders the chat."""
    _, created = HiddenMessage.objects.get_or_create(message=message, defaults={"hidden_by": actor})
    if created:
        log(actor, "hide_message", message.author, f"message {message.pk} at table {message.table_id}: {message.text}")
        broadcast.chat_posted(message.table.token)
    return created


@transaction.atomic
def sanction(actor: Any, user: Any, kind: str, reason: str, until: datetime | None) -> Sanction:
    decided = Sanction.objects.create(user=user, kind=kind, reason=reason, until=until, created_by=actor)
    log(actor, kind, user, f"until {until.isoformat() if until else 'for good'}: {reason}")
    return decided


@transaction.atomic
def record_sanction(actor: Any, decided: Sanction, created: bool) -> None:
    """A sanction saved through its admin form: logged as a decision or a change."""
    when = decided.until.isoformat() if decided.until else "for good"
    action = decided.kind if created else f"change_{decided.kind}"
    if decided.lifted_at is not None:
        action = f"lift_{decided.kind}"
    log(actor, action, decided.user, f"until {when}: {decided.reason}")


@transaction.atomic
def resolve(actor: Any, report: Report) -> bool:
    if report.resolved_at is not None:
        return False
    report.resolved_at = timezone.now()
    report.save(update_fields=["resolved_at"])
    log(actor, "resolve_report", report.reported, f"report {report.pk}: {report.get_reason_display()}")
    return True

"""Invite links: a signed reference to an Invite row, which can expire and be revoked."""

from __future__ import annotations

from datetime import timedelta

from django.core import signing
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club, Invite

SALT = "clubs.invite"


class InviteError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def create(club: Club, by, days: int = 7) -> Invite:  # noqa: ANN001
    return Invite.objects.create(club=club, created_by=by, expires_at=timezone.now() + timedelta(days=days))


def token_for(invite: Invite) -> str:
    return signing.dumps({"c": invite.club_id, "i": invite.pk}, salt=SALT, compress=True)


def resolve(club: Club, token: str) -> Invite:
    """The usable invite ``token`` names for ``club``, or ``InviteError`` saying why not."""
    try:
        data = signing.loads(token, salt=SALT)
        club_id, invite_id = int(data["c"]), int(data["i"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise InviteError(_("This invite link is not valid.")) from None
    if club_id != club.pk:
        raise InviteError(_("This invite link belongs to another club."))
    invite = Invite.objects.filter(pk=invite_id, club=club).first()
    if invite is None or invite.revoked_at is not None:
        raise InviteError(_("This invite link was revoked."))
    if invite.expires_at <= timezone.now():
        raise InviteError(_("This invite link has expired."))
    return invite


def revoke(invite: Invite) -> None:
    if invite.revoked_at is None:
        invite.revoked_at = timezone.now()
        invite.save(update_fields=["revoked_at"])

"""Who belongs to a club: creating it, joining, requests, leaving, removing and roles.

There is always at least one owner: every change of an owner's membership locks the club row
and refuses to take away the last one.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs import notifications
from clubs.models import Club, JoinRequest, Membership, Rsvp
from clubs.permissions import Role, forget_roles, may_remove, role_of


class MembershipError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@transaction.atomic
def create_club(owner, **fields) -> Club:  # noqa: ANN001, ANN003
    club = Club.objects.create(**fields)
    Membership.objects.create(club=club, user=owner, role=Role.OWNER)
    forget_roles(owner)
    return club


def _add(club: Club, user) -> Membership:  # noqa: ANN001
    membership, _created = Membership.objects.get_or_create(club=club, user=user, defaults={"role": Role.MEMBER})
    forget_roles(user)
    return membership


@transaction.atomic
def join(club: Club, user) -> Membership:  # noqa: ANN001
    """Joining an open club, or through an invite (the caller checked which)."""
    return _add(club, user)


@transaction.atomic
def request_to_join(club: Club, user, message: str) -> JoinRequest:  # noqa: ANN001
    pending = JoinRequest.objects.filter(club=club, user=user, status=JoinRequest.Status.PENDING).first()
    if pending is not None:
        raise MembershipError(_("You have already asked to join; an organizer will answer."))
    request = JoinRequest.objects.create(club=club, user=user, message=message)
    for organizer in Membership.objects.filter(club=club, role__in=[Role.OWNER, Role.ORGANIZER]):
        notifications.notify(organizer.user, "join_request", f"/clubs/{club.slug}/members/", person=user, club=club)
    return request


@transaction.atomic
def decide(request: JoinRequest, by, approve: bool) -> None:  # noqa: ANN001
    request = JoinRequest.objects.select_for_update().get(pk=request.pk)
    if request.status != JoinRequest.Status.PENDING:
        raise MembershipError(_("This request was already answered."))
    request.status = JoinRequest.Status.APPROVED if approve else JoinRequest.Status.REFUSED
    request.decided_by = by
    request.save(update_fields=["status", "decided_by"])
    if approve:
        _add(request.club, request.user)
        notifications.notify(request.user, "request_approved", f"/clubs/{request.club.slug}/", club=request.club)


def _locked(club: Club) -> Club:
    return Club.objects.select_for_update().get(pk=club.pk)


def _owners(club: Club) -> int:
    return Membership.objects.filter(club=club, role=Role.OWNER).count()


def _drop(membership: Membership) -> None:
    from clubs import rsvp  # a member who goes frees their seats at the club's coming nights

    club, user = membership.club, membership.user
    membership.delete()
    forget_roles(user)
    coming = Rsvp.objects.filter(
        night__club=club, user=user, night__cancelled=False, night__starts_at__gt=timezone.now()
    )
    for answer in coming.select_related("night"):  # a night that began keeps who came: it is history
        if answer.answer in (Rsvp.Answer.GOING, Rsvp.Answer.WAITING):
            rsvp.withdraw(answer.night, user)


@transaction.atomic
def leave(club: Club, user) -> None:  # noqa: ANN001
    _locked(club)
    membership = Membership.objects.filter(club=club, user=user).first()
    if membership is None:
        raise MembershipError(_("You are not a member of this club."))
    if membership.role == Role.OWNER and _owners(club) == 1:
        raise MembershipError(_("You are the last owner: make another member an owner before you leave."))
    _drop(membership)


@transaction.atomic
def remove(club: Club, by, member_id: str) -> None:  # noqa: ANN001
    _locked(club)
    membership = _membership_by_id(club, member_id)
    if membership.user_id == by.pk:
        raise MembershipError(_("To leave the club, use Leave."))
    if not may_remove(role_of(by, club), membership.role):
        raise MembershipError(_("You may not remove this member."))
    if membership.role == Role.OWNER and _owners(club) == 1:
        raise MembershipError(_("The last owner cannot be removed."))
    _drop(membership)
    notifications.notify(membership.user, "removed", "/clubs/", club=club.name)


@transaction.atomic
def set_role(club: Club, by, member_id: str, role: str) -> Membership:  # noqa: ANN001
    _locked(club)
    if role not in Role.values:
        raise MembershipError(_("There is no such role."))
    membership = _membership_by_id(club, member_id)
    if membership.role == Role.OWNER and role != Role.OWNER and _owners(club) == 1:
        raise MembershipError(_("The last owner cannot be demoted: make another member an owner first."))
    membership.role = role
    membership.save(update_fields=["role"])
    forget_roles(membership.user)
    forget_roles(by)
    return membership


def _membership_by_id(club: Club, member_id: str) -> Membership:
    """The membership a form names; anything that is not a member of this club is refused."""
    text = str(member_id or "")
    if not (text.isascii() and text.isdigit() and len(text) <= 18):
        raise MembershipError(_("There is no such member in this club."))
    membership = Membership.objects.select_related("user", "club").filter(club=club, pk=int(text)).first()
    if membership is None:
        raise MembershipError(_("There is no such member in this club."))
    return membership

"""What each role may do in a club: the one place that decides it (every view and form asks here).

Outsiders never learn that a private club exists: ``can_see`` is false for them, and the views
answer 404. A suspended club is seen only by staff.
"""

from __future__ import annotations

from enum import StrEnum

from django.http import Http404

from clubs.models import Club, Membership

Role = Membership.Role
_RANK = {Role.MEMBER: 1, Role.ORGANIZER: 2, Role.OWNER: 3}


class Act(StrEnum):
    VIEW = "view"  # the club page, its nights, its public feed
    SEE_MEMBERS = "see_members"  # who is a member, who is going
    JOIN = "join"  # join an open club at once
    REQUEST = "request"  # ask to join a club that takes requests
    LEAVE = "leave"
    RSVP = "rsvp"
    PLAN = "plan"  # create, edit, move and cancel nights and series; add or remove people at a night
    RUN_NIGHT = "run_night"  # check people in and out, walk-ins, rounds, seating, awards, penalties, the end
    MANAGE_MEMBERS = "manage_members"  # approve requests, remove members, invite links
    SET_ROLES = "set_roles"
    EDIT_CLUB = "edit_club"  # also the club's seasons


def role_of(user, club: Club) -> str | None:  # noqa: ANN001
    if not getattr(user, "is_authenticated", False):
        return None
    cache = getattr(user, "_club_roles", None)
    if cache is None:
        cache = user._club_roles = {}
    if club.pk not in cache:
        cache[club.pk] = Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()
    return cache[club.pk]


def forget_roles(user) -> None:  # noqa: ANN001
    """After a change of membership, so the next question reads the database again."""
    if hasattr(user, "_club_roles"):
        del user._club_roles


def _registered(user) -> bool:  # noqa: ANN001
    return bool(getattr(user, "is_authenticated", False)) and not user.is_guest


def at_least(role: str | None, wanted: str) -> bool:
    return role is not None and _RANK[Role(role)] >= _RANK[Role(wanted)]


def can_see(user, club: Club) -> bool:  # noqa: ANN001
    if getattr(user, "is_staff", False):
        return True
    if club.suspended:
        return False
    return club.visibility != Club.Visibility.PRIVATE or role_of(user, club) is not None


def may(user, act: Act, club: Club) -> bool:  # noqa: ANN001
    """Whether ``user`` may do ``act`` in ``club`` now."""
    if not can_see(user, club):
        return False
    role = role_of(user, club)
    if act is Act.VIEW:
        return True
    if club.suspended and act is not Act.SEE_MEMBERS:
        return False  # staff may look at a suspended club; nobody acts in it
    if act is Act.SEE_MEMBERS:
        return role is not None or getattr(user, "is_staff", False)
    if act is Act.JOIN:
        return role is None and _registered(user) and club.join_policy == Club.JoinPolicy.OPEN
    if act is Act.REQUEST:
        return role is None and _registered(user) and club.join_policy == Club.JoinPolicy.REQUEST
    if act is Act.LEAVE:
        return role is not None
    if act is Act.RSVP:
        return role is not None
    if act in (Act.PLAN, Act.RUN_NIGHT, Act.MANAGE_MEMBERS):
        return at_least(role, Role.ORGANIZER)
    if act in (Act.SET_ROLES, Act.EDIT_CLUB):
        return at_least(role, Role.OWNER)
    raise ValueError(act)


def may_remove(actor_role: str | None, target_role: str) -> bool:
    """Organizers remove members; owners remove anyone below or beside them (the last-owner rule
    is kept by ``clubs.members``)."""
    if actor_role == Role.OWNER:
        return True
    return actor_role == Role.ORGANIZER and target_role == Role.MEMBER


def visible_club_or_404(user, slug: str) -> Club:  # noqa: ANN001
    club = Club.objects.filter(slug=slug).first()
    if club is None or not can_see(user, club):
        raise Http404("no such club")
    return club


def attends(user, night) -> bool:  # noqa: ANN001
    """Whether ``user`` is checked in at ``night``. A walk-in guest is no member, but the night's
    tables, its best-player vote and its recap are theirs as much as a member's."""
    if not getattr(user, "is_authenticated", False):
        return False
    from clubs.models import CheckIn

    return CheckIn.objects.filter(night=night, user=user).exists()


def may_see_night(user, night) -> bool:  # noqa: ANN001
    """The night page: whoever sees the club, and whoever is checked in at it (a walk-in at a
    private club too), unless the club is suspended."""
    return can_see(user, night.club) or (not night.club.suspended and attends(user, night))


def may_see_nights_people(user, night) -> bool:  # noqa: ANN001
    """Its tables, names, scoreboard, vote and recap: the members, and whoever is checked in."""
    return may(user, Act.SEE_MEMBERS, night.club) or (not night.club.suspended and attends(user, night))


def night_or_404(user, slug: str, night_id: int):  # noqa: ANN001, ANN201
    """The club and the night, or 404 where ``user`` may not see that night (:func:`may_see_night`)."""
    from clubs.models import Night

    night = Night.objects.select_related("club", "series").filter(pk=night_id, club__slug=slug).first()
    if night is None or not may_see_night(user, night):
        raise Http404("no such night")
    return night.club, night

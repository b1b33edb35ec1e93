"""A person's nights: the coming nights of their clubs, and the nights they came to.

A night one came to is a night one was checked in at (clubs.checkin), as a member or as a walk-in
guest: the same rule that lets them read its recap (clubs.permissions.attends), so every night
listed here opens for them. A walk-in is no member, so their coming nights are none, but the
nights they came to are theirs as much as a member's.
"""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from clubs.models import CheckIn, Night, Rsvp

RECENT = timedelta(days=14)  # how long a night one came to stays in the home page's box


def upcoming(user, limit: int = 50) -> list[Night]:  # noqa: ANN001
    """Every coming night of the clubs ``user`` belongs to, soonest first, with their answer (a
    night ended before its planned start, as an early one may be, is no longer coming)."""
    if not getattr(user, "is_authenticated", False):
        return []
    found = list(
        Night.objects.filter(
            club__memberships__user=user, club__suspended=False, starts_at__gt=timezone.now(), ended_at__isnull=True
        )
        .select_related("club")
        .order_by("starts_at")[:limit]
    )
    answers = dict(Rsvp.objects.filter(user=user, night__in=found).values_list("night_id", "answer"))
    for night in found:
        night.my_answer = answers.get(night.pk)
    return found


def came_to(user, limit: int = 50, since=None) -> list[Night]:  # noqa: ANN001
    """The ended nights ``user`` was checked in at, latest first (``since``: ended after it)."""
    if not getattr(user, "is_authenticated", False):
        return []
    nights = Night.objects.filter(
        pk__in=CheckIn.objects.filter(user=user).values("night_id"),
        ended_at__isnull=False,
        club__suspended=False,
    )
    if since is not None:
        nights = nights.filter(ended_at__gte=since)
    return list(nights.select_related("club").order_by("-starts_at")[:limit])


def recent(user, limit: int = 3) -> list[Night]:  # noqa: ANN001
    """The nights ``user`` came to that ended lately: the home page offers their recaps."""
    return came_to(user, limit, since=timezone.now() - RECENT)


def ever_came(user) -> bool:  # noqa: ANN001
    return getattr(user, "is_authenticated", False) and CheckIn.objects.filter(user=user).exists()

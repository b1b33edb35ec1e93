"""The club's standings (issue 12 §8): a leaderboard over the club's own ended nights within a
season (a date range the owner sets), and a member's page in the club.

Rulings: a night belongs to a season when its start, in the club's time zone, falls on a day of
the season's range (both ends included); only ended nights count (a night under way has no final
scoreboard). Without a season the standings count every ended night of the club. A night
attended is a night the person was checked in at (and not checked out of). Tables won are the
table lines marked won, by game and by the side the result gave the seat.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.db import transaction
from django.db.models import Count, Q, Sum
from django.utils.translation import gettext as _

from clubs import scoreboard
from clubs.models import CheckIn, Club, Membership, Night, PointsEntry, Season


class SeasonError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def nights_of(club: Club, season: Season | None):  # noqa: ANN201
    nights = Night.objects.filter(club=club, ended_at__isnull=False, cancelled=False)
    if season is None:
        return nights
    zone = ZoneInfo(club.time_zone)
    start = datetime.combine(season.starts_on, time.min, tzinfo=zone)
    end = datetime.combine(season.ends_on + timedelta(days=1), time.min, tzinfo=zone)
    return nights.filter(starts_at__gte=start, starts_at__lt=end)


def leaderboard(club: Club, season: Season | None) -> list[dict[str, Any]]:
    nights = nights_of(club, season)
    names = {m.user_id: str(m.user) for m in Membership.objects.filter(club=club).select_related("user")}
    for row in CheckIn.objects.filter(night__in=nights).select_related("user"):
        names.setdefault(row.user_id, str(row.user))
    ranked = scoreboard.board(PointsEntry.objects.filter(night__in=nights), names)
    attended = _attended(nights)
    for row in ranked:
        row["nights"] = len(attended.get(row["user_id"], ()))
    return ranked


def _attended(nights: Any, user: Any = None) -> dict[int, set[int]]:
    """Each person's nights attended: checked in when the night ended, or seated at one of its
    tables (someone who played a round and was then checked out still came)."""
    present = CheckIn.objects.filter(night__in=nights, present=True)
    played = PointsEntry.objects.filter(night__in=nights, kind=PointsEntry.Kind.TABLE)
    if user is not None:
        present, played = present.filter(user=user), played.filter(user=user)
    nights_of_person: dict[int, set[int]] = {}
    for user_id, night_id in [*present.values_list("user_id", "night_id"), *played.values_list("user_id", "night_id")]:
        nights_of_person.setdefault(user_id, set()).add(night_id)
    return nights_of_person


def member_stats(club: Club, user, season: Season | None = None) -> dict[str, Any]:  # noqa: ANN001
    nights = nights_of(club, season)
    lines = PointsEntry.objects.filter(night__in=nights, user=user)
    by_game = (
        lines.filter(kind=PointsEntry.Kind.TABLE)
        .values("game", "side")
        .annotate(tables=Count("pk"), won=Count("pk", filter=Q(won=True)), points=Sum("points"))
        .order_by("game", "side")
    )
    return {
        "nights": len(_attended(nights, user).get(user.pk, ())),
        "points": lines.aggregate(total=Sum("points"))["total"] or 0,
        "tables": lines.filter(kind=PointsEntry.Kind.TABLE).count(),
        "won": lines.filter(kind=PointsEntry.Kind.TABLE, won=True).count(),
        "by_game": [
            {**row, "side_templates": [f"games/{row['game']}/_side.html", "history/_side.html"]} for row in by_game
        ],
        "recent": nights.filter(checkins__user=user, checkins__present=True).order_by("-starts_at")[:10],
    }


@transaction.atomic
def add_season(club: Club, by, name: str, starts_on, ends_on) -> Season:  # noqa: ANN001
    name = " ".join((name or "").split())
    if not name or len(name) > 80:
        raise SeasonError(_("Give the season a name of 1 to 80 characters."))
    if starts_on is None or ends_on is None or ends_on < starts_on:
        raise SeasonError(_("A season ends on or after the day it starts."))
    return Season.objects.create(club=club, name=name, starts_on=starts_on, ends_on=ends_on, created_by=by)

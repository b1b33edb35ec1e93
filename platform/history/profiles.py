"""A player's public record: ratings with their history, games played and won by side or role,
and recent matches, shown only as far as the viewer may see each match."""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from django.db.models import F, Q

from games import registry
from history import charts
from history.access import may_see
from history.facts import SIDE_GAMES
from history.models import PROVISIONAL_GAMES, PROVISIONAL_SIGMA, ProfileSettings, Rating, RatingChange
from tables.models import Match, Seat


def is_hidden(user: Any) -> bool:
    return ProfileSettings.objects.filter(user=user, hidden=True).exists()


def have_played_together(a: Any, b: Any) -> bool:
    if not getattr(b, "is_authenticated", False):
        return False
    tables = Seat.objects.filter(user=a).values("table_id")
    return Seat.objects.filter(user=b, table_id__in=tables).exists()


def may_view_profile(owner: Any, viewer: Any) -> bool:
    """A hidden profile is for its owner, the staff and the people who sat at a table with them."""
    if getattr(viewer, "pk", None) == owner.pk or getattr(viewer, "is_staff", False):
        return True
    return not is_hidden(owner) or have_played_together(owner, viewer)


def rating_rows(owner: Any) -> list[dict[str, Any]]:
    rows = []
    for rating in Rating.objects.filter(user=owner).order_by("game"):
        values = [
            c.after for c in RatingChange.objects.filter(user=owner, game=rating.game).order_by("created_at", "pk")
        ]
        rows.append({"rating": rating, "engine": registry.get(rating.game), "chart": charts.line(values)})
    return rows


def record(owner: Any) -> list[dict[str, Any]]:
    """Per game, per side (team games) or role: finished matches played and won."""
    counts: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    seats = Seat.objects.filter(user=owner, table__match__status=Match.Status.FINISHED).select_related("table__match")
    for seat in seats:
        match = seat.table.match
        result = match.result or {}
        rows = result.get("seats", [])
        if seat.number >= len(rows):
            continue
        info = rows[seat.number]
        key = str(info.get("side") if match.game in SIDE_GAMES else info.get("role"))
        entry = counts[match.game][key]
        entry[0] += 1
        entry[1] += seat.number in result.get("winners", [])
    return [
        {
            "engine": registry.get(game),
            "slug": game,
            "by_side": game in SIDE_GAMES,
            "side_templates": [f"games/{game}/_side.html", "history/_side.html"],
            "rows": [{"key": key, "played": p, "won": w} for key, (p, w) in sorted(by_key.items())],
            "played": sum(p for p, _ in by_key.values()),
            "won": sum(w for _, w in by_key.values()),
        }
        for game, by_key in sorted(counts.items())
    ]


def recent_matches(owner: Any, viewer: Any, limit: int = 15) -> list[dict[str, Any]]:
    seats = (
        Seat.objects.filter(user=owner)
        .exclude(table__match__isnull=True)
        .exclude(table__match__status=Match.Status.PLAYING)
        .select_related("table__match", "table")
        .order_by("-table__match__finished_at")
    )
    out = []
    for seat in seats[: limit * 4]:
        match = seat.table.match
        viewer_seat = match.seat_of(viewer)
        if not may_see(match, viewer, viewer_seat, holds_link=False):
            continue
        winners = (match.result or {}).get("winners", [])
        out.append({"match": match, "won": seat.number in winners if match.result else None})
        if len(out) == limit:
            break
    return out


def leaderboard(game: str, limit: int = 50) -> list[Rating]:
    """The top players by the ordinal (mu - 3 sigma), provisional players and hidden profiles left out."""
    hidden = ProfileSettings.objects.filter(hidden=True).values("user_id")
    return list(
        Rating.objects.filter(game=game, games__gte=PROVISIONAL_GAMES, sigma__lte=PROVISIONAL_SIGMA)
        .exclude(Q(user_id__in=hidden))
        .select_related("user")
        .annotate(ordinal_value=F("mu") - 3 * F("sigma"))
        .order_by("-ordinal_value", "pk")[:limit]
    )


def provisional_count(game: str) -> int:
    """How many players of ``game`` are not on its board yet for too few rated games or too wide
    an uncertainty (hidden profiles are not counted: they are not on it by their own choice)."""
    hidden = ProfileSettings.objects.filter(hidden=True).values("user_id")
    provisional = Q(games__lt=PROVISIONAL_GAMES) | Q(sigma__gt=PROVISIONAL_SIGMA)
    return Rating.objects.filter(provisional, game=game).exclude(user_id__in=hidden).count()


def clubs_of(owner: Any, viewer: Any) -> list[Any]:
    """The clubs ``owner`` belongs to that ``viewer`` may see: public ones, and a private one only
    to its own members (and to the owner themself)."""
    from clubs.models import Membership
    from clubs.permissions import can_see

    memberships = Membership.objects.filter(user=owner, club__suspended=False).select_related("club")
    is_owner = getattr(viewer, "pk", None) == owner.pk
    return [m.club for m in memberships.order_by("club__name") if is_owner or can_see(viewer, m.club)]


SEARCH_MIN_CHARS = 2
SEARCH_LIMIT = 30
ZWNJ = "\u200c"
# Letters typed either way: the Arabic keyboard's yeh and kaf beside the Persian ones.
_SAME_LETTER = {"ی": "[یيى]", "ي": "[یيى]", "ى": "[یيى]", "ک": "[کك]", "ك": "[کك]"}


def _spelling_pattern(query: str) -> str:
    """A regular expression for ``query`` that a name matches however its words are joined (a
    space or a zero-width non-joiner, «مهمان علی» or «مهمان‌علی») and whichever keyboard typed its
    yeh and kaf."""
    parts = []
    for ch in query:
        if ch == " ":
            parts.append("[ \u200c]+")
        else:
            parts.append(_SAME_LETTER.get(ch, re.escape(ch)))
    return "".join(parts)


def search(query: str, viewer: Any) -> list[Any]:
    """Registered players whose display name holds ``query`` (or whose username is it), for the
    player search: no guests (their names are passing), no bots, and no hidden profile the viewer
    may not see (:func:`may_view_profile`); at most ``SEARCH_LIMIT``, by name."""
    from accounts.models import User

    query = " ".join(query.replace(ZWNJ, " ").split())
    if len(query) < SEARCH_MIN_CHARS:
        return []
    found = User.objects.filter(is_guest=False, is_active=True).filter(
        Q(display_name__iregex=_spelling_pattern(query)) | Q(username__iexact=query)
    )
    if not getattr(viewer, "is_staff", False):  # may_view_profile, in the query: one query, a full page
        seen = ~Q(pk__in=ProfileSettings.objects.filter(hidden=True).values("user_id"))
        if getattr(viewer, "is_authenticated", False):
            co_players = Seat.objects.filter(table_id__in=Seat.objects.filter(user=viewer).values("table_id"))
            seen |= Q(pk=viewer.pk) | Q(pk__in=co_players.values("user_id"))
        found = found.filter(seen)
    return list(found.order_by("display_name", "pk")[:SEARCH_LIMIT])

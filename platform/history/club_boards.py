"""A club's own leaderboards (issue 13 §5): the same ratings, counting only the club's nights.

A club's board replays, with openskill, only the matches played at tables of that club's nights
(``clubs.RoundTable``: a night's round seated them), in the order they finished, from fresh
ratings. The rules are the site's (:mod:`history.ratings`): only all-human matches count, and
provisional players (fewer than ``PROVISIONAL_GAMES`` rated games *in the club*, or σ above
``PROVISIONAL_SIGMA``) and hidden profiles are left out. Computed on request: a club plays
dozens of matches a season, not thousands.
"""

from __future__ import annotations

from typing import Any

from history.models import ProfileSettings, Rating
from history.ratings import _new, _start, plan_for
from tables.models import Match


def club_matches(club: Any, game: str) -> Any:
    return (
        Match.objects.filter(game=game, status=Match.Status.FINISHED, table__night_table__round__night__club=club)
        .select_related("table")
        .order_by("finished_at", "pk")
    )


def club_ratings(club: Any, game: str) -> dict[int, Rating]:
    """Every player's club rating in ``game``, provisional ones included (unsaved ``Rating`` rows:
    the site's own rules for showing them and for being provisional)."""
    ratings: dict[int, tuple[float, float]] = {}
    games: dict[int, int] = {}
    for match in club_matches(club, game):
        plan = plan_for(match)
        if plan is None:
            continue
        before = {u: ratings.get(u, _start()) for u in plan.players.values()}
        ratings.update(_new(before, plan))
        for user in plan.players.values():
            games[user] = games.get(user, 0) + 1
    from accounts.models import User

    users = User.objects.in_bulk(list(ratings))
    return {
        u: Rating(user=users[u], game=game, mu=mu, sigma=sigma, games=games[u])
        for u, (mu, sigma) in ratings.items()
        if u in users
    }


def club_leaderboard(club: Any, game: str, limit: int = 50) -> tuple[list[Rating], int]:
    """The listed players, best first by μ − 3σ, and how many provisional ones were left out."""
    everyone = club_ratings(club, game)
    hidden_rows = ProfileSettings.objects.filter(hidden=True, user_id__in=list(everyone))
    hidden = set(hidden_rows.values_list("user_id", flat=True))
    listed = [r for u, r in everyone.items() if not r.provisional and u not in hidden]
    listed.sort(key=lambda r: (-(r.mu - 3 * r.sigma), r.user.pk))
    return listed[:limit], sum(1 for r in everyone.values() if r.provisional)

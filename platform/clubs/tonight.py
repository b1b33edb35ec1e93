"""What the night page shows of the night itself (issue 12 §2–5), for one reader: the round being
drawn, each table's game, status and progress, the reader's own table, the scoreboard.

Built for a request and for the night's socket alike (clubs.consumers), so it takes a user, not a
request. It reads matches only for their status and move count: never a state, a role or a
secret of a running match; the night's seed only once the night has ended.
"""

from __future__ import annotations

from typing import Any

from clubs import rounds, scoreboard
from clubs.models import CheckIn, Club, Night, Round, RoundTable
from clubs.wording import names, say
from games import registry


def _seats(people: list[str], bots: int, who: dict[str, str]) -> list[dict[str, Any]]:
    n = len(people) + bots
    seats = [{"person": p, "name": who.get(p, p), "bot": False} for p in people]
    seats += [{"person": "", "name": "", "bot": True} for _ in range(bots)]
    for i, seat in enumerate(seats):
        seat["i"], seat["n"] = i, n
    return seats


def draft(round_: Round, who: dict[str, str]) -> dict[str, Any]:
    data = round_.seating or {}
    return {
        "round": round_,
        "quality": round_.quality,
        "tables": [
            {
                "index": i,
                "game": t["game"],
                "seats": _seats(t["people"], t.get("bots", 0), who),
                "locked": t.get("locked"),
            }
            for i, t in enumerate(data.get("tables", []))
        ],
        "unseated": [(who.get(p, p), say(why, who)) for p, why in data.get("unseated", [])],
        "broken": [say(why, who) for _rule, why in data.get("broken", [])],
        "steps": [say(step, who) for step in data.get("steps", [])],
        "people": sorted((who.get(p, p), p) for p in round_.inputs.get("people", [])),
        "stale": False,
    }


def table_rows(round_: Round, user, who: dict[str, str]) -> list[dict[str, Any]]:  # noqa: ANN001
    rows = []
    for row in RoundTable.objects.filter(round=round_).select_related("table__match").order_by("index"):
        table = row.table
        match = getattr(table, "match", None)
        mine = getattr(user, "is_authenticated", False) and table.seats.filter(user_id=user.pk).exists()
        rows.append(
            {
                "row": row,
                "game": table.game,
                "status": table.get_status_display(),
                "status_code": table.status,
                "moves": match.version if match is not None else 0,
                "token": table.token,
                "seats": _seats(row.people, table.seat_count - len(row.people), who),
                "mine": mine,
            }
        )
    return rows


def context(user, club: Club, night: Night, organizer: bool) -> dict[str, Any]:  # noqa: ANN001
    """Members, and whoever is checked in (a walk-in guest), see the night's tables, names and
    scoreboard; an outsider of a public club sees only the seed's commitment (and, after the end,
    the seed), as they do not see who is going."""
    from clubs.permissions import may_see_nights_people

    if not may_see_nights_people(user, night):
        return {"revealed_seed": night.revealed_seed(), "round": None, "round_tables": [], "scoreboard": []}
    who = names(night)
    active = rounds.current(night)
    shown = active or Round.objects.filter(night=night).order_by("-number").first()
    ctx: dict[str, Any] = {
        "round": shown,
        "round_draft": draft(shown, who)
        if shown is not None and shown.status == Round.Status.DRAFT and organizer
        else None,
        "round_tables": table_rows(shown, user, who)
        if shown is not None and shown.status != Round.Status.DRAFT
        else [],
        "rounds_played": Round.objects.filter(night=night).exclude(status=Round.Status.DRAFT).count(),
        **scoreboard.shown(night, who),
        "revealed_seed": night.revealed_seed(),
        "may_run": organizer,
    }
    ctx["my_table"] = next((t for t in ctx["round_tables"] if t["mine"] and t["status_code"] != "finished"), None)
    ctx["finished_tables"] = finished_tables(night, user) if ctx["rounds_played"] else []
    if organizer:
        from clubs.models import Penalty

        ctx["game_choices"] = game_choices(night)
        ctx["penalties"] = Penalty.objects.filter(night=night, undone_at__isnull=True).select_related("user")
        ctx["present_people"] = [
            (c.user_id, str(c.user)) for c in CheckIn.objects.filter(night=night).select_related("user")
        ]
    return ctx


def game_choices(night: Night) -> list[dict[str, Any]]:
    offered = [g.get("game") for g in night.games]
    engines = sorted(registry.all(), key=lambda e: (e.slug not in offered, e.slug))
    return [{"slug": e.slug, "min": e.min_players, "max": e.max_players, "offered": e.slug in offered} for e in engines]


def finished_tables(night: Night, user) -> list[dict[str, Any]]:  # noqa: ANN001
    """Tonight's finished tables, for naming best players (organizers) and voting (their players)."""
    from clubs.models import Award, AwardVote

    rows = []
    for row in (
        RoundTable.objects.filter(round__night=night, table__status="finished")
        .select_related("round", "table")
        .order_by("round__number", "index")
    ):
        players = [(s.user_id, str(s.user)) for s in row.table.seats.select_related("user").filter(is_bot=False)]
        me = getattr(user, "pk", None)
        rows.append(
            {
                "row": row,
                "game": row.table.game,
                "players": players,
                "award": Award.objects.filter(round_table=row, undone_at__isnull=True).select_related("user").first(),
                "votes": AwardVote.objects.filter(round_table=row).count(),
                "i_played": any(uid == me for uid, _name in players),
                "my_vote": AwardVote.objects.filter(round_table=row, voter_id=me)
                .values_list("candidate_id", flat=True)
                .first(),
            }
        )
    return rows

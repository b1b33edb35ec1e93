"""The night's scoreboard (issue 12 §5): the one writer of the points log.

A person's night total is the sum of their ``PointsEntry`` lines and nothing else: a finished
table writes one line per person (the game's points from ``clubs.points``, normalised, with the
points table's version), a best-player award and a penalty write one line each, and undoing
either writes a line that takes it back. So no total changes without a line saying why and who.

The points themselves come from ``clubs.points`` (its versioned, documented table and its
normalisation); the standings and their printed tie-break order too (``points.standings``,
``points.TIE_BREAKS``), fed from the log, so the scoreboard's total is always the log's sum.

Rulings: a table is scored once, when its match has finished; an aborted table writes nothing. A
bot's seat scores nothing. A night is scored with the points version of its first scored table
(a new version never changes a night already under way). A best-player award is worth
``points.BEST_PLAYER_BONUS``; a penalty takes what the organizer gives (1 to 10 points, default
1). Undoing an award or a penalty twice is refused. The vote: one per player of the table, for
another player, changeable until the organizer names the best player by it
(``points.tally``: the most voted, a tie names nobody and the organizer picks).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs import autopiloted, live, points
from clubs.models import Award, AwardVote, CheckIn, Night, Penalty, PointsEntry, RoundTable

PENALTY_MAX = 10


class ScoreError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _d(value: Any) -> Decimal:
    return Decimal(str(round(float(value), 2)))


@transaction.atomic
def score_table(row: RoundTable) -> int:
    """Write the points of a finished table, once. Returns how many lines were written."""
    row = (
        RoundTable.objects.select_for_update(of=("self",)).select_related("round__night", "table__match").get(pk=row.pk)
    )
    match = getattr(row.table, "match", None)
    if row.scored or match is None or match.status != match.Status.FINISHED:
        return 0
    night = row.round.night
    version = _version(night)
    seats = {s.number: s for s in row.table.seats.all()}
    result = match.result or {}
    winners = set(result.get("winners", []))
    written = 0
    for number, seat in sorted(seats.items()):
        if seat.is_bot or seat.user_id is None:
            continue
        raw = sum(p for _rule, p in points.raw_points(match.game, match.state, result, number, version))
        normalised = points.table_points(match.game, match.state, result, number, version)
        PointsEntry.objects.create(
            night=night,
            user_id=seat.user_id,
            kind=PointsEntry.Kind.TABLE,
            points=_d(normalised),
            raw=_d(raw),
            game=match.game,
            side=str(_side(result, number)),
            won=number in winners,
            round_table=row,
            version=str(version),
        )
        written += 1
    row.scored = True
    row.save(update_fields=["scored"])
    live.night_changed(night)
    return written


def _version(night: Night) -> int:
    first = PointsEntry.objects.filter(night=night, kind=PointsEntry.Kind.TABLE).exclude(version="").first()
    return int(first.version) if first is not None else points.POINTS_VERSION


def _side(result: dict, seat: int) -> str:
    seats = result.get("seats") or []
    if seat < len(seats) and isinstance(seats[seat], dict):
        return str(seats[seat].get("side") or seats[seat].get("role") or "")
    return ""


def score_finished() -> int:
    """The clock: every linked table that finished and is not scored yet (one indexed query when none)."""
    rows = list(RoundTable.objects.filter(scored=False, table__status="finished").values_list("pk", flat=True)[:50])
    done = 0
    for pk in rows:
        done += bool(score_table(RoundTable(pk=pk)))
    return done


# --- awards and penalties ---------------------------------------------------------------------------


def _line(night: Night, user_id: int, kind: str, value: Decimal, by, **extra: Any) -> PointsEntry:  # noqa: ANN001
    entry = PointsEntry.objects.create(night=night, user_id=user_id, kind=kind, points=value, raw=value, by=by, **extra)
    live.night_changed(night)
    return entry


def _open_night(night: Night) -> Night:
    night = Night.objects.select_for_update().get(pk=night.pk)
    if night.ended_at is not None:
        raise ScoreError(_("This night has ended; its scoreboard is final."))
    return night


def _player_of(row: RoundTable, user_id: int) -> bool:
    return row.table.seats.filter(user_id=user_id, is_bot=False).exists()


@transaction.atomic
def vote(row: RoundTable, voter, candidate_id: int) -> AwardVote:  # noqa: ANN001
    """A player of a finished table votes for its best player (one vote each, changeable)."""
    _open_night(row.round.night)
    if row.table.status != "finished":
        raise ScoreError(_("Vote once the table has finished."))
    if not _player_of(row, voter.pk):
        raise ScoreError(_("Only the table's players vote for its best player."))
    if candidate_id == voter.pk or not _player_of(row, candidate_id):
        raise ScoreError(_("Vote for another player of your table."))
    found, _created = AwardVote.objects.update_or_create(
        round_table=row, voter=voter, defaults={"candidate_id": candidate_id}
    )
    return found


@transaction.atomic
def award(row: RoundTable, by, user_id: int | None = None) -> Award:  # noqa: ANN001
    """Name a table's best player: the organizer's pick, or (``user_id`` None) the players'
    vote, which must have one clear leader."""
    night = _open_night(row.round.night)
    if row.table.status != "finished":
        raise ScoreError(_("Name the best player once the table has finished."))
    if Award.objects.filter(round_table=row, undone_at__isnull=True).exists():
        raise ScoreError(_("This table already has its best player; undo it first."))
    by_vote = user_id is None
    if by_vote:
        cast = AwardVote.objects.filter(round_table=row).values_list("voter_id", "candidate_id")
        votes = {f"u{voter}": f"u{candidate}" for voter, candidate in cast}
        winner = points.tally(votes)
        if winner is None:
            raise ScoreError(_("The vote has no clear winner: pick the best player yourself."))
        user_id = int(winner[1:])
    elif not _player_of(row, user_id):
        raise ScoreError(_("The best player must be one of the table's players."))
    given = Award.objects.create(round_table=row, user_id=user_id, by_vote=by_vote, given_by=by)
    _line(night, user_id, PointsEntry.Kind.AWARD, _d(points.BEST_PLAYER_BONUS), by, award=given, round_table=row)
    return given


@transaction.atomic
def penalise(night: Night, user_id: int, reason: str, by, value: int = 1) -> Penalty:  # noqa: ANN001
    night = _open_night(night)
    reason = " ".join((reason or "").split())
    if not reason or len(reason) > 200:
        raise ScoreError(_("Give the penalty a reason (200 characters at most)."))
    if not 1 <= value <= PENALTY_MAX:
        raise ScoreError(_("A penalty is 1 to 10 points."))
    if not CheckIn.objects.filter(night=night, user_id=user_id).exists():
        raise ScoreError(_("That person is not at this night."))
    given = Penalty.objects.create(night=night, user_id=user_id, points=Decimal(value), reason=reason, given_by=by)
    _line(night, user_id, PointsEntry.Kind.PENALTY, -Decimal(value), by, penalty=given, note=reason)
    return given


@transaction.atomic
def undo(night: Night, thing: Award | Penalty, by) -> PointsEntry:  # noqa: ANN001
    """Take an award or a penalty back: a log line of the opposite points."""
    night = _open_night(night)
    model = type(thing)
    thing = model.objects.select_for_update().get(pk=thing.pk)
    if thing.undone_at is not None:
        raise ScoreError(_("This was already undone."))
    thing.undone_at, thing.undone_by = timezone.now(), by
    thing.save(update_fields=["undone_at", "undone_by"])
    link = {"award": thing} if isinstance(thing, Award) else {"penalty": thing}
    given = PointsEntry.objects.filter(night=night, **link).exclude(kind=PointsEntry.Kind.UNDO).first()
    back = -given.points if given is not None else Decimal(0)
    return _line(night, thing.user_id, PointsEntry.Kind.UNDO, back, by, note=_("undone"), **link)


# --- reading ------------------------------------------------------------------------------------------


def totals(night: Night) -> dict[int, Decimal]:
    return {
        row["user_id"]: row["total"]
        for row in PointsEntry.objects.filter(night=night).values("user_id").annotate(total=Sum("points"))
    }


def rows(night: Night, who: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """The scoreboard, best first, by the printed tie-break order (``points.TIE_BREAKS``), built
    from the log: table lines, live awards and penalties (an undone one and its undo line cancel).
    ``bot_played``: at how many finished tables a bot played for the person (clubs.autopiloted)."""
    names = {c.user_id: str(c.user) for c in CheckIn.objects.filter(night=night).select_related("user")}
    ranked = board(PointsEntry.objects.filter(night=night), names)
    bot_played = autopiloted.tables_by_person(night)
    for row in ranked:
        row["bot_played"] = bot_played.get(row["user_id"], 0)
    return ranked


def board(lines_of, names: dict[int, str]) -> list[dict[str, Any]]:  # noqa: ANN001
    """Standings over any set of log lines (one night, or a club's season: clubs.standings)."""
    lines = list(lines_of.select_related("award", "penalty"))
    undone_awards = {e.award_id for e in lines if e.kind == PointsEntry.Kind.UNDO and e.award_id}
    undone_penalties = {e.penalty_id for e in lines if e.kind == PointsEntry.Kind.UNDO and e.penalty_id}
    scores = [
        points.TableScore(f"u{e.user_id}", str(e.round_table_id), e.game, float(e.points), e.won)
        for e in lines
        if e.kind == PointsEntry.Kind.TABLE
    ]
    awards = [
        points.Award(f"u{e.user_id}", str(e.round_table_id), float(e.points))
        for e in lines
        if e.kind == PointsEntry.Kind.AWARD and e.award_id not in undone_awards
    ]
    penalties = [
        points.Penalty(f"u{e.user_id}", -float(e.points), e.note)
        for e in lines
        if e.kind == PointsEntry.Kind.PENALTY and e.penalty_id not in undone_penalties
    ]
    ranked = []
    for standing in points.standings(scores, awards, penalties):
        user_id = int(standing.person[1:])
        ranked.append(
            {
                "user_id": user_id,
                "name": names.get(user_id, standing.person),
                "place": standing.place,
                "total": _d(standing.points),
                "won": standing.wins,
                "tables": standing.tables,
                "awards": standing.awards,
                "penalties": _d(standing.penalty_points),
                "by_game": standing.by_game,
            }
        )
    return ranked


def shown(night: Night, who: dict[str, str] | None = None) -> dict[str, Any]:
    """What a page shows of the scoreboard (clubs/_scoreboard.html): its rows, whether a bot
    played for anyone, the tie-breaks and the points table."""
    ranked = rows(night, who)
    return {
        "scoreboard": ranked,
        "scoreboard_bot_played": any(row["bot_played"] for row in ranked),
        "tie_breaks": tie_break_texts(),
        "points_table": points_table(),
        "points_normal": points.NORMAL,
    }


def tie_break_texts() -> list[str]:
    return [_(t) for t in points.TIE_BREAKS]


def points_table() -> list[tuple[str, str, float, float]]:
    """The documented points table as the pages print it: game, rule, raw and normalised points."""
    return [(game, _(rule), raw, normal) for game, rule, raw, normal in points.table_rows(points.POINTS_VERSION)]

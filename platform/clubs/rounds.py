"""A night's rounds: drawing the seating, editing the draft, confirming it into tables, starting
and ending the round (issue 12 §2–4). The one write path of Round and RoundTable.

Every action locks the night's row first (as check-in does), so two organizers pressing "start a
round" at once make one round: the second finds the first one's draft and draws it again, in
place, under the same number.

A round's seating is a pure function of the night's seed and the round's public inputs, all
stored on the row so the verify page (clubs.verify) recomputes it exactly:

- ``inputs``: the people checked in (``u<user id>``, ``w<check-in id>``), the games with their
  player limits, tonight's earlier tables and the club's last four nights' tables (the
  pair-meetings history, ``seating.meetings_from``), the seat positions already taken tonight,
  the pair rules between people present, and whether bots may fill seats;
- ``edits``: the organizer's swaps, locks and re-runs, in order. A re-run draws the unlocked rest
  again from the same round chance (``commitment.round_rng``), so it differs from the first draw
  only through what was locked or swapped.

Rulings: tonight's earlier tables count for meetings once their round started (an aborted table
still had its people sit together); seat positions count tonight's tables only. A draft whose
people no longer match who is checked in (someone came or left meanwhile) cannot be confirmed:
it must be drawn again, since the people are an input of the round's chance.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs import checkin, commitment, live, notifications, seating
from clubs.models import CheckIn, Night, PairRule, Round, RoundTable
from clubs.texts import Refused
from clubs.wording import names, say
from games import registry
from shabneshin.localize import digits
from tables.models import game_name

PAST_NIGHTS = 4
ACTIVE = (Round.Status.DRAFT, Round.Status.CONFIRMED, Round.Status.STARTED)


class RoundError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _locked(night: Night) -> Night:
    night = Night.objects.select_for_update().select_related("club").get(pk=night.pk)
    if night.cancelled:
        raise RoundError(_("This night was cancelled."))
    if night.ended_at is not None:
        raise RoundError(_("This night has ended."))
    return night


def current(night: Night) -> Round | None:
    return Round.objects.filter(night=night, status__in=ACTIVE).order_by("-number").first()


# --- the inputs -------------------------------------------------------------------------------------


def game_spec(
    game: str, options: dict | None = None, min_players: int | None = None, max_players: int | None = None
) -> dict:
    """One game of a round, its limits within the engine's. Raises RoundError."""
    try:
        engine = registry.get(game)
    except KeyError:
        raise RoundError(_("There is no such game.")) from None
    low = engine.min_players if min_players is None else min_players
    high = engine.max_players if max_players is None else max_players
    if not engine.min_players <= low <= high <= engine.max_players:
        raise RoundError(
            digits(
                _("%(game)s takes %(min)s to %(max)s players.")
                % {"game": game_name(game), "min": engine.min_players, "max": engine.max_players}
            )
        )
    try:
        resolved = engine.resolve_options(options or {})
    except ValueError:
        raise RoundError(_("These options are not valid for %(game)s.") % {"game": game_name(game)}) from None
    return {"game": game, "options": dict(resolved), "min_players": low, "max_players": high}


def night_games(night: Night) -> list[dict]:
    """ "Let the site choose": every game the night offers, with its options, any table size."""
    seen, specs = set(), []
    for offered in night.games:
        if offered.get("game") in seen:
            continue
        seen.add(offered.get("game"))
        specs.append(game_spec(offered["game"], offered.get("options") or {}))
    return specs


def _tables_of(rounds) -> list[list[str]]:  # noqa: ANN001
    return [list(t.people) for t in RoundTable.objects.filter(round__in=rounds).order_by("round__number", "index")]


def history(night: Night) -> tuple[list[list[str]], list[list[str]]]:
    tonight = Round.objects.filter(night=night, status__in=[Round.Status.STARTED, Round.Status.ENDED])
    past_nights = (
        Night.objects.filter(club_id=night.club_id, starts_at__lt=night.starts_at, cancelled=False)
        .order_by("-starts_at")
        .values_list("pk", flat=True)[:PAST_NIGHTS]
    )
    past = Round.objects.filter(night_id__in=list(past_nights), status__in=[Round.Status.STARTED, Round.Status.ENDED])
    return _tables_of(tonight), _tables_of(past)


def seat_counts(night: Night) -> dict[str, dict[str, int]]:
    counts: dict[str, dict[str, int]] = {}
    for people in history(night)[0]:
        for seat, person in enumerate(people):
            row = counts.setdefault(person, {})
            row[str(seat)] = row.get(str(seat), 0) + 1
    return counts


def pair_rules(night: Night, people: Sequence[str]) -> list[list[str]]:
    here = set(people)
    rules = []
    for rule in PairRule.objects.filter(club_id=night.club_id).order_by("pk"):
        a, b = f"u{rule.a_id}", f"u{rule.b_id}"
        if a in here and b in here:
            rules.append([a, b, rule.kind])
    return rules


def inputs_for(night: Night, games: list[dict], allow_bots: bool) -> dict[str, Any]:
    people = sorted(checkin.people(night))
    tonight, past = history(night)
    return {
        "people": people,
        "games": games,
        "tonight": tonight,
        "past": past,
        "seat_counts": seat_counts(night),
        "rules": pair_rules(night, people),
        "allow_bots": allow_bots,
    }


# --- the computation (also the verify page's) -------------------------------------------------------


def _choices(inputs: dict) -> list[seating.GameChoice]:
    return [seating.GameChoice(g["game"], g["min_players"], g["max_players"]) for g in inputs["games"]]


def _kwargs(inputs: dict) -> dict[str, Any]:
    return {
        "meetings": seating.meetings_from(inputs["tonight"], inputs["past"]),
        "seat_counts": {p: {int(k): v for k, v in row.items()} for p, row in inputs["seat_counts"].items()},
        "rules": [seating.PairRule(a, b, kind) for a, b, kind in inputs["rules"]],
        "allow_bots": bool(inputs["allow_bots"]),
    }


def draw(secret: str, number: int, inputs: dict, locked: Sequence[seating.TableDraft] = ()) -> seating.Seating:
    rng = commitment.round_rng(secret, number, inputs["people"])
    return seating.seat_round(inputs["people"], _choices(inputs), rng=rng, locked=locked, **_kwargs(inputs))


def apply_edit(secret: str, number: int, inputs: dict, current_: seating.Seating, edit: list) -> seating.Seating:
    """One organizer edit on a draft. Raises ``Refused`` (from clubs.seating) or RoundError."""
    kind = edit[0]
    if kind == "swap":
        return seating.swap(current_, edit[1], edit[2], _choices(inputs), inputs=current_.inputs)
    if kind == "lock":
        index = int(edit[1])
        if not 0 <= index < len(current_.tables):
            raise RoundError(_("There is no such table."))
        tables = list(current_.tables)
        tables[index] = dataclasses.replace(tables[index], locked=not tables[index].locked)
        return dataclasses.replace(current_, tables=tuple(tables))
    if kind == "rerun":
        return draw(secret, number, inputs, [t for t in current_.tables if t.locked])
    raise RoundError(_("Unknown change to the seating."))


def replay(secret: str, number: int, inputs: dict, edits: Sequence[list]) -> list[tuple[list | None, seating.Seating]]:
    """Every stage of a round's seating: the draw, then each edit and what it gave."""
    stage = draw(secret, number, inputs)
    stages: list[tuple[list | None, seating.Seating]] = [(None, stage)]
    for edit in edits:
        stage = apply_edit(secret, number, inputs, stage, edit)
        stages.append((edit, stage))
    return stages


def _stored(round_: Round) -> seating.Seating:
    return replay(round_.night.seed_secret, round_.number, round_.inputs, round_.edits)[-1][1]


def _save(round_: Round, result: seating.Seating) -> None:
    round_.seating = result.to_dict()
    round_.quality = result.quality
    round_.save()
    live.night_changed(round_.night)


# --- the organizer's actions ------------------------------------------------------------------------


@transaction.atomic
def start_round(night: Night, by, games: list[dict], allow_bots: bool = False) -> Round:  # noqa: ANN001
    """Draw a round's seating (a draft). An existing draft is drawn again in place."""
    night = _locked(night)
    if not games:
        raise RoundError(_("Choose at least one game."))
    active = current(night)
    if active is not None and active.status != Round.Status.DRAFT:
        raise RoundError(_("Round %(n)s is still being played: end it first.") % {"n": active.number})
    inputs = inputs_for(night, games, allow_bots)
    if not inputs["people"]:
        raise RoundError(_("Nobody is checked in yet."))
    if active is None:
        last = Round.objects.filter(night=night).order_by("-number").values_list("number", flat=True).first() or 0
        active = Round(night=night, number=last + 1, created_by=by)
    active.night = night
    active.games, active.allow_bots, active.inputs, active.edits = games, allow_bots, inputs, []
    _save(active, draw(night.seed_secret, active.number, inputs))
    return active


def _locked_draft(night: Night, round_id: int) -> tuple[Night, Round]:
    night = _locked(night)
    round_ = Round.objects.filter(night=night, pk=round_id).first()
    if round_ is None:
        raise RoundError(_("There is no such round."))
    if round_.status != Round.Status.DRAFT:
        raise RoundError(_("This round's seating is already confirmed; it can no longer change."))
    round_.night = night
    return night, round_


@transaction.atomic
def edit(night: Night, round_id: int, change: list) -> Round:
    """Swap two people (``["swap", a, b]``), lock or unlock a table (``["lock", i]``), or re-run
    the unlocked rest (``["rerun"]``). A refused change changes nothing."""
    night, round_ = _locked_draft(night, round_id)
    before = _stored(round_)
    try:
        after = apply_edit(night.seed_secret, round_.number, round_.inputs, before, change)
    except Refused as exc:
        raise RoundError(say(exc.text.to_dict(), names(night))) from None
    round_.edits = [*round_.edits, change]
    _save(round_, after)
    return round_


def _person_users(night: Night, people: Sequence[str]) -> dict[str, Any]:
    rows = CheckIn.objects.filter(night=night).select_related("user")
    by_person = {row.person: row.user for row in rows}
    return {p: by_person[p] for p in people if p in by_person}


@transaction.atomic
def confirm(night: Night, round_id: int, by, now: datetime | None = None) -> Round:  # noqa: ANN001
    """Make the draft's tables: ordinary private tables, the person at seat 0 their host, bots in
    the last seats, each linked to the round (RoundTable). Everyone seated is notified."""
    from tables import seating as table_seating
    from tables.models import Seat, Table

    night, round_ = _locked_draft(night, round_id)
    if sorted(checkin.people(night)) != round_.inputs["people"]:
        raise RoundError(_("Someone checked in or out since this seating was drawn: draw it again."))
    result = seating.Seating.from_dict(round_.seating)
    users = _person_users(night, round_.inputs["people"])
    url = f"/clubs/{night.club.slug}/nights/{night.pk}/"
    specs = {g["game"]: g for g in round_.games}
    for index, draft in enumerate(result.tables):
        spec = specs[draft.game]
        host = users[draft.people[0]]
        try:
            table = table_seating.create_table(
                host, draft.game, draft.size, Table.Visibility.PRIVATE, spec.get("options") or {}
            )
        except table_seating.SeatingError as exc:
            raise RoundError(exc.message) from None
        for seat, person in enumerate(draft.people[1:], start=1):
            Seat.objects.filter(table=table, number=seat).update(user=users[person])
        Seat.objects.filter(table=table, number__gte=len(draft.people)).update(is_bot=True)
        RoundTable.objects.create(
            round=round_, index=index, table=table, people=list(draft.people), locked=draft.locked
        )
        for person in draft.people:
            notifications.notify(users[person], "your_table", url, night=night.title, round=round_.number)
    round_.status = Round.Status.CONFIRMED
    _save(round_, result)
    return round_


def _locked_round(night: Night, round_id: int, status: str, refusal: str) -> tuple[Night, Round]:
    night = _locked(night)
    round_ = Round.objects.filter(night=night, pk=round_id).first()
    if round_ is None:
        raise RoundError(_("There is no such round."))
    if round_.status != status:
        raise RoundError(refusal)
    round_.night = night
    return night, round_


@transaction.atomic
def start_tables(night: Night, round_id: int, now: datetime | None = None) -> Round:
    """Start every table of a confirmed round at once. With fair roles, each table's deal secret
    is chosen openly by clubs.fair_roles from the night's seed and the earlier rounds' sides; the
    match still publishes sha256 of its secret, as every match does (history.deals).

    Rulings: a table its host already started from the table's own page is left as it is; a seat
    someone left on the table's page before the start is taken by a practice bot (the round's
    people stay as drawn, and the one who left scores nothing)."""
    from tables import moderator
    from tables.models import Seat, Table

    night, round_ = _locked_round(
        night, round_id, Round.Status.CONFIRMED, _("This round has already started, or its seating is not confirmed.")
    )
    for row in RoundTable.objects.filter(round=round_).select_related("table").order_by("index"):
        if row.table.status != Table.Status.OPEN:
            continue  # its host started it from the table's own page: it plays already
        # someone who left their seat on the table's page before the start is played by a bot
        Seat.objects.filter(table=row.table, user__isnull=True, is_bot=False).update(is_bot=True)
        secret = None
        if night.fair_roles:
            from clubs import sides

            secret, row.deal_attempt = sides.deal_secret_for(night, round_, row)
            row.save(update_fields=["deal_attempt"])
        moderator.start(row.table, secret=secret)
    round_.status = Round.Status.STARTED
    round_.started_at = now or timezone.now()
    round_.inputs = {**round_.inputs, "fair_roles": night.fair_roles}  # as dealt, for the verify page
    round_.save(update_fields=["status", "started_at", "inputs"])
    live.night_changed(night)
    return round_


@transaction.atomic
def end_round(night: Night, round_id: int, now: datetime | None = None) -> Round:
    """End a started round: tables still playing are aborted and count for nothing."""
    from clubs import scoreboard
    from tables import moderator

    night, round_ = _locked_round(night, round_id, Round.Status.STARTED, _("This round is not being played."))
    early = False
    for row in RoundTable.objects.filter(round=round_).select_related("table__match").order_by("index"):
        match = getattr(row.table, "match", None)
        if match is not None and match.status == match.Status.PLAYING:
            early = moderator.abort(match) or early
        scoreboard.score_table(row)
    round_.status = Round.Status.ENDED
    round_.ended_at = now or timezone.now()
    round_.ended_early = early
    round_.save(update_fields=["status", "ended_at", "ended_early"])
    live.night_changed(night)
    return round_


@transaction.atomic
def discard_draft(night: Night, round_id: int) -> None:
    night, round_ = _locked_draft(night, round_id)
    round_.delete()
    live.night_changed(night)

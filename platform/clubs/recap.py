"""The end of a night and its recap (issue 12 §7).

Ending the night (an organizer) ends a round still being played (its unfinished tables are
aborted and count for nothing), discards a draft, reveals the seed, and tells everyone checked in
(and every member going) by notification and email, in the club's language.

The recap shows each table's winners with the roles revealed (read from the finished match's
stored result, never from a running state: after the end no match of the night is running), the
final scoreboard, the best players and penalties, who played with whom, and the seed with its
verify link. "Repeat this night" makes the next occurrence with the same settings: in a series
that is the series' next night; otherwise a copy one week later.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs import autopiloted, live, notifications, rounds, scoreboard, tonight
from clubs.models import Award, CheckIn, Night, Offer, Penalty, Round, RoundTable, Rsvp


def _url(night: Night, tail: str = "") -> str:
    return f"/clubs/{night.club.slug}/nights/{night.pk}/{tail}"


@transaction.atomic
def end_night(night: Night, by) -> Night:  # noqa: ANN001
    night = rounds._locked(night)
    active = rounds.current(night)
    if active is not None and active.status == Round.Status.STARTED:
        rounds.end_round(night, active.pk)
    Round.objects.filter(night=night, status__in=[Round.Status.DRAFT, Round.Status.CONFIRMED]).filter(
        tables__isnull=True
    ).delete()
    for confirmed in Round.objects.filter(night=night, status=Round.Status.CONFIRMED):
        _abandon(confirmed)
    night.ended_at = timezone.now()
    if night.ended_at < night.ends_at:  # its calendar event gets shorter (clubs.calendar.until)
        night.sequence += 1
    night.save(update_fields=["ended_at", "sequence", "updated_at"])
    # A seat offered to the waitlist of a night ended before its start is no longer on offer.
    Offer.objects.filter(night=night, status=Offer.Status.PENDING).update(
        status=Offer.Status.DECLINED, answered_at=night.ended_at
    )
    for person in audience(night):
        notifications.notify(person, "recap", _url(night, "recap/"), night=night.title)
    _mail(night.pk)  # stored with the change, sent once it commits
    live.night_changed(night)
    return night


def _abandon(round_: Round) -> None:
    """A confirmed round never started: its open tables close, and it counts for nothing."""
    from tables.models import Table

    for row in RoundTable.objects.filter(round=round_).select_related("table"):
        Table.objects.filter(pk=row.table_id, status=Table.Status.OPEN).update(status=Table.Status.ABORTED)
    round_.status = Round.Status.ENDED
    round_.ended_early = True
    round_.ended_at = timezone.now()
    round_.save(update_fields=["status", "ended_early", "ended_at"])


def audience(night: Night) -> list:
    here = {c.user_id: c.user for c in CheckIn.objects.filter(night=night).select_related("user")}
    for answer in Rsvp.objects.filter(night=night, answer=Rsvp.Answer.GOING).select_related("user"):
        here.setdefault(answer.user_id, answer.user)
    return list(here.values())


def _mail(night_id: int) -> None:
    from clubs import mailer

    mailer.send_recap(Night.objects.select_related("club").get(pk=night_id))


# --- the recap ---------------------------------------------------------------------------------------


def tables(night: Night) -> list[dict[str, Any]]:
    from history import facts

    bot_played = autopiloted.seats_by_table(night)
    out = []
    for row in (
        RoundTable.objects.filter(round__night=night)
        .select_related("round", "table__match")
        .order_by("round__number", "index")
    ):
        match = getattr(row.table, "match", None)
        finished = match is not None and match.status == match.Status.FINISHED
        out.append(
            {
                "round": row.round.number,
                "row": row,
                "game": row.table.game,
                "finished": finished,
                "players": facts.players(match) if finished else [],
                "side_templates": [f"games/{row.table.game}/_side.html", "history/_side.html"],
                "match": match if finished else None,
                "bot_played": bot_played.get(row.table_id, set()) if finished else set(),
            }
        )
    return out


def matrix(night: Night, who: dict[str, str]) -> dict[str, Any]:
    """Who played with whom tonight: for each two people, how many tables they shared."""
    people = sorted({p for row in RoundTable.objects.filter(round__night=night) for p in row.people})
    index = {p: i for i, p in enumerate(people)}
    counts = [[0] * len(people) for _ in people]
    for row in RoundTable.objects.filter(round__night=night):
        for a in row.people:
            for b in row.people:
                if a != b:
                    counts[index[a]][index[b]] += 1
    names = [who.get(p, p) for p in people]
    return {"names": names, "rows": [(names[i], counts[i]) for i in range(len(people))]}


def context(night: Night) -> dict[str, Any]:
    who = tonight.names(night)
    return {
        "tables": tables(night),
        **scoreboard.shown(night, who),
        "awards": Award.objects.filter(round_table__round__night=night, undone_at__isnull=True)
        .select_related("user", "round_table__table", "round_table__round")
        .order_by("round_table__round__number", "round_table__index"),
        "penalties": Penalty.objects.filter(night=night, undone_at__isnull=True).select_related("user"),
        "matrix": matrix(night, who),
        "revealed_seed": night.revealed_seed(),
    }


@transaction.atomic
def repeat(night: Night, by) -> Night:  # noqa: ANN001
    from clubs import nights, recurrence

    night = Night.objects.select_for_update(of=("self",)).select_related("club", "series").get(pk=night.pk)
    if night.series_id is not None:
        recurrence.materialise(night.series)
        following = (
            Night.objects.filter(series=night.series, starts_at__gt=night.starts_at).order_by("starts_at").first()
        )
        if following is not None:
            if night.fair_roles and not following.fair_roles:
                following.fair_roles = True
                following.save(update_fields=["fair_roles", "updated_at"])
            return following
    week = timedelta(days=7)
    starts = night.starts_at + week
    while starts <= timezone.now():
        starts += week
    made = Night.objects.filter(club=night.club, starts_at=starts, title=night.title, cancelled=False).first()
    if made is not None:  # pressed twice (or by two organizers): the night it made the first time
        return made
    fields = {key: getattr(night, key) for key in nights.EDITABLE}
    fields["starts_at"], fields["rsvp_deadline"] = starts, starts - (night.starts_at - night.rsvp_deadline)
    return nights.create_night(night.club, by, fields)


def refuse_unless_ended(night: Night) -> None:
    if night.ended_at is None:
        raise ValueError(_("The recap is ready when the night ends."))

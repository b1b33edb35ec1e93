"""Fair roles, the night's side (issue 12 §6): the inputs ``clubs.fair_roles`` reads for a table
of a round, taken from the night's rows, and the history the recap shows so anyone can check.

A person's previous sides are those they were dealt at the night's earlier rounds' tables that
started (in round order, then table order), each read from the match's deal (the engine's first
state, set up again from the match's seed and options) with ``fair_roles.side_of``. An aborted
table still dealt its sides, so it counts. The deal secret then chosen is an ordinary verifiable
deal secret: the match publishes sha256 of it at the start and reveals it at the end, as every
match does (history.deals); the attempt number is stored on the RoundTable.
"""

from __future__ import annotations

from clubs import fair_roles
from clubs.models import Night, Round, RoundTable
from games import registry


def _dealt_state(match):  # noqa: ANN001, ANN202
    return registry.get(match.game).setup(match.n_players, dict(match.options), match.seed)


def previous_sides(night: Night, before_round: int) -> dict[str, list[str]]:
    history: dict[str, list[str]] = {}
    earlier = (
        RoundTable.objects.filter(
            round__night=night,
            round__number__lt=before_round,
            round__status__in=[Round.Status.STARTED, Round.Status.ENDED],
        )
        .select_related("table__match")
        .order_by("round__number", "index")
    )
    for row in earlier:
        match = getattr(row.table, "match", None)
        if match is None:
            continue
        state = _dealt_state(match)
        for seat, person in enumerate(row.people):
            history.setdefault(person, []).append(fair_roles.side_of(match.game, state, seat))
    return history


def deal_secret_for(night: Night, round_: Round, row: RoundTable) -> tuple[str, int]:
    from history.deals import seating_of

    table = row.table
    people = list(row.people) + [None] * (table.seat_count - len(row.people))
    return fair_roles.fair_deal_secret(
        table.game,
        table.seat_count,
        table.options,
        people,
        previous_sides(night, round_.number),
        night.seed_secret,
        round_.number,
        row.index,
        table.token,
        seating=seating_of(table.seats.all()),
    )

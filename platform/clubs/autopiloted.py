"""Which people a bot played for at a night's finished tables: a seat of a person whose match log
has a bot's move (the autopilot after missed decisions, or a seat the host handed to a bot).

The night's pages mark those seats and people; the points are counted as for any seat (the rule
is the points table's, clubs.points, unchanged here). Only finished matches are read: a running
match's moves would tell which seat acted when (a night's action is a role), while a finished one
has revealed everything; an aborted table counts for nothing and is not read either. What is read
is only whether a bot moved for a seat, never which moves.
"""

from __future__ import annotations

from collections import Counter

from clubs.models import Night
from tables.models import Match, Move, Seat


def _marked(night: Night) -> list[tuple[int, int, int]]:
    """(table id, seat number, user id) of each person's seat a bot played at a finished table."""
    moved = set(
        Move.objects.filter(
            source=Move.Source.BOT,
            match__status=Match.Status.FINISHED,
            match__table__night_table__round__night=night,
        )
        .values_list("match__table_id", "seat")
        .distinct()
    )
    if not moved:
        return []
    people = Seat.objects.filter(table_id__in={table for table, _seat in moved}, is_bot=False, user__isnull=False)
    return [row for row in people.values_list("table_id", "number", "user_id") if row[:2] in moved]


def seats_by_table(night: Night) -> dict[int, set[int]]:
    """Each finished table of ``night`` (by table id) with the numbers of its seats a bot played
    for a person; a table without one is left out."""
    found: dict[int, set[int]] = {}
    for table, number, _user in _marked(night):
        found.setdefault(table, set()).add(number)
    return found


def tables_by_person(night: Night) -> Counter[int]:
    """How many of ``night``'s finished tables a bot played at for each person (by user id)."""
    return Counter(user for _table, _number, user in _marked(night))

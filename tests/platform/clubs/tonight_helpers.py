"""A night tonight with people checked in, shared by the night's tests."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from clubs import checkin, nights, rounds, rsvp
from tests.platform.clubs.conftest import add_members, night_fields

DRACULA_AND_MONSTER = [
    {"game": "dracula", "options": {}, "min_players": 2, "max_players": 2},
    {"game": "monster", "options": {}, "min_players": 3, "max_players": 3},
]


def night_tonight(club, organizer, **extra):
    starts = timezone.now().replace(microsecond=0) + timedelta(minutes=30)
    fields = night_fields(starts_at=starts, rsvp_deadline=starts - timedelta(hours=2), **extra)
    return nights.create_night(club, organizer, fields)


def checked_in(club, organizer, count: int = 5, prefix: str = "p"):
    night = night_tonight(club, organizer)
    people = add_members(club, count, prefix)
    for person in people:
        rsvp.answer(night, person, "going", organizer=True)
        checkin.check_in_self(night, person)
    return night, people


def drawn(club, organizer, count: int = 5, games=None):
    night, people = checked_in(club, organizer, count)
    round_ = rounds.start_round(night, organizer, games or DRACULA_AND_MONSTER)
    return night, people, round_


def played(club, organizer, count: int = 5, games=None):
    """A night whose first round was drawn, confirmed, started and played to its end by the clock."""
    from clubs import playing
    from tables.models import Match
    from tests.platform.helpers import play_until_over

    night, people, round_ = drawn(club, organizer, count, games)
    rounds.confirm(night, round_.pk, organizer)
    rounds.start_tables(night, round_.pk)
    for match in Match.objects.filter(table__night_table__round=round_):
        play_until_over(match)
    playing.run_due()
    round_.refresh_from_db()
    return night, people, round_

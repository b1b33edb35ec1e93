"""The night under concurrent presses, on whichever database the run uses (the PostgreSQL pass
runs them against PostgreSQL's row locks): two organizers starting a round make one round, a
check-in racing a draw lands wholly before or after it, two "start all tables" start each once."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs import checkin, rounds
from clubs.models import CheckIn, Round
from tables.models import Match
from tests.platform.clubs.concurrency_helpers import race
from tests.platform.clubs.conftest import add_members
from tests.platform.clubs.tonight_helpers import DRACULA_AND_MONSTER, checked_in, drawn

pytestmark = pytest.mark.django_db(transaction=True)


def _client(user):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def test_two_organizers_pressing_start_round_at_once_make_one_round(services_in_use, club, alice, bob):
    night, people = checked_in(club, bob)
    url = f"/clubs/wolves/nights/{night.pk}/rounds/"
    data = {"mode": "pick", "g": ["dracula", "monster"], "max-monster": "3", "min-monster": "3"}
    clients = [_client(u) for u in (alice, bob, alice, bob)]
    statuses = race([lambda c=c: c.post(url, data).status_code for c in clients])
    assert statuses == [302] * 4
    assert list(Round.objects.filter(night=night).values_list("number", "status")) == [(1, "draft")]


def test_a_check_in_racing_a_draw_is_either_in_it_or_makes_it_stale(services_in_use, club, bob):
    night, people = checked_in(club, bob)
    (late,) = add_members(club, 1, "late")
    race(
        [
            lambda: rounds.start_round(night, bob, DRACULA_AND_MONSTER),
            lambda: checkin.check_in_member(night, late, bob),
        ]
    )
    round_ = Round.objects.get(night=night)
    present = sorted(c.person for c in CheckIn.objects.filter(night=night, present=True))
    if round_.inputs["people"] == present:
        rounds.confirm(night, round_.pk, bob)  # the check-in came first: the draw has everyone
    else:
        assert f"u{late.pk}" not in round_.inputs["people"]
        with pytest.raises(rounds.RoundError, match="draw it again"):
            rounds.confirm(night, round_.pk, bob)


def test_two_presses_of_start_all_tables_start_each_table_once(services_in_use, club, alice, bob):
    night, people, round_ = drawn(club, bob)
    rounds.confirm(night, round_.pk, bob)
    url = f"/clubs/wolves/nights/{night.pk}/rounds/{round_.pk}/"
    clients = [_client(u) for u in (alice, bob)]
    statuses = race([lambda c=c: c.post(url, {"action": "start"}).status_code for c in clients])
    assert statuses == [302, 302]
    assert Match.objects.filter(table__night_table__round=round_).count() == 2
    assert Round.objects.get(pk=round_.pk).status == Round.Status.STARTED

"""A night's rounds (issue 12 §2–3): the organizer draws a seating from the night's seed, edits
it (swap, lock, re-run), confirms it into ordinary private tables linked to the round, starts
them all at once and may end the round early. Stale and illegal edits are refused."""

from __future__ import annotations

import pytest

from clubs import checkin, commitment, rounds, seating
from clubs.models import Notification, Round, RoundTable
from tables.models import Table
from tests.platform.clubs.conftest import add_members
from tests.platform.clubs.tonight_helpers import DRACULA_AND_MONSTER, checked_in, drawn


def _tables(round_):
    return [(t["game"], len(t["people"]), t["bots"]) for t in round_.seating["tables"]]


def test_five_people_are_seated_at_dracula_for_two_and_monster_for_three(club, bob):
    night, people, round_ = drawn(club, bob)
    assert round_.number == 1 and round_.status == Round.Status.DRAFT
    assert sorted(_tables(round_)) == [("dracula", 2, 0), ("monster", 3, 0)]
    seated = sorted(p for t in round_.seating["tables"] for p in t["people"])
    assert seated == sorted(f"u{p.pk}" for p in people)
    assert 0 <= round_.quality <= 100


def test_the_seating_is_drawn_from_the_committed_seed_and_the_public_inputs(club, bob):
    night, people, round_ = drawn(club, bob)
    again = rounds.draw(night.seed_secret, 1, round_.inputs).to_dict()
    assert again["tables"] == round_.seating["tables"]
    direct = seating.seat_round(
        round_.inputs["people"],
        [seating.GameChoice("dracula", 2, 2), seating.GameChoice("monster", 3, 3)],
        rng=commitment.round_rng(night.seed_secret, 1, round_.inputs["people"]),
    )
    assert [list(t.people) for t in direct.tables] == [t["people"] for t in round_.seating["tables"]]


def test_pressing_start_round_twice_draws_the_one_draft_again(club, bob, alice):
    night, people, first = drawn(club, bob)
    second = rounds.start_round(night, alice, DRACULA_AND_MONSTER)
    assert second.pk == first.pk and Round.objects.filter(night=night).count() == 1


def test_an_illegal_swap_is_refused_and_changes_nothing(club, bob):
    night, people, round_ = drawn(club, bob)
    before = dict(round_.seating)
    with pytest.raises(rounds.RoundError):
        rounds.edit(night, round_.pk, ["swap", "u999999", f"u{people[0].pk}"])
    round_.refresh_from_db()
    assert round_.seating == before and round_.edits == []


def test_swap_lock_and_re_run_are_kept_in_order_and_replay_exactly(club, bob):
    night, people, round_ = drawn(club, bob)
    dracula = next(t for t in round_.seating["tables"] if t["game"] == "dracula")
    monster = next(t for t in round_.seating["tables"] if t["game"] == "monster")
    rounds.edit(night, round_.pk, ["swap", dracula["people"][0], monster["people"][0]])
    round_.refresh_from_db()
    swapped = next(t for t in round_.seating["tables"] if t["game"] == "dracula")
    assert monster["people"][0] in swapped["people"]
    index = round_.seating["tables"].index(swapped)
    rounds.edit(night, round_.pk, ["lock", index])
    rounds.edit(night, round_.pk, ["rerun"])
    round_.refresh_from_db()
    assert round_.seating["tables"][0]["people"] == swapped["people"] and round_.seating["tables"][0]["locked"]
    assert [e[0] for e in round_.edits] == ["swap", "lock", "rerun"]
    stages = rounds.replay(night.seed_secret, 1, round_.inputs, round_.edits)
    assert stages[-1][1].to_dict()["tables"] == round_.seating["tables"]


def test_confirm_makes_private_tables_linked_to_the_round_and_tells_each_player(club, bob):
    night, people, round_ = drawn(club, bob)
    rounds.confirm(night, round_.pk, bob)
    round_.refresh_from_db()
    assert round_.status == Round.Status.CONFIRMED
    rows = list(RoundTable.objects.filter(round=round_).select_related("table"))
    assert len(rows) == 2
    for row in rows:
        table = row.table
        assert table.visibility == Table.Visibility.PRIVATE and table.night_table == row
        seats = [f"u{s.user_id}" for s in table.seats.order_by("number")]
        assert seats == row.people
    assert Notification.objects.filter(kind="your_table").count() == 5


def test_a_draft_stale_by_a_check_in_is_not_confirmed(club, bob):
    night, people, round_ = drawn(club, bob)
    (late,) = add_members(club, 1, "late")
    checkin.check_in_member(night, late, bob)
    with pytest.raises(rounds.RoundError, match="draw it again"):
        rounds.confirm(night, round_.pk, bob)
    assert not RoundTable.objects.exists()


def test_a_confirmed_round_can_no_longer_be_seated_nor_checked_into(club, bob):
    night, people, round_ = drawn(club, bob)
    rounds.confirm(night, round_.pk, bob)
    with pytest.raises(rounds.RoundError, match="already confirmed"):
        rounds.edit(night, round_.pk, ["rerun"])
    with pytest.raises(rounds.RoundError, match="still being played"):
        rounds.start_round(night, bob, DRACULA_AND_MONSTER)
    (late,) = add_members(club, 1, "late")
    with pytest.raises(checkin.CheckInError):
        checkin.check_in_member(night, late, bob)


def test_start_all_tables_then_end_the_round_early_aborts_them_and_counts_nothing(club, bob):
    from clubs.models import PointsEntry

    night, people, round_ = drawn(club, bob)
    rounds.confirm(night, round_.pk, bob)
    rounds.start_tables(night, round_.pk)
    with pytest.raises(rounds.RoundError, match="already started"):
        rounds.start_tables(night, round_.pk)
    statuses = set(RoundTable.objects.filter(round=round_).values_list("table__status", flat=True))
    assert statuses == {"playing"}
    rounds.end_round(night, round_.pk)
    round_.refresh_from_db()
    assert round_.status == Round.Status.ENDED and round_.ended_early
    assert set(RoundTable.objects.filter(round=round_).values_list("table__status", flat=True)) == {"aborted"}
    assert not PointsEntry.objects.exists()
    second = rounds.start_round(night, bob, DRACULA_AND_MONSTER)
    assert second.number == 2
    assert second.inputs["tonight"], "round 1's tables are round 2's meetings"


def test_nobody_checked_in_and_no_game_are_refused(club, bob):
    from tests.platform.clubs.tonight_helpers import night_tonight

    night = night_tonight(club, bob)
    with pytest.raises(rounds.RoundError, match="Nobody is checked in"):
        rounds.start_round(night, bob, DRACULA_AND_MONSTER)
    night, _people = checked_in(club, bob, 3, "q")
    with pytest.raises(rounds.RoundError, match="at least one game"):
        rounds.start_round(night, bob, [])
    with pytest.raises(rounds.RoundError):
        rounds.game_spec("chess")
    with pytest.raises(rounds.RoundError):
        rounds.game_spec("dracula", {}, 2, 3)

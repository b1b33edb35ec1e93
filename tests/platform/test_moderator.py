"""The one write path: version checks, the append-only move log, the clock, bots, aborts."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.base import IllegalAction
from tables import moderator
from tables.models import Match, Move, Table
from tests.platform.helpers import fresh, play_until_over, started_werewolf


def _human_turn(match: Match) -> int:
    return match.engine.awaiting(match.state)


def test_a_move_bumps_the_version_and_appends_to_the_log(alice, bob):
    match = started_werewolf(alice, [bob])
    assert _human_turn(match) == {0}  # round 1 starts at seat 0 (alice, SEER)
    moderator.submit(match.pk, 0, {"type": "pick", "target": 2}, version=0)
    match = fresh(match)
    assert match.version == 1
    assert list(match.moves.values_list("seq", "seat", "action", "source")) == [
        (1, 0, {"type": "pick", "target": 2}, "player")
    ]


def test_a_stale_version_is_refused_and_changes_nothing(alice, bob):
    match = started_werewolf(alice, [bob])
    moderator.submit(match.pk, 0, {"type": "pick", "target": 2}, version=0)
    before = fresh(match).state
    with pytest.raises(IllegalAction) as refused:
        moderator.submit(match.pk, 0, {"type": "pick", "target": 3}, version=0)
    assert refused.value.code == "stale_version"
    assert fresh(match).state == before and Move.objects.count() == 1


def test_a_move_out_of_turn_is_refused(alice, bob):
    match = started_werewolf(alice, [bob])
    with pytest.raises(IllegalAction) as refused:
        moderator.submit(match.pk, 1, {"type": "pick", "target": 2}, version=0)
    assert refused.value.code == "not_awaited"
    assert fresh(match).version == 0


def test_the_moderator_refuses_a_timeout_from_a_browser(alice, bob):
    match = started_werewolf(alice, [bob])
    with pytest.raises(IllegalAction) as refused:
        moderator.submit(match.pk, 0, {"type": "timeout"}, version=0)
    assert refused.value.code == "forbidden"
    assert fresh(match).version == 0


def test_nothing_is_applied_before_its_deadline(alice, bob):
    match = started_werewolf(alice, [bob])
    assert moderator.run_due(timezone.now()) == 0
    assert fresh(match).version == 0


def test_the_clock_times_out_a_silent_player_after_the_night_turn(alice, bob):
    match = started_werewolf(alice, [bob])
    limit = match.table.timers()["night_turn_max_s"]
    later = match.window_started_at + timedelta(seconds=limit + 0.01)
    assert moderator.run_due(later) >= 1
    first = fresh(match).moves.order_by("seq").first()
    assert (first.seat, first.action, first.source) == (0, {"type": "timeout"}, "clock")


def test_the_night_close_waits_for_the_minimum_turn_length(alice, bob):
    """werewolf.md §12: after a quick pick the turn still lasts night_turn_min_s."""
    match = started_werewolf(alice, [bob])
    moderator.submit(match.pk, 0, {"type": "pick", "target": 2}, version=0)
    match = fresh(match)
    minimum = match.table.timers()["night_turn_min_s"]
    assert moderator.run_due(match.window_started_at + timedelta(seconds=minimum - 0.5)) == 0
    assert moderator.run_due(match.window_started_at + timedelta(seconds=minimum + 0.01)) >= 1
    assert fresh(match).moves.order_by("seq")[1].action == {"type": "timeout"}


def test_bots_play_a_whole_game_to_its_end_and_the_result_is_stored(alice):
    match = started_werewolf(alice)
    match = play_until_over(match)
    assert match.status == Match.Status.FINISHED
    assert match.result and "winners" in match.result and match.finished_at
    assert match.table.status == Table.Status.FINISHED
    assert match.next_deadline is None
    seqs = list(match.moves.values_list("seq", flat=True))
    assert seqs == list(range(1, match.version + 1)), "the move log is complete and in order"
    sources = set(match.moves.values_list("source", flat=True))
    assert "bot" in sources


def test_the_move_log_replays_the_match_exactly(alice):
    match = play_until_over(started_werewolf(alice))
    engine = match.engine
    state = engine.setup(match.n_players, match.options, match.seed)
    for move in match.moves.order_by("seq"):
        state = engine.apply(state, move.seat, move.action)
    assert state == match.state


def test_a_due_move_is_applied_once_even_when_two_clocks_look(alice):
    match = started_werewolf(alice)
    later = match.window_started_at + timedelta(seconds=match.table.timers()["night_turn_max_s"] + 0.01)
    first = moderator.run_due(later)
    second = moderator.run_due(later)
    match = fresh(match)
    assert first >= 1
    assert match.version == first + second
    assert match.moves.count() == match.version


def test_staff_abort_ends_a_running_match(alice, bob):
    match = started_werewolf(alice, [bob])
    assert moderator.abort(match)
    match = fresh(match)
    assert match.status == Match.Status.ABORTED and match.next_deadline is None
    assert match.table.status == Table.Status.ABORTED
    with pytest.raises(IllegalAction) as refused:
        moderator.submit(match.pk, 0, {"type": "pick", "target": 2}, version=match.version)
    assert refused.value.code == "game_over"
    assert not moderator.abort(match)


@pytest.mark.django_db(transaction=True)
def test_two_clock_processes_racing_never_apply_a_move_twice(alice):
    """Two threads (two connections, as two server processes would have) run the clock at once."""
    import threading

    from django.db import connection

    match = started_werewolf(alice)
    later = match.window_started_at + timedelta(seconds=match.table.timers()["night_turn_max_s"] + 0.01)
    counts: list[int] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(2)

    def clock() -> None:
        try:
            barrier.wait()
            counts.append(moderator.run_due(later))
        except BaseException as exc:  # surfaced below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=clock) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    match = fresh(match)
    assert sum(counts) == match.version == match.moves.count() >= 1
    assert list(match.moves.values_list("seq", flat=True)) == list(range(1, match.version + 1))


def test_a_player_who_keeps_missing_deadlines_is_played_by_a_bot_until_they_come_back(alice):
    from tables.models import Seat
    from tests.platform.helpers import play_until

    # alice (seat 0) is the wolf: she cannot die at night, and she is first to vote on day 1, so
    # the night pick, the readiness and the vote are three missed choices in a row.
    match = started_werewolf(alice, roles=["WOLF", "SEER", "DOCTOR", "VILLAGER", "VILLAGER"])

    def seat() -> Seat:
        return Seat.objects.get(table_id=match.table_id, number=0)

    match = play_until(match, lambda m: seat().autopilot)
    assert seat().missed_deadlines == moderator.AUTOPILOT_AFTER_MISSES
    match = play_until(
        match,
        lambda m: m.status != Match.Status.PLAYING or Move.objects.filter(match=m, seat=0, source="bot").exists(),
    )
    assert Move.objects.filter(match=match, seat=0, source="bot").exists(), "the bot plays for her"
    if match.status == Match.Status.PLAYING:
        assert moderator.take_back_seat(match, 0)
        assert not seat().autopilot and seat().missed_deadlines == 0


def test_the_night_close_is_not_a_missed_deadline(alice, bob):
    """werewolf.md §12: the clock always ends a night turn; that is no absence."""
    match = started_werewolf(alice, [bob])
    moderator.submit(match.pk, 0, {"type": "pick", "target": 2}, version=0)
    match = fresh(match)
    moderator.run_due(match.window_started_at + timedelta(seconds=match.table.timers()["night_turn_min_s"] + 0.01))
    assert match.table.seats.get(number=0).missed_deadlines == 0


def _minimum_passed(match: Match) -> None:
    """The night turn began longer ago than its minimum: a pick now closes it at once."""
    minimum = match.table.timers()["night_turn_min_s"]
    Match.objects.filter(pk=match.pk).update(window_started_at=timezone.now() - timedelta(seconds=minimum + 1))


def test_a_night_pick_after_the_minimum_closes_the_turn_in_the_same_write(alice, bob, monkeypatch):
    """werewolf.md §3.1: a pick after the turn's minimum closes the turn now. The close rides
    with the pick: a clock move of its own in the log, one broadcast of the last version."""
    match = started_werewolf(alice, [bob])
    _minimum_passed(match)
    heard = []
    monkeypatch.setattr(moderator.broadcast, "table_changed", lambda token, version, event=None: heard.append(version))
    moderator.submit(match.pk, 0, {"type": "pick", "target": 2}, version=0)
    match = fresh(match)
    assert list(match.moves.order_by("seq").values_list("seq", "seat", "action", "source")) == [
        (1, 0, {"type": "pick", "target": 2}, "player"),
        (2, 0, {"type": "timeout"}, "clock"),
    ]
    assert match.version == 2 and heard == [2]
    assert 0 not in match.engine.awaiting(match.state), "the turn passed on"
    assert match.table.seats.get(number=0).missed_deadlines == 0, "the close is no absence"
    assert match.next_deadline > timezone.now(), "nothing else is due"


def test_a_quick_night_pick_leaves_the_close_to_the_clock(alice, bob, monkeypatch):
    """werewolf.md §12: a pick before the minimum waits for it; nothing rides with the pick."""
    match = started_werewolf(alice, [bob])
    heard = []
    monkeypatch.setattr(moderator.broadcast, "table_changed", lambda token, version, event=None: heard.append(version))
    moderator.submit(match.pk, 0, {"type": "pick", "target": 2}, version=0)
    assert fresh(match).version == 1 and heard == [1]


def test_a_timeout_that_rides_with_a_move_is_counted_by_the_clock_counters(alice, bob, monkeypatch):
    """The bench's clock figure still counts the close, as not late."""
    match = started_werewolf(alice, [bob])
    _minimum_passed(match)
    late = []
    monkeypatch.setattr(moderator.counters, "clock_late", late.append)
    moderator.submit(match.pk, 0, {"type": "pick", "target": 2}, version=0)
    assert late == [0.0]


def test_a_refused_timeout_after_a_move_leaves_the_move_standing(alice, bob, monkeypatch, caplog):
    """Should the engine refuse the close (a bug), the player's move still stands and the clock
    is left to retry: nothing of the close is written."""
    match = started_werewolf(alice, [bob])
    _minimum_passed(match)
    real = type(match.engine).apply

    def refuse_timeouts(self, state, seat, action):
        if action == {"type": "timeout"}:
            raise IllegalAction("no", "not_awaited")
        return real(self, state, seat, action)

    monkeypatch.setattr(type(match.engine), "apply", refuse_timeouts)
    moderator.submit(match.pk, 0, {"type": "pick", "target": 2}, version=0)
    match = fresh(match)
    assert match.version == 1 and list(match.moves.values_list("source", flat=True)) == ["player"]
    assert "refused seat 0's timeout" in caplog.text

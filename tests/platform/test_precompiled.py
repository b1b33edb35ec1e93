"""The moderator's precompiled queries (shabneshin.precompiled, issue 9) read and write exactly what
the ORM queries they replace would: the same instances and related objects, the same lock on
PostgreSQL, every changed field of a match, the same Move row, the same signals."""

from __future__ import annotations

import threading
from datetime import timedelta
from unittest import mock

import pytest
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections, transaction
from django.db.models import Model
from django.db.models.signals import post_save, pre_save
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from shabneshin.precompiled import Update, run_together
from tables import moderator, queries, seating
from tables.models import Match, Move, Seat, Table
from tests.platform.helpers import fresh, play_until_over, started_werewolf

pytestmark = pytest.mark.django_db

on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SELECT ... FOR UPDATE is a no-op on SQLite"
)


def _row(obj: Model | None) -> dict | None:
    """Every column of an instance, and how Django records where it came from."""
    if obj is None:
        return None
    fields = {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}
    return {**fields, "_db": obj._state.db, "_adding": obj._state.adding}


def test_the_locked_match_is_the_match_and_table_the_orm_reads(alice, bob, django_assert_num_queries):
    match = started_werewolf(alice, [bob])
    with transaction.atomic():
        orm = Match.objects.select_for_update().select_related("table").get(pk=match.pk)
        with django_assert_num_queries(1):
            precompiled = moderator._MATCH_LOCKED.get(pk=match.pk)
            assert _row(precompiled.table) == _row(orm.table), "the table comes with it, as select_related"
            assert precompiled.table.match is precompiled, "and its reverse side is known"
    assert _row(precompiled) == _row(orm)
    assert isinstance(precompiled.state, dict) and precompiled.state == orm.state


def test_a_match_that_does_not_exist_is_the_models_does_not_exist():
    with transaction.atomic(), pytest.raises(Match.DoesNotExist):
        moderator._MATCH_LOCKED.get(pk=987654)


def test_the_seats_are_the_orm_seats_with_their_users_in_order(alice, bob, django_assert_num_queries):
    match = started_werewolf(alice, [bob])
    orm = list(Seat.objects.filter(table_id=match.table_id).select_related("user").order_by("number"))
    with django_assert_num_queries(1):
        seats = moderator._seats(match)
        users = [seat.user for seat in seats]  # loaded with the seats: no query
    assert [_row(s) for s in seats] == [_row(s) for s in orm]
    assert [_row(u) for u in users] == [_row(s.user) for s in orm]
    assert [s.number for s in seats] == sorted(s.number for s in seats)
    assert users[0].pk == alice.pk and users[1].pk == bob.pk and users[-1] is None, "a bot's seat has no user"


def test_the_renderers_table_comes_with_its_match_and_next_table_as_the_orm_reads_them(
    alice, bob, django_assert_num_queries
):
    match = started_werewolf(alice, [bob])
    orm = Table.objects.select_related("match", "next_table").get(pk=match.table_id)
    with django_assert_num_queries(1):
        table = queries.TABLE_WITH_MATCH.get(pk=match.table_id)
        assert _row(table.match) == _row(orm.match) and table.next_table is None
    assert _row(table) == _row(orm)
    finished = play_until_over(match)
    later = seating.play_again(finished.table, alice)
    with django_assert_num_queries(1):
        table = queries.TABLE_WITH_MATCH.get(pk=match.table_id)
        assert _row(table.next_table) == _row(later)
    with django_assert_num_queries(1):
        table = queries.TABLE_WITH_MATCH.get(pk=later.pk)
        with pytest.raises(Match.DoesNotExist):
            table.match  # noqa: B018 - not started: no match, as the ORM says


def test_a_table_is_loaded_with_its_match_and_seats_in_one_round_trip_on_postgresql(alice, bob):
    """A process that did not make a move loads the table on Channels' one worker thread: the
    table with its match and the seats with their users travel together (the chat and the table's
    own log are read again only when they changed, as here they have not)."""
    from tables import renderer

    match = started_werewolf(alice, [bob])
    renderer.load(match.table_id)  # the chat and the log, read once
    with CaptureQueriesContext(connection) as captured:
        snapshot = renderer.load(match.table_id)
    assert _trips_and_statements(captured.captured_queries) == ((1, 2) if connection.vendor == "postgresql" else (2, 2))
    assert snapshot is not None and _row(snapshot.match) == _row(Match.objects.get(pk=match.pk))
    assert [_row(s) for s in snapshot.seats] == [_row(s) for s in moderator._seats(match)]
    assert [s.user and s.user.display_name for s in snapshot.seats] == [
        s.user and s.user.display_name for s in moderator._seats(match)
    ]
    assert renderer.load(match.table_id + 1000) is None, "no such table"


def test_the_clock_reads_a_match_only_while_it_is_playing_and_due(alice):
    match = started_werewolf(alice)
    due = moderator._DUE_MATCH_LOCKED[connection.features.has_select_for_update_skip_locked]
    with transaction.atomic():
        found = due.fetch(pk=match.pk, now=match.next_deadline)
        assert [_row(m) for m in found] == [_row(Match.objects.select_related("table").get(pk=match.pk))]
        assert found[0].table.pk == match.table_id
        assert due.fetch(pk=match.pk, now=match.next_deadline - timedelta(microseconds=1)) == [], "not due yet"
        Match.objects.filter(pk=match.pk).update(status=Match.Status.ABORTED)
        assert due.fetch(pk=match.pk, now=match.next_deadline) == [], "no longer playing"


def test_each_query_is_compiled_once_per_connection(alice):
    match = started_werewolf(alice)
    moderator._seats(match)
    with mock.patch("django.db.models.sql.query.Query.get_compiler", side_effect=AssertionError("compiled again")):
        assert len(moderator._seats(match)) == 5


def test_the_lock_query_says_for_update_where_the_backend_locks(alice):
    wrapper = connections[DEFAULT_DB_ALIAS]  # the connection object itself, not its proxy
    compiled = moderator._MATCH_LOCKED.compiled(wrapper)
    skipping = moderator._DUE_MATCH_LOCKED[True].compiled(wrapper)
    if connection.features.has_select_for_update:
        assert compiled.locks and compiled.statement.sql.endswith(connection.ops.for_update_sql())
        assert skipping.statement.sql.endswith(connection.ops.for_update_sql(skip_locked=True))
    else:
        assert not compiled.locks and "FOR UPDATE" not in compiled.statement.sql


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_the_locked_match_stays_locked_until_the_commit(alice):
    match = started_werewolf(alice)
    seen: list[str] = []

    def another_process() -> None:  # its own connection, from the pool
        try:
            with transaction.atomic():
                Match.objects.select_for_update(nowait=True).get(pk=match.pk)
            seen.append("got the lock")
        except DatabaseError as error:  # NOWAIT: "could not obtain lock on row"
            seen.append("locked" if "lock" in str(error) else str(error))
        finally:
            connection.close()

    with transaction.atomic():
        moderator._MATCH_LOCKED.get(pk=match.pk)
        thread = threading.Thread(target=another_process)
        thread.start()
        thread.join()
    thread = threading.Thread(target=another_process)
    thread.start()
    thread.join()
    assert seen == ["locked", "got the lock"]


@pytest.mark.django_db(transaction=True)
def test_the_lock_query_outside_a_transaction_fails_as_the_orms_does(alice):
    match = started_werewolf(alice)
    if connection.features.has_select_for_update:
        with pytest.raises(TransactionManagementError):
            moderator._MATCH_LOCKED.get(pk=match.pk)
    else:  # the ORM's select_for_update is a no-op here, and so is ours
        assert moderator._MATCH_LOCKED.get(pk=match.pk).pk == match.pk


def test_a_finished_games_status_result_and_finish_are_written(alice):
    match = play_until_over(started_werewolf(alice))
    stored = Match.objects.get(pk=match.pk)
    assert stored.status == Match.Status.FINISHED
    assert stored.result and stored.result["winners"] is not None
    assert stored.finished_at is not None and stored.next_deadline is None
    assert stored.version == Move.objects.filter(match=match).count()


def test_the_moves_update_writes_every_field_a_move_changes_and_no_other(alice):
    match = fresh(started_werewolf(alice))
    changed = {
        "state": {**match.state, "note": "changed"},
        "version": match.version + 1,
        "decision_versions": {"0": match.version + 1},
        "last_move_at": timezone.now(),
        "window_started_at": timezone.now() - timedelta(seconds=3),
        "window_version": match.version + 1,
        "status": Match.Status.FINISHED,
        "result": {"winners": [0, 1]},
        "finished_at": timezone.now(),
        "next_deadline": None,
    }
    assert set(changed) == moderator._SAVE_MOVED_MATCH.update_fields
    for name, value in changed.items():
        setattr(match, name, value)
    match.unlisted = True  # not a move's: left alone, as save(update_fields=...) leaves it
    moderator._SAVE_MOVED_MATCH.save(match)
    stored = Match.objects.get(pk=match.pk)
    assert {name: getattr(stored, name) for name in changed} == changed
    assert stored.unlisted is False


def test_an_update_sends_the_save_signals_and_fails_when_no_row_matched(alice):
    match = started_werewolf(alice)
    heard = []

    def listen(signal_name):
        return lambda sender, instance, update_fields, **kw: heard.append((signal_name, instance, update_fields))

    on_pre, on_post = listen("pre_save"), listen("post_save")
    pre_save.connect(on_pre, sender=Match)
    post_save.connect(on_post, sender=Match)
    try:
        moderator._SAVE_MOVED_MATCH.save(match)
    finally:
        pre_save.disconnect(on_pre, sender=Match)
        post_save.disconnect(on_post, sender=Match)
    fields = moderator._SAVE_MOVED_MATCH.update_fields
    assert heard == [("pre_save", match, fields), ("post_save", match, fields)]
    gone = Match.objects.get(pk=match.pk)
    gone.pk = 987654
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        Update(Match, ["version"]).save(gone)


def test_the_move_insert_makes_the_row_move_objects_create_makes(alice):
    match = started_werewolf(alice)
    heard = []

    def on_post(sender, instance, created, **kwargs):
        heard.append((instance, created))

    post_save.connect(on_post, sender=Move)
    before = timezone.now()
    try:
        action = {"type": "vote", "target": 2}
        orm = Move.objects.create(match=match, seq=1, seat=0, action=action, source=Move.Source.PLAYER)
        ours = moderator._INSERT_MOVE.create(match=match, seq=2, seat=0, action=action, source=Move.Source.PLAYER)
    finally:
        post_save.disconnect(on_post, sender=Move)
    after = timezone.now()
    assert heard == [(orm, True), (ours, True)]
    assert ours.pk > orm.pk and not ours._state.adding and ours._state.db == orm._state.db
    stored = {move.seq: _row(move) for move in Move.objects.filter(match=match)}
    assert stored[2] == _row(ours), "the instance is the row it inserted, its pk included"
    assert before <= ours.created_at <= after, "auto_now_add"
    assert ours.state_hash and ours.state_hash == orm.state_hash, "history.deals stamped it in pre_save"
    differ = {"id", "seq", "created_at"}
    assert {k: v for k, v in stored[2].items() if k not in differ} == {
        k: v for k, v in stored[1].items() if k not in differ
    }


def test_the_attendance_update_writes_the_two_counters_and_no_other_seat_field(alice, bob):
    match = started_werewolf(alice, [bob])
    row = Seat.objects.get(table_id=match.table_id, number=1)
    row.missed_deadlines, row.autopilot = 3, True
    row.seen_at = timezone.now()  # presence's, not the moderator's
    moderator._SAVE_ATTENDANCE.save(row)
    assert Seat.objects.values_list("missed_deadlines", "autopilot", "seen_at").get(pk=row.pk) == (3, True, None)


def _trips_and_statements(queries: list[dict]) -> tuple[int, int]:
    """Executes and statements among captured queries, savepoints left out (the test's own)."""
    ours = [q["sql"] for q in queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))]
    return len(ours), sum(sql.count("; ") + 1 for sql in ours)


def test_the_lock_and_the_seats_read_together_are_what_each_reads_alone_in_one_trip_on_postgresql(alice, bob):
    match = started_werewolf(alice, [bob])
    with transaction.atomic(), CaptureQueriesContext(connection) as captured:
        locked, seats = run_together(
            moderator._MATCH_LOCKED.prepare(pk=match.pk), moderator._SEATS_OF_MATCH.prepare(match_id=match.pk)
        )
        users = [seat.user for seat in seats]  # came with the seats
    assert _trips_and_statements(captured.captured_queries) == ((1, 2) if connection.vendor == "postgresql" else (2, 2))
    alone = moderator._MATCH_LOCKED.get(pk=match.pk)
    assert _row(moderator._MATCH_LOCKED.one(locked)) == _row(alone)
    assert [_row(s) for s in seats] == [_row(s) for s in moderator._seats(match)]
    assert [u and u.pk for u in users] == [s.user_id for s in moderator._seats(match)]


def test_a_move_is_read_in_one_trip_and_written_in_another_on_postgresql(alice, bob):
    """submit inside a transaction already (as here): BEGIN, the lock with the seats, the move's writes,
    COMMIT (four round trips, not six; outside one, two: the tests below)."""
    match = started_werewolf(alice, [bob])
    with CaptureQueriesContext(connection) as captured:
        moderator.submit(match.pk, 0, {"type": "pick", "target": 2}, version=0)
    trips, statements = _trips_and_statements(captured.captured_queries)
    assert statements == 4, "the lock, the seats, the match's update, the move's insert"
    assert trips == (2 if connection.vendor == "postgresql" else 4)
    assert fresh(match).version == 1 and Move.objects.filter(match=match, seq=1).exists()


def test_writes_run_together_fail_together_when_an_update_matches_no_row(alice):
    match = started_werewolf(alice)
    gone = Match.objects.get(pk=match.pk)
    gone.pk = 987654
    action = {"type": "vote", "target": 2}
    with pytest.raises(DatabaseError, match="did not affect any rows"), transaction.atomic():
        run_together(
            Update(Match, ["version"]).prepare(gone),
            moderator._INSERT_MOVE.prepare(match=match, seq=1, seat=0, action=action, source=Move.Source.PLAYER),
        )
    assert not Move.objects.filter(match=match).exists(), "the insert beside it was rolled back"


def test_statements_for_two_databases_are_not_run_together(alice):
    match = started_werewolf(alice)
    first = moderator._SEATS.prepare(table_id=match.table_id)
    second = type(first)("elsewhere", first.sql, first.params, first.finish)
    with pytest.raises(ValueError, match="one database"):
        run_together(first, second)


# -- a move's transaction in two round trips (atomic_in_two_trips) --------------------------------


def _lock_from_elsewhere(match_id: int) -> str:
    """Whether another connection can take the match's lock right now (NOWAIT)."""
    seen: list[str] = []

    def another_process() -> None:
        try:
            with transaction.atomic():
                Match.objects.select_for_update(nowait=True).get(pk=match_id)
            seen.append("got the lock")
        except DatabaseError as error:
            seen.append("locked" if "lock" in str(error) else str(error))
        finally:
            connection.close()

    thread = threading.Thread(target=another_process)
    thread.start()
    thread.join()
    return seen[0]


@pytest.fixture
def psycopg_commands(monkeypatch):
    """The commands psycopg sends on its own (its BEGIN and COMMIT) on this thread's connection,
    each a round trip."""
    import psycopg

    sent: list[bytes] = []
    real = psycopg.Connection._exec_command
    this_thread = threading.get_ident()

    def spy(self, command, *args, **kwargs):
        if threading.get_ident() == this_thread:
            sent.append(bytes(command) if isinstance(command, bytes | bytearray) else str(command).encode())
        return real(self, command, *args, **kwargs)

    monkeypatch.setattr(psycopg.Connection, "_exec_command", spy)
    return sent


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_a_move_is_two_round_trips_with_its_begin_and_commit_inside_them(
    alice, bob, psycopg_commands, monkeypatch
):
    """submit outside any transaction: BEGIN travels with the lock and the seats, COMMIT with the
    writes; psycopg sends neither on its own. The lock still holds between the two trips, and the
    move is committed when submit returns."""
    match = started_werewolf(alice, [bob])
    during: list[str] = []
    real_track = moderator._track_attendance

    def between_the_trips(*args):
        during.append(_lock_from_elsewhere(match.pk))
        return real_track(*args)

    monkeypatch.setattr(moderator, "_track_attendance", between_the_trips)
    psycopg_commands.clear()
    with CaptureQueriesContext(connection) as captured:
        moderator.submit(match.pk, 0, {"type": "pick", "target": 2}, version=0)
    logged = [q["sql"] for q in captured.captured_queries]
    sent = logged[logged.index("BEGIN") + 1 : logged.index("COMMIT")]  # Django's markers, not queries
    assert len(sent) == 2, "two round trips in all"
    assert sent[0].startswith("BEGIN; ") and "FOR UPDATE" in sent[0]
    assert sent[1].startswith("WITH updated AS (UPDATE") and sent[1].endswith("; COMMIT")
    assert psycopg_commands == [], "no BEGIN or COMMIT of psycopg's own"
    assert during == ["locked"], "the match stays locked between the two trips"
    assert _lock_from_elsewhere(match.pk) == "got the lock"
    assert connection.get_autocommit() and connection.connection.autocommit
    assert connection.connection.info.transaction_status.name == "IDLE"
    assert fresh(match).version == 1 and Move.objects.filter(match=match, seq=1).exists()


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_a_refused_move_rolls_back_its_two_trip_transaction_and_frees_the_lock(alice, bob):
    from games.base import IllegalAction

    match = started_werewolf(alice, [bob])
    with pytest.raises(IllegalAction):
        moderator.submit(match.pk, 0, {"type": "pick", "target": 99}, version=0)
    assert connection.connection.info.transaction_status.name == "IDLE"
    assert _lock_from_elsewhere(match.pk) == "got the lock"
    assert fresh(match).version == 0 and not Move.objects.filter(match=match).exists()
    moderator.submit(match.pk, 0, {"type": "pick", "target": 2}, version=0)
    assert fresh(match).version == 1, "the connection goes on as before"


@pytest.mark.django_db(transaction=True)
def test_writes_that_carry_the_commit_fail_and_commit_nothing_when_an_update_matches_no_row(alice):
    """The UPDATE runs in its checked form, failing on the server, so the COMMIT after it in the
    same trip never runs (on SQLite: the ORM's own check, and the block rolls back)."""
    from shabneshin.precompiled import atomic_in_two_trips

    match = started_werewolf(alice)
    gone = Match.objects.get(pk=match.pk)
    gone.pk = 987654
    action = {"type": "vote", "target": 2}
    with pytest.raises(DatabaseError, match="did not affect any rows"), atomic_in_two_trips():
        moderator._MATCH_LOCKED.get(pk=match.pk)
        run_together(
            moderator._INSERT_MOVE.prepare(match=match, seq=1, seat=0, action=action, source=Move.Source.PLAYER),
            Update(Match, ["version"]).prepare(gone),
            commit=True,
        )
    assert not Move.objects.filter(match=match).exists(), "the insert before it was rolled back"
    assert _lock_from_elsewhere(match.pk) == "got the lock" if connection.vendor == "postgresql" else True


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_nothing_runs_in_a_two_trip_block_after_its_commit(alice):
    from shabneshin.precompiled import atomic_in_two_trips

    match = started_werewolf(alice)
    locked = None
    with pytest.raises(TransactionManagementError, match="committed"), atomic_in_two_trips():
        locked = moderator._MATCH_LOCKED.get(pk=match.pk)
        locked.version = 7
        run_together(moderator._SAVE_MOVED_MATCH.prepare(locked), commit=True)
        Match.objects.filter(pk=match.pk).update(version=8)
    assert fresh(match).version == 7, "the commit stands; the statement after it never ran"


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_savepoint_inside_a_two_trip_block_does_not_commit_it(alice):
    from shabneshin.precompiled import atomic_in_two_trips

    match = started_werewolf(alice)

    class Undone(Exception):
        pass

    with pytest.raises(Undone), atomic_in_two_trips():
        locked = moderator._MATCH_LOCKED.get(pk=match.pk)
        with transaction.atomic():
            locked.version = 7
            run_together(moderator._SAVE_MOVED_MATCH.prepare(locked), commit=True)
        raise Undone
    assert fresh(match).version == 0, "the savepoint's writes went with the block's rollback"


@pytest.mark.django_db(transaction=True)
def test_a_two_trip_block_whose_first_statement_is_a_savepoint_begins_first(alice):
    from shabneshin.precompiled import atomic_in_two_trips

    match = started_werewolf(alice)
    with atomic_in_two_trips():
        with transaction.atomic():
            Match.objects.filter(pk=match.pk).update(version=3)
        locked = moderator._MATCH_LOCKED.get(pk=match.pk)
    assert locked.version == 3 and fresh(match).version == 3


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_two_trip_block_whose_first_statement_is_an_executemany_begins_first_and_rolls_back(alice):
    """An executemany cannot carry BEGIN in front of it, so BEGIN goes in a trip of its own; the
    block is still one transaction: an error after it undoes its rows."""
    from shabneshin.precompiled import atomic_in_two_trips

    match = started_werewolf(alice)

    class Undone(Exception):
        pass

    update = f"UPDATE {Match._meta.db_table} SET version = %s WHERE id = %s"
    with pytest.raises(Undone), atomic_in_two_trips():
        with connection.cursor() as cursor:
            cursor.executemany(update, [(5, match.pk), (6, match.pk)])
        assert Match.objects.get(pk=match.pk).version == 6
        raise Undone
    assert fresh(match).version == 0, "the executemany's rows went with the block's rollback"
    assert connection.connection.info.transaction_status.name == "IDLE"


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_the_clocks_lock_and_the_seats_are_one_round_trip(alice, bob, psycopg_commands):
    """The clock's look at a due match: BEGIN, the lock and the seats read under it travel
    together, as a player's move does; then the move's writes, then COMMIT (the clock may apply
    several moves in one transaction: here Alice's missed night turn, her seat's attendance
    written with it)."""
    match = started_werewolf(alice, [bob])
    due_at = fresh(match).next_deadline
    psycopg_commands.clear()
    with CaptureQueriesContext(connection) as captured:
        moved, _ = moderator._run_due_for(match.pk, due_at + timedelta(milliseconds=1))
    logged = [q["sql"] for q in captured.captured_queries]
    sent = logged[logged.index("BEGIN") + 1 : logged.index("COMMIT")]  # Django's markers, not queries
    assert moved >= 1
    assert sent[0].startswith("BEGIN; ") and "FOR UPDATE" in sent[0] and '"tables_seat"' in sent[0]
    assert len(sent) == 2 and 'UPDATE "tables_match"' in sent[1], "the lock and the seats, then the writes"
    assert psycopg_commands == [b"COMMIT"]

"""Queries whose SQL Django compiles once per database connection, then runs with new values (issue 9).

A move runs the same few queries every time (the match locked, its seats, the match's UPDATE, the
move's INSERT), and the ORM builds and compiles each one anew at every call: 0.3-0.5 ms of Python
per query, where SQLite runs it in ~20 µs. Here a query is written once with ``Param``
placeholders and compiled by Django's own compiler on first use on a connection (so the SQL is the
backend's own: ``FOR UPDATE`` on PostgreSQL, none on SQLite); each run only prepares the new values
with the field methods the ORM itself calls, executes, and builds instances the way Django's
``ModelIterable`` does (``Model.from_db``, then select_related's populators, after the backend's
converters). ``Update`` and ``Insert`` stand for ``save(update_fields=...)`` and ``create()``, with
their ``pre_save``/``post_save`` signals (history.deals stamps each Move in ``pre_save``).

Only what the moderator needs is supported: models without parents, no annotations, no
prefetching; anything else fails at compile time rather than running differently.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, DatabaseError, DataError, connections, router, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Expression, Field, Model, Q, QuerySet
from django.db.models.query import ModelIterable, get_related_populators
from django.db.models.signals import post_save, pre_save
from django.db.models.sql import InsertQuery, UpdateQuery
from django.db.transaction import TransactionManagementError

from shabneshin import counters

M = TypeVar("M", bound=Model)


class Param(Expression):
    """A value given at each run. It compiles to one ``%s`` and stays in the compiled parameters
    as itself; each run replaces it by its value prepared by ``field`` as the ORM would have
    (``get_db_prep_save`` in an INSERT or UPDATE, ``get_db_prep_value`` in a filter)."""

    for_save = False

    def __init__(self, name: str, field: Field) -> None:
        super().__init__(output_field=field)
        self.name = name

    def resolve_expression(
        self,
        query: Any = None,
        allow_joins: bool = True,
        reuse: Any = None,
        summarize: bool = False,
        for_save: bool = False,
    ) -> Param:
        resolved: Param = super().resolve_expression(query, allow_joins, reuse, summarize, for_save)
        resolved.for_save = for_save
        return resolved

    def as_sql(self, compiler: Any, connection: BaseDatabaseWrapper) -> tuple[str, list[Any]]:
        return "%s", [self]

    def prepare(self, value: Any, connection: BaseDatabaseWrapper) -> Any:
        field = self.output_field
        if self.for_save:
            return field.get_db_prep_save(value, connection)
        return field.get_db_prep_value(value, connection, prepared=False)


@dataclass
class _Statement:
    """One compiled statement: its SQL, and its parameters with ``Param`` placeholders in them.
    ``checked_sql``: see :class:`Prepared`."""

    sql: str
    params: tuple[Any, ...]
    checked_sql: str | None = None

    def params_for(self, values: dict[str, Any], connection: BaseDatabaseWrapper) -> list[Any]:
        return [p.prepare(values[p.name], connection) if isinstance(p, Param) else p for p in self.params]


class _PerConnection:
    """Compiled forms, one per database connection object (one per thread and alias, as Django keeps
    them): the backend's converters are bound to the connection they were made for."""

    def __init__(self) -> None:
        self._compiled: weakref.WeakKeyDictionary[BaseDatabaseWrapper, Any] = weakref.WeakKeyDictionary()

    def compiled(self, connection: BaseDatabaseWrapper) -> Any:
        compiled = self._compiled.get(connection)
        if compiled is None:
            compiled = self._compiled[connection] = self.compile(connection)
        return compiled

    def compile(self, connection: BaseDatabaseWrapper) -> Any:
        raise NotImplementedError


@dataclass
class _CompiledSelect:
    statement: _Statement
    locks: bool  # SELECT ... FOR UPDATE on this backend
    converters: list[tuple[int, list[Any], Any]]
    fields: slice
    init_list: list[str]
    related_populators: list[Any]


class Select(_PerConnection, Generic[M]):
    """A queryset of model instances (``select_related`` included) run with new ``Param`` values:
    ``Select(Seat.objects.filter(table_id=Param("table_id", field)))`` then ``.fetch(table_id=7)``."""

    def __init__(self, queryset: QuerySet[M]) -> None:
        super().__init__()
        if queryset._iterable_class is not ModelIterable or queryset._prefetch_related_lookups:
            raise ValueError("precompiled.Select runs plain model querysets only")
        self.queryset = queryset

    def compile(self, connection: BaseDatabaseWrapper) -> _CompiledSelect:
        compiler = self.queryset.query.chain().get_compiler(connection=connection)
        sql, params = compiler.as_sql()  # also fills select, klass_info and the annotations
        if compiler.annotation_col_map or compiler.has_extra_select:
            raise ValueError("precompiled.Select runs querysets without annotations or extra columns")
        select, klass_info = compiler.select, compiler.klass_info
        first, last = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
        converters = compiler.get_converters([column for column, _, _ in select[: compiler.col_count]])
        return _CompiledSelect(
            statement=_Statement(sql, tuple(params)),
            locks=bool(self.queryset.query.select_for_update and connection.features.has_select_for_update),
            converters=[(pos, convs, expression) for pos, (convs, expression) in converters.items()],
            fields=slice(first, last),
            init_list=[column.target.attname for column, _, _ in select[first:last]],
            related_populators=get_related_populators(klass_info, select, connection.alias),
        )

    def fetch(self, **values: Any) -> list[M]:
        (found,) = run_together(self.prepare(**values))
        return found

    def prepare(self, **values: Any) -> Prepared:
        """This query with these values, to run (:func:`run_together`); its result is the list of
        instances."""
        alias = self.queryset.db
        connection = connections[alias]
        compiled: _CompiledSelect = self.compiled(connection)
        if compiled.locks and connection.get_autocommit() and connection.features.supports_transactions:
            raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
        return Prepared(
            alias,
            compiled.statement.sql,
            compiled.statement.params_for(values, connection),
            lambda cursor: self._objects(compiled, cursor.fetchall(), alias, connection),
        )

    def _objects(
        self, compiled: _CompiledSelect, rows: list[Any], alias: str, connection: BaseDatabaseWrapper
    ) -> list[M]:
        model = self.queryset.model
        objects = []
        for row in map(list, rows):
            for pos, convs, expression in compiled.converters:
                value = row[pos]
                for converter in convs:
                    value = converter(value, expression, connection)
                row[pos] = value
            obj = model.from_db(alias, compiled.init_list, row[compiled.fields])
            for populator in compiled.related_populators:
                populator.populate(row, obj)
            objects.append(obj)
        return objects

    def get(self, **values: Any) -> M:
        """The one instance, or the model's ``DoesNotExist`` / ``MultipleObjectsReturned``, as
        ``QuerySet.get`` raises them."""
        return self.one(self.fetch(**values))

    def one(self, found: list[M]) -> M:
        """The one instance of a result, or the errors of :meth:`get`."""
        if len(found) == 1:
            return found[0]
        model = self.queryset.model
        if not found:
            raise model.DoesNotExist(f"{model._meta.object_name} matching query does not exist.")
        raise model.MultipleObjectsReturned(f"get() returned more than one {model._meta.object_name}")


def _check_single_table(model: type[Model]) -> None:
    if model._meta.parents or model._meta.proxy:
        raise ValueError("precompiled writes support models without parents only")


class Update(_PerConnection):
    """``instance.save(update_fields=fields)``: the same signals, the same ``field.pre_save``
    (``auto_now``), the same preparation of each value, and the same error when no row matched."""

    def __init__(self, model: type[Model], fields: Sequence[str]) -> None:
        super().__init__()
        _check_single_table(model)
        self.model = model
        self.fields = [model._meta.get_field(name) for name in fields]
        self.update_fields = frozenset(fields)

    def compile(self, connection: BaseDatabaseWrapper) -> _Statement:
        query = UpdateQuery(self.model)
        query.add_update_fields([(field, None, Param(field.attname, field)) for field in self.fields])
        query.add_q(Q(pk=Param("pk", self.model._meta.pk)))
        sql, params = query.get_compiler(connection=connection).as_sql()
        return _Statement(sql, params, _checked_update(sql) if connection.vendor == "postgresql" else None)

    def save(self, instance: Model) -> None:
        run_together(self.prepare(instance))

    def prepare(self, instance: Model) -> Prepared:
        """The UPDATE of ``instance`` (``pre_save`` is sent now, ``post_save`` once it ran)."""
        model = self.model
        using = router.db_for_write(model, instance=instance)
        connection = connections[using]
        statement: _Statement = self.compiled(connection)
        pre_save.send(sender=model, instance=instance, raw=False, using=using, update_fields=self.update_fields)
        values = {field.attname: field.pre_save(instance, False) for field in self.fields}
        values["pk"] = instance.pk

        def finish(cursor: Any) -> None:
            if cursor.rowcount == 0:
                raise DatabaseError(_NO_ROW_UPDATED)
            post_save.send(
                sender=model, instance=instance, created=False, update_fields=self.update_fields, raw=False, using=using
            )

        return Prepared(using, statement.sql, statement.params_for(values, connection), finish, statement.checked_sql)


@dataclass
class _CompiledInsert:
    statement: _Statement
    returning: bool  # the INSERT says RETURNING (else the backend's last_insert_id)
    returning_params: tuple[Any, ...]
    converters: list[tuple[list[Any], Any]]


class Insert(_PerConnection):
    """``Model.objects.create(**values)`` for a model whose only database-set column is its auto
    primary key: the same signals, the same ``field.pre_save`` (``auto_now_add``), the pk read back
    as the ORM reads it."""

    def __init__(self, model: type[Model]) -> None:
        super().__init__()
        _check_single_table(model)
        meta = model._meta
        if list(meta.db_returning_fields) != [meta.auto_field]:
            raise ValueError("precompiled.Insert supports models whose only returned column is the auto pk")
        self.model = model
        self.fields = [f for f in meta.local_concrete_fields if not f.generated and f is not meta.auto_field]

    def compile(self, connection: BaseDatabaseWrapper) -> _CompiledInsert:
        query = InsertQuery(self.model)
        placeholders = SimpleNamespace(**{f.attname: Param(f.attname, f) for f in self.fields})
        query.insert_values(self.fields, [placeholders], raw=True)  # raw: take the Params as they are
        compiler = query.get_compiler(connection=connection)
        pk = self.model._meta.auto_field
        compiler.returning_fields = [pk]
        [(sql, params)] = compiler.as_sql()
        returning = connection.features.can_return_columns_from_insert
        converters = compiler.get_converters([pk.get_col(self.model._meta.db_table)])
        return _CompiledInsert(
            statement=_Statement(sql, tuple(params)),
            returning=returning,
            returning_params=tuple(compiler.returning_params) if returning else (),
            converters=list(converters.values()),
        )

    def create(self, **kwargs: Any) -> Model:
        (obj,) = run_together(self.prepare(**kwargs))
        return obj

    def prepare(self, **kwargs: Any) -> Prepared:
        """The INSERT of a new instance (``pre_save`` is sent now); its result is the instance, with
        its pk, once it ran."""
        obj = self.model(**kwargs)
        model, meta = self.model, self.model._meta
        using = router.db_for_write(model, instance=obj)
        connection = connections[using]
        compiled: _CompiledInsert = self.compiled(connection)
        pre_save.send(sender=model, instance=obj, raw=False, using=using, update_fields=None)
        values = {field.attname: field.pre_save(obj, True) for field in self.fields}

        def finish(cursor: Any) -> Model:
            if compiled.returning:
                (pk,) = connection.ops.fetch_returned_insert_columns(cursor, compiled.returning_params)
            else:
                pk = connection.ops.last_insert_id(cursor, meta.db_table, meta.auto_field.column)
            for convs, expression in compiled.converters:
                for converter in convs:
                    pk = converter(pk, expression, connection)
            setattr(obj, meta.auto_field.attname, pk)
            obj._state.adding = False
            obj._state.db = using
            post_save.send(sender=model, instance=obj, created=True, update_fields=None, raw=False, using=using)
            return obj

        return Prepared(using, compiled.statement.sql, compiled.statement.params_for(values, connection), finish)


_NO_ROW_UPDATED = "Save with update_fields did not affect any rows."
_DIVISION_BY_ZERO = "22012"


def _checked_update(sql: str) -> str:
    """The UPDATE as a statement that fails on the server when it matched no row (a division by
    the count of updated rows), so a COMMIT sent after it in the same trip never runs then; a row
    updated reads as one row with rowcount 1."""
    return f"WITH updated AS ({sql} RETURNING 1) SELECT 1 / COUNT(*) FROM updated"


@dataclass
class Prepared:
    """One statement ready to run: its SQL and values, and how to read its result from a cursor
    positioned at it. ``checked_sql``: the same statement failing on the server where ``finish``
    would raise once it ran (an UPDATE that matched no row), for a trip that commits
    (:func:`run_together`'s ``commit``)."""

    using: str
    sql: str
    params: list[Any]
    finish: Callable[[Any], Any]
    checked_sql: str | None = None


class _TwoTrips:
    """A transaction whose BEGIN goes with its first query and whose COMMIT with its last writes
    (:func:`atomic_in_two_trips`)."""

    def __init__(self, depth: int) -> None:
        self.depth = depth  # the atomic block it is (a savepoint inside it never commits)
        self.begin_pending = True
        self.committed = False

    def execute(self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
        """Django's execute wrapper: BEGIN in front of the block's first statement, and nothing
        after its COMMIT."""
        if self.committed:
            raise TransactionManagementError("this block has committed with its last writes; nothing may run after")
        if not self.begin_pending:
            return execute(sql, params, many, context)
        self.begin_pending = False
        if many:  # the executor here is executemany's whatever ``many`` says: BEGIN goes alone
            context["cursor"].cursor.execute("BEGIN")
            return execute(sql, params, many, context)
        result = execute("BEGIN; " + sql, params, many, context)
        context["cursor"].nextset()  # past BEGIN's result, to the statement's own
        return result


_two_trips: weakref.WeakKeyDictionary[BaseDatabaseWrapper, _TwoTrips] = weakref.WeakKeyDictionary()


@contextmanager
def atomic_in_two_trips(using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """``transaction.atomic()`` that costs no round trip of its own where statements travel
    together (:func:`_one_trip`), when it is the outermost block (issue 9: under load each round
    trip on the database thread is a wait, then a wait for the GIL).

    psycopg sends BEGIN before a transaction's first query, and COMMIT at its end, each in a trip
    of its own. Here the connection is put in autocommit for psycopg only (Django still runs the
    block as atomic: its ``on_commit`` hooks, its rollback on error), BEGIN is sent in front of the
    block's first statement, and the COMMIT goes with the writes that ``run_together(...,
    commit=True)`` sends. After that trip nothing may run in the block (it raises); a block that
    ends without it commits as any other, and an error rolls it back as any other. Elsewhere (in
    an atomic block already, SQLite, server-side binding) it is ``transaction.atomic()``."""
    connection = connections[using]
    if connection.in_atomic_block or not _one_trip(connection):
        with transaction.atomic(using):
            yield
        return
    with transaction.atomic(using):
        connection.connection.autocommit = True  # psycopg sends no BEGIN: ours goes with the first query
        block = _TwoTrips(len(connection.atomic_blocks))
        _two_trips[connection] = block
        try:
            with connection.execute_wrapper(block.execute):
                yield
        finally:
            _two_trips.pop(connection, None)


def _committing_block(connection: BaseDatabaseWrapper) -> _TwoTrips | None:
    """The two-trip block the connection runs in, unless a savepoint is open inside it."""
    block = _two_trips.get(connection)
    if block is None or block.depth != len(connection.atomic_blocks):
        return None
    return block


def _one_trip(connection: BaseDatabaseWrapper) -> bool:
    """Whether several statements can go in one ``execute``: PostgreSQL with client-side binding
    (Django's default; psycopg's ClientCursor sends them as one simple query and keeps each
    statement's result, read with ``nextset``)."""
    return connection.vendor == "postgresql" and not connection.settings_dict["OPTIONS"].get("server_side_binding")


def run_together(*statements: Prepared, commit: bool = False) -> list[Any]:
    """Run the statements in order, each one's result read as it says (:class:`Prepared`).

    On PostgreSQL they go to the server in one round trip (issue 9: each round trip is a wait on
    the database thread, and a hand-over of the GIL under load); elsewhere one after the other,
    as a ``execute`` each. An error rolls the atomic block back, as the ORM's writes do.

    ``commit``: these are the last statements of an :func:`atomic_in_two_trips` block, and its
    COMMIT goes with them. Each runs in its checked form, so that one that would fail once it ran
    (an UPDATE matching no row) fails on the server and the COMMIT after it never runs. Outside
    such a block (or inside a savepoint of one) ``commit`` changes nothing."""
    using = statements[0].using
    if any(statement.using != using for statement in statements):
        raise ValueError("run_together runs statements on one database")
    connection = connections[using]
    block = _committing_block(connection) if commit else None
    results = []
    with transaction.mark_for_rollback_on_error(using):
        if block is not None or (len(statements) > 1 and _one_trip(connection)):
            sqls = [statement.sql for statement in statements]
            if block is not None:
                sqls = [*(statement.checked_sql or statement.sql for statement in statements), "COMMIT"]
            with connection.cursor() as cursor:
                try:
                    cursor.execute("; ".join(sqls), [value for statement in statements for value in statement.params])
                except DataError as error:
                    if block is not None and getattr(error.__cause__, "sqlstate", None) == _DIVISION_BY_ZERO:
                        raise DatabaseError(_NO_ROW_UPDATED) from error
                    raise
                if block is not None:
                    block.committed = True
                counters.also_queries(len(statements) - 1)  # every statement counts, not every trip
                for n, statement in enumerate(statements):
                    if n and not cursor.nextset():
                        raise DatabaseError("a statement run together returned no result")
                    results.append(statement.finish(cursor))
        else:
            for statement in statements:
                with connection.cursor() as cursor:
                    cursor.execute(statement.sql, statement.params)
                    results.append(statement.finish(cursor))
    return results

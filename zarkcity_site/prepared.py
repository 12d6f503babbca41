"""Querysets compiled to SQL once per process, then run with each request's values.

The one way the project skips Django's compiling: `Prepared` for every read (the web's page, move and
poll, the notifications worker's claimed row, its table and the moves since a turn), `PreparedUpdate`
and `PreparedInsert` for the worker's two writes (the claim's UPDATE, the reply token's INSERT).

Django builds and compiles a queryset to SQL on every request: its lookups, joins, the columns of
`select_related`, its ordering. For the game page, the move and the poll that was more of the web's
CPU than running the queries (docs/performance.md, "Game page and move submit"). A `Prepared` query
has a fixed shape: it is built once with placeholder values, Django's compiler for it is kept (it
also knows how to read the rows back: the converters, the models `select_related` fills), and each
call runs that SQL with its own values, through the same queryset machinery (model instances, values
lists, `prefetch_related`), so its rows are those the queryset itself would give.

Only whole numbers (ids, plies) are values; anything else that shapes the SQL (a colour read out of a
JSON column, a flag) is part of the `shape`, each shape compiled once. A locking read
(`select_for_update`) is refused outside a transaction on each call, as Django refuses it as it compiles.

A write's values are whole numbers, strings and aware datetimes, each put where its placeholder is in
the compiled parameters, adapted for the database as the ORM adapts it (a datetime as `DateTimeField`
stores it on SQLite, an int as psycopg's `Int4` where the ORM gave one). A move's own writes (the game's
position columns, with NULLs and JSON; the move's row) stay the ORM's: compiled once, with JSON and None taken,
they saved 0.22-0.29 ms of CPU a move, measured and not kept (docs/performance.md, "The move's two writes").
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model, QuerySet
from django.db.models.sql import InsertQuery, UpdateQuery
from django.db.models.sql.compiler import SQLCompiler
from django.db.transaction import TransactionManagementError

T = TypeVar("T")

# Placeholders no real id or ply takes, one per number: each must come back as a parameter of the
# compiled SQL, never inlined nor changed, or the statement cannot be prepared (ValueError at its first
# use). Within the range of every integer column but the small ones: Django folds a comparison with a
# number out of the column's range into a condition always true or false, which would leave no parameter.
_PLACEHOLDER = 2_147_480_000
# Values run as compiled: a number outside them (a 30-digit id in an address) is left to Django's own
# compiling, which folds it as above, rather than sent to the database.
_SAFE = range(-(2**31), 2**31)
# A tuple's length is part of the SQL (one parameter each): the longer ones (the sweep's lists of players)
# are compiled by Django as usual, so that at most this many variants of a query are kept.
_MOST = 8


Value = int | tuple[int, ...]  # a number, or numbers for `__in` (each length compiled apart)
Hole = tuple[str, int | None]  # a value's name, and its place among a tuple's numbers


@dataclass(frozen=True)
class _Compiled:
    queryset: QuerySet[Any, Any]
    compiler: SQLCompiler
    sql: str
    params: tuple[Any, ...]
    slots: tuple[Hole | None, ...]  # for each parameter, the number it takes, or None for a constant


class Prepared(Generic[T]):
    """`build(*shape, **values)` -> the queryset; `prepared(*shape, **values)` -> its rows, as a list.
    The queryset must be what is iterated: slice it (`[:1]`) in `build`, not after."""

    def __init__(self, build: Callable[..., QuerySet[Any, T]]) -> None:
        self._build = build
        self._compiled: dict[tuple[Hashable, ...], _Compiled] = {}

    def __call__(self, *shape: Hashable, **values: Value) -> list[T]:
        numbers = _holes(values)
        if numbers is None:
            return list(self._build(*shape, **values))
        key = (
            connections[DEFAULT_DB_ALIAS].vendor,
            shape,
            tuple(sorted(numbers, key=str)),
        )  # a test run may change databases
        compiled = self._compiled.get(key)
        if compiled is None:
            compiled = self._compiled[key] = self._compile(shape, values)
        connection = connections[compiled.queryset.db]  # this thread's (a live test server has its own)
        _check_lock(compiled.queryset, connection)
        slots = zip(compiled.params, compiled.slots, strict=True)
        params = tuple(_like(param, numbers[slot]) if slot is not None else param for param, slot in slots)
        compiler = copy.copy(compiled.compiler)
        compiler.connection = connection
        compiler.as_sql = lambda *args, **kwargs: (compiled.sql, params)  # type: ignore[method-assign]
        return list(_answering(compiled.queryset, compiler))

    def _compile(self, shape: tuple[Hashable, ...], values: dict[str, Value]) -> _Compiled:
        placeholders: dict[str, Value] = {}
        holes: dict[object, Hole] = {}
        for name, value in values.items():
            numbers = tuple(_placeholder(int, len(holes) + index) for index in range(_count(value)))
            placeholders[name] = numbers if isinstance(value, tuple) else numbers[0]
            places = [(name, index) for index in range(len(numbers))] if isinstance(value, tuple) else [(name, None)]
            holes.update(zip(numbers, places, strict=True))
        queryset = self._build(*shape, **placeholders)
        compiler = queryset.query.get_compiler(using=queryset.db)
        sql, params = compiler.as_sql()
        return _Compiled(queryset, compiler, sql, tuple(params), _slots(params, holes))


def _answering(queryset: QuerySet[Any, T], compiler: SQLCompiler) -> QuerySet[Any, T]:
    """A fresh copy of the (never evaluated) queryset whose query hands out this compiler. Shallow:
    Django's own `_chain` clones the whole query, its select_related deep-copied, on every call (for the
    worker's claimed row 7 microseconds of CPU against 2.4)."""
    query = copy.copy(queryset.query)
    query.get_compiler = lambda *args, **kwargs: compiler  # type: ignore[method-assign]
    fresh = object.__new__(type(queryset))
    fresh.__dict__.update(queryset.__dict__, _query=query, _result_cache=None, _prefetch_done=False)
    return fresh


def _check_lock(queryset: QuerySet[Any, Any], connection: Any) -> None:
    """Django's own check of a locking read, which it makes as it compiles (SQLCompiler.as_sql)."""
    features = connection.features
    locking = queryset.query.select_for_update and features.has_select_for_update
    if locking and features.supports_transactions and connection.get_autocommit():
        raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")


def _holes(values: dict[str, Value]) -> dict[Hole, int] | None:
    """Each number the values hold, by where it goes; None when one is out of range, or a tuple empty
    (Django folds those away: `__in` of nothing matches nothing) or long, left to Django's own compiling."""
    numbers: dict[Hole, int] = {}
    for name, value in values.items():
        if isinstance(value, tuple):
            if not 0 < len(value) <= _MOST:
                return None
            numbers.update(((name, index), number) for index, number in enumerate(value))
        else:
            numbers[(name, None)] = value
    return numbers if all(number in _SAFE for number in numbers.values()) else None


def _count(value: Value) -> int:
    return len(value) if isinstance(value, tuple) else 1


def _placeholder(kind: type, number: int) -> Any:
    """The `number`th placeholder of this kind: a value nothing a statement holds of its own can equal."""
    if kind is int:
        return _PLACEHOLDER + number
    if kind is str:
        return f"\x00placeholder {number}"
    if kind is datetime:
        return datetime(1901, 2, 3, 4, 5, 6, number + 1, tzinfo=UTC)
    raise TypeError(f"a prepared statement takes ints, strs and datetimes, not {kind.__name__}")


def _slots(params: Sequence[Any], holes: dict[object, Hole]) -> tuple[Hole | None, ...]:
    """For each compiled parameter, the value it takes (None for a constant of the statement's own).
    Raises ValueError when a value was not found: inlined, or changed, by Django's compiling."""
    # The kinds alone: a float or a Decimal equal to a placeholder is a constant. An int may come as the
    # driver is given it (psycopg's Int4 and the like, subclasses of int).
    slots = tuple(holes.get(param) if isinstance(param, int | str | datetime) else None for param in params)
    missing = {name for name, index in set(holes.values()) - set(slots)}
    if missing:
        raise ValueError(f"{sorted(missing)} not found among the compiled statement's parameters: not prepared")
    return slots


def _like(param: Any, value: Any) -> Any:
    """The value as the ORM handed the placeholder to the database: an int as an Int4 where it was one."""
    return type(param)(value) if isinstance(param, int) else value


def _adapted(value: Any, connection: BaseDatabaseWrapper) -> Any:
    """A value as the ORM hands it to this database (a datetime as DateTimeField adapts it)."""
    return connection.ops.adapt_datetimefield_value(value) if isinstance(value, datetime) else value


Written = tuple[str, tuple[Any, ...], tuple[Hole | None, ...]]  # the SQL, its parameters, their slots


class _PreparedWrite:
    """A write compiled once per database, `kinds` naming each value's: int, str or datetime. A None
    cannot go where a placeholder stood (in a WHERE, `= NULL` is not `IS NULL`): the caller asks the ORM.
    An int goes to the database as given (the worker's are ids and plies it read): one out of its
    column's range is the database's to refuse, where the ORM would fold a comparison with it away."""

    def __init__(self, **kinds: type) -> None:
        self._kinds = kinds
        self._compiled: dict[str, Written] = {}

    def __call__(self, **values: Any) -> int:
        """How many rows the statement wrote."""
        self._check(values)
        connection = connections[DEFAULT_DB_ALIAS]  # this thread's
        sql, compiled_params, slots = self._compiled.get(connection.vendor) or self._compile(connection)
        adapted: dict[Hole, Any] = {(name, None): _adapted(value, connection) for name, value in values.items()}
        slotted = zip(compiled_params, slots, strict=True)
        params = [_like(param, adapted[slot]) if slot is not None else param for param, slot in slotted]
        with transaction.mark_for_rollback_on_error(), connection.cursor() as cursor:
            cursor.execute(sql, params)  # as the ORM runs a write, an error inside a transaction spoils it
            return int(cursor.rowcount)

    def _check(self, values: dict[str, Any]) -> None:
        if set(values) != set(self._kinds):
            raise TypeError(f"this statement takes {', '.join(self._kinds)}, not {', '.join(values)}")
        for name, value in values.items():
            if not isinstance(value, self._kinds[name]):
                raise TypeError(f"{name}: a {self._kinds[name].__name__}, not {value!r}")

    def _compile(self, connection: BaseDatabaseWrapper) -> Written:
        placeholders = {name: _placeholder(kind, number) for number, (name, kind) in enumerate(self._kinds.items())}
        sql, params = self._sql(placeholders)
        holes: dict[object, Hole] = {_adapted(value, connection): (name, None) for name, value in placeholders.items()}
        compiled = self._compiled[connection.vendor] = (sql, tuple(params), _slots(params, holes))
        return compiled  # two threads compiling at once compile the same thing

    def _sql(self, placeholders: dict[str, Any]) -> tuple[str, Sequence[Any]]:
        raise NotImplementedError


class PreparedUpdate(_PreparedWrite):
    """`update(**values)`: the UPDATE that `build(**values)` describes (the rows, and the columns to set)."""

    def __init__(self, build: Callable[..., tuple[QuerySet[Any], dict[str, Any]]], **kinds: type) -> None:
        super().__init__(**kinds)
        self._build = build

    def _sql(self, placeholders: dict[str, Any]) -> tuple[str, Sequence[Any]]:
        queryset, columns = self._build(**placeholders)
        query: Any = queryset.query.chain(UpdateQuery)  # as QuerySet.update builds it (django-stubs types a Query)
        query.add_update_values(columns)
        query.get_initial_alias()
        if query.related_updates or query.count_active_tables() != 1:  # else compiling would run a SELECT
            raise ValueError("a prepared update changes one table, its rows found in that table alone")
        sql, params = query.get_compiler(using=DEFAULT_DB_ALIAS).as_sql()
        return sql, params


class PreparedInsert(_PreparedWrite):
    """`insert(**values)`: one row of `model` with these columns, by their attribute names (`seat_id`);
    every other column is left out of the INSERT, so the database's default (NULL) fills it."""

    def __init__(self, model: type[Model], **kinds: type) -> None:
        super().__init__(**kinds)
        self._model = model

    def _sql(self, placeholders: dict[str, Any]) -> tuple[str, Sequence[Any]]:
        columns = {field.attname: field for field in self._model._meta.concrete_fields}
        query = InsertQuery(self._model)
        query.insert_values([columns[name] for name in placeholders], [self._model(**placeholders)])
        ((sql, params),) = query.get_compiler(using=DEFAULT_DB_ALIAS).as_sql()
        return sql, params

"""Querysets compiled to SQL once per process, then run with each request's values.

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
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet
from django.db.models.sql.compiler import SQLCompiler
from django.db.transaction import TransactionManagementError

T = TypeVar("T")

# Placeholders no real id or ply takes, one per value name: each must come back as a parameter of the
# compiled SQL, never inlined nor changed, or the query cannot be prepared (ValueError at its first use).
# Within the range of every integer column but the small ones: Django folds a comparison with a number
# out of the column's range into a condition always true or false, which would leave no parameter.
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
        params = tuple(type(param)(numbers[slot]) if slot is not None else param for param, slot in slots)
        compiler = copy.copy(compiled.compiler)
        compiler.connection = connection
        compiler.as_sql = lambda *args, **kwargs: (compiled.sql, params)  # type: ignore[method-assign]
        queryset = compiled.queryset._chain()  # type: ignore[attr-defined]
        queryset.query.get_compiler = lambda *args, **kwargs: compiler
        return list(queryset)

    def _compile(self, shape: tuple[Hashable, ...], values: dict[str, Value]) -> _Compiled:
        placeholders: dict[str, Value] = {}
        by_number: dict[int, Hole] = {}
        for name, value in values.items():
            count = len(value) if isinstance(value, tuple) else 1
            numbers = tuple(range(_PLACEHOLDER + len(by_number), _PLACEHOLDER + len(by_number) + count))
            placeholders[name] = numbers if isinstance(value, tuple) else numbers[0]
            holes: list[Hole] = (
                [(name, index) for index in range(count)] if isinstance(value, tuple) else [(name, None)]
            )
            by_number.update(zip(numbers, holes, strict=True))
        queryset = self._build(*shape, **placeholders)
        compiler = queryset.query.get_compiler(using=queryset.db)
        sql, params = compiler.as_sql()
        # An int as PostgreSQL's driver is given it (psycopg's Int4 and the like, subclasses of int).
        slots = tuple(by_number.get(param) if isinstance(param, int) else None for param in params)
        missing = {name for name, index in set(by_number.values()) - set(slots)}
        if missing:
            raise ValueError(f"{sorted(missing)} not found among the compiled query's parameters: not prepared")
        return _Compiled(queryset, compiler, sql, tuple(params), slots)


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

"""Statements whose SQL the ORM compiles once per database and then runs again with new values: for the
few the notifications worker asks for every email, where the ORM compiling a query took more CPU than
the database answering it (docs/performance.md, "Turn emails").

A read is a queryset made by a function of named integer values (ids); an update, a queryset and the
columns it sets, made by a function of ids, strings and datetimes; an insert, a row of a model with such
values. Each is made once with stand-in values, compiled, and each run puts its values where the
stand-ins are in the compiled parameters, adapted for the database as the ORM adapts them: the SQL is
the ORM's own, for whichever database it runs on. A read's rows come back as Django makes them (its
ModelIterable, with the select_related objects and annotations), from the column list the first
compiling worked out.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model, QuerySet
from django.db.models.query import ModelIterable
from django.db.models.sql import InsertQuery, UpdateQuery

M = TypeVar("M", bound=Model)
# Far from any id or constant a read holds (ids are positive; a Coalesce's default is small), so each is
# found in the compiled parameters only where its value goes.
STAND_IN_BASE = -7_300_000_000


@dataclass(frozen=True)
class _Compiled:
    compiler: Any  # an SQLCompiler after as_sql(): its select, klass_info and annotations describe each row
    sql: str
    params: tuple[Any, ...]
    slots: dict[str, list[int]]  # each value's places in params


class CompiledRead(Generic[M]):
    """`read(**values)`: the rows of `make(**values)`, compiled once per database."""

    def __init__(self, make: Callable[..., QuerySet[M]], *names: str) -> None:
        self._make, self._names = make, names
        self._compiled: dict[str, _Compiled] = {}

    def __call__(self, *, using: str = DEFAULT_DB_ALIAS, **values: int) -> list[M]:
        _check_names(self._names, values)
        compiled = self._compiled.get(using) or self._compile(using)
        params = list(compiled.params)
        for name, places in compiled.slots.items():
            for place in places:
                params[place] = _like(params[place], values[name])
        return _run(compiled, using, tuple(params))

    def _compile(self, using: str) -> _Compiled:
        stand_ins = {name: _stand_in(int, number) for number, name in enumerate(self._names)}
        queryset = self._make(**stand_ins)
        prefetches = getattr(queryset, "_prefetch_related_lookups", ())  # Django's, unknown to django-stubs
        if prefetches or queryset._iterable_class is not ModelIterable:
            raise ValueError("a compiled read gives model rows, and runs one statement (no prefetch_related)")
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        slots = {name: _places(params, stand_in) for name, stand_in in stand_ins.items()}
        missing = [name for name, places in slots.items() if not places]
        if missing:
            raise ValueError(f"{', '.join(missing)}: not a parameter of the compiled SQL")
        compiled = _Compiled(compiler, sql, tuple(params), slots)
        self._compiled[using] = compiled  # two threads compiling at once compile the same thing
        return compiled


def _check_names(names: Sequence[str], values: dict[str, Any]) -> None:
    if set(values) != set(names):
        raise TypeError(f"this statement takes {', '.join(names)}, not {', '.join(values)}")


def _places(params: Sequence[Any], stand_in: object) -> list[int]:
    # isinstance: the ORM may hand an int to PostgreSQL as psycopg's Int4 (an IntegerField's column), an int too.
    return [place for place, param in enumerate(params) if isinstance(param, type(stand_in)) and param == stand_in]


def _like(stand_in: object, value: object) -> object:
    """The value as the ORM handed the stand-in to the database: an int as an Int4 where it was one."""
    if isinstance(stand_in, int) and isinstance(value, int) and type(stand_in) is not type(value):
        return type(stand_in)(value)
    return value


class _Write:
    """A write compiled once per database; its values are ints, strs and aware datetimes, as `kinds` names.
    A None cannot go where a stand-in stood (in a WHERE, `= NULL` is not `IS NULL`): the caller asks the
    ORM for those."""

    def __init__(self, **kinds: type) -> None:
        self._kinds = kinds
        self._compiled: dict[str, tuple[str, tuple[Any, ...], dict[str, list[int]]]] = {}

    def __call__(self, *, using: str = DEFAULT_DB_ALIAS, **values: Any) -> int:
        """How many rows the statement wrote."""
        _check_names(tuple(self._kinds), values)
        connection = connections[using]
        sql, compiled_params, slots = self._compiled.get(using) or self._compile(using)
        params = list(compiled_params)
        for name, places in slots.items():
            value = values[name]
            if not isinstance(value, self._kinds[name]):
                raise TypeError(f"{name}: a {self._kinds[name].__name__}, not {value!r}")
            for place in places:
                params[place] = _like(params[place], _adapted(value, connection))
        with transaction.mark_for_rollback_on_error(using), connection.cursor() as cursor:
            cursor.execute(sql, params)  # as the ORM runs a write, an error inside a transaction spoils it
            return int(cursor.rowcount)

    def _compile(self, using: str) -> tuple[str, tuple[Any, ...], dict[str, list[int]]]:
        connection = connections[using]
        stand_ins = {name: _stand_in(kind, number) for number, (name, kind) in enumerate(self._kinds.items())}
        sql, params = self._sql(stand_ins, using)
        slots = {name: _places(params, _adapted(stand_in, connection)) for name, stand_in in stand_ins.items()}
        missing = [name for name, places in slots.items() if not places]
        if missing:
            raise ValueError(f"{', '.join(missing)}: not a parameter of the compiled SQL")
        self._compiled[using] = (sql, tuple(params), slots)
        return self._compiled[using]

    def _sql(self, stand_ins: dict[str, Any], using: str) -> tuple[str, Sequence[Any]]:
        raise NotImplementedError


class CompiledUpdate(_Write):
    """`update(**values)`: the UPDATE that `make(**values)` describes (the rows, and the columns to set)."""

    def __init__(self, make: Callable[..., tuple[QuerySet[Any], dict[str, Any]]], **kinds: type) -> None:
        super().__init__(**kinds)
        self._make = make

    def _sql(self, stand_ins: dict[str, Any], using: str) -> tuple[str, Sequence[Any]]:
        queryset, columns = self._make(**stand_ins)
        query: Any = queryset.query.chain(UpdateQuery)  # as QuerySet.update builds it (django-stubs types a Query)
        query.add_update_values(columns)
        query.get_initial_alias()
        if query.related_updates or query.count_active_tables() != 1:  # else compiling would run a SELECT
            raise ValueError("a compiled update changes one table, its rows found in that table alone")
        sql, params = query.get_compiler(using=using).as_sql()
        return sql, params


class CompiledInsert(_Write):
    """`insert(**values)`: one row of `model` with these columns, by their attribute names (`seat_id`);
    every other column is left out of the INSERT, so the database's default (NULL) fills it."""

    def __init__(self, model: type[Model], **kinds: type) -> None:
        super().__init__(**kinds)
        self._model = model

    def _sql(self, stand_ins: dict[str, Any], using: str) -> tuple[str, Sequence[Any]]:
        columns = {field.attname: field for field in self._model._meta.concrete_fields}
        query = InsertQuery(self._model)
        query.insert_values([columns[name] for name in stand_ins], [self._model(**stand_ins)])
        ((sql, params),) = query.get_compiler(using=using).as_sql()
        return sql, params


def _stand_in(kind: type, number: int) -> object:
    """A value of this kind that nothing a statement holds of its own can equal."""
    if kind is int:
        return STAND_IN_BASE - number
    if kind is str:
        return f"\x00stand-in {number}"
    if kind is datetime:
        return datetime(1901, 2, 3, 4, 5, 6, number + 1, tzinfo=UTC)
    raise TypeError(f"a compiled statement takes ints, strs and datetimes, not {kind.__name__}")


def _adapted(value: object, connection: BaseDatabaseWrapper) -> object:
    """A value as the ORM hands it to this database (a datetime as DateTimeField adapts it)."""
    return connection.ops.adapt_datetimefield_value(value) if isinstance(value, datetime) else value


def _run(compiled: _Compiled, using: str, params: tuple[Any, ...]) -> list[Any]:
    """The rows, made by Django's ModelIterable from a copy of the compiled compiler that answers with
    the SQL compiled once. The copy runs on this thread's connection (a connection is per thread)."""
    compiler = copy.copy(compiled.compiler)
    compiler.connection = connections[using]
    compiler.as_sql = lambda *args, **kwargs: (compiled.sql, params)
    query = copy.copy(compiler.query)
    query.get_compiler = lambda *args, **kwargs: compiler
    return list(ModelIterable(QuerySet(model=query.model, query=query, using=using)))

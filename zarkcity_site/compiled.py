"""Reads whose SQL the ORM compiles once per database and then runs again with new values: for the few
queries the notifications worker asks for every email, where the ORM compiling a query took more CPU
than the database answering it (docs/performance.md, "Turn emails").

A read is a queryset made by a function of named integer values (ids). It is made once with stand-in
values, compiled, and each run puts its values where the stand-ins are in the compiled parameters: the
SQL is the ORM's own, for whichever database the read runs on. The rows come back as Django makes them
(its ModelIterable, with the select_related objects and annotations), from the column list the first
compiling worked out.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet
from django.db.models.query import ModelIterable

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
        if set(values) != set(self._names):
            raise TypeError(f"this read takes {', '.join(self._names)}, not {', '.join(values)}")
        compiled = self._compiled.get(using) or self._compile(using)
        params = list(compiled.params)
        for name, places in compiled.slots.items():
            for place in places:
                params[place] = values[name]
        return _run(compiled, using, tuple(params))

    def _compile(self, using: str) -> _Compiled:
        stand_ins = {name: STAND_IN_BASE - number for number, name in enumerate(self._names)}
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


def _places(params: Sequence[Any], stand_in: int) -> list[int]:
    return [place for place, param in enumerate(params) if type(param) is int and param == stand_in]


def _run(compiled: _Compiled, using: str, params: tuple[Any, ...]) -> list[Any]:
    """The rows, made by Django's ModelIterable from a copy of the compiled compiler that answers with
    the SQL compiled once. The copy runs on this thread's connection (a connection is per thread)."""
    compiler = copy.copy(compiled.compiler)
    compiler.connection = connections[using]
    compiler.as_sql = lambda *args, **kwargs: (compiled.sql, params)
    query = copy.copy(compiler.query)
    query.get_compiler = lambda *args, **kwargs: compiler
    return list(ModelIterable(QuerySet(model=query.model, query=query, using=using)))

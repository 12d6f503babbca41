"""Rows whose due time has come, read the way a periodic sweep needs them: by an index on the due-time
column, earliest first, in batches, so that with nothing due a sweep costs one query whatever the size
of the table (docs/notifications.md, "The sweep")."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import TypeVar

from django.db.models import Model, Q, QuerySet

M = TypeVar("M", bound=Model)


def due_rows(rows: QuerySet[M], field: str, now: datetime, batch: int) -> Iterator[M]:
    """The rows of `rows` whose `field` is at or before `now`, by (field, pk), `batch` per query. Each
    row comes once: the next batch goes on after the last row seen, so a row the caller skipped or
    failed on (still due) is not read again by this sweep, and the loop always ends."""
    after: tuple[datetime, int] | None = None
    while True:
        due = rows.filter(**{f"{field}__lte": now})
        if after is not None:
            due = due.filter(Q(**{f"{field}__gt": after[0]}) | Q(**{field: after[0], "pk__gt": after[1]}))
        page = list(due.order_by(field, "pk")[:batch])
        yield from page
        if len(page) < batch:
            return
        after = (getattr(page[-1], field), page[-1].pk)

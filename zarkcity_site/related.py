"""Whether a related object came with the row that holds it (select_related), so a read can use it
instead of asking the database again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import Model


def read_with(instance: Model, relation: str) -> tuple[bool, Any]:
    """(True, the related object) when `instance` was read with its `relation` (a foreign key or a
    one-to-one, either way; None for a reverse one-to-one with no row), else (False, None)."""
    field: Any = instance._meta.get_field(relation)
    if field.is_cached(instance):
        return True, field.get_cached_value(instance)
    return False, None


def read_with_or(instance: Model, relation: str, read: Callable[[], Any]) -> Any:
    """The related object `instance` was read with (select_related), else what `read()` returns (its own
    query: a reverse one-to-one read by hand, so that nothing is cached on `instance` either way)."""
    was_read, related = read_with(instance, relation)
    return related if was_read else read()

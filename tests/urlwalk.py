"""Every URL route the site answers, as text with its converters ("games/<int:game_id>/log.txt"), for
tests that walk them all: a new route is covered the day it is added."""

from __future__ import annotations

import re
from collections.abc import Iterator

from django.urls import URLResolver, get_resolver

CONVERTER = re.compile(r"<(?:(\w+):)?(\w+)>")


def routes(patterns=None, prefix: str = "") -> Iterator[tuple[str, str | None]]:
    """(route, name) of every pattern, includes flattened; regex patterns come as their regex."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from routes(pattern.url_patterns, route)
        else:
            yield route, pattern.name


def fill(route: str, values: dict[str, object]) -> str | None:
    """The route as a path with each converter's value from `values`; None when one has no value or
    the route is a regex."""
    if "^" in route or "(?P" in route:
        return None
    names = [name for _, name in CONVERTER.findall(route)]
    if any(name not in values for name in names):
        return None
    return "/" + CONVERTER.sub(lambda m: str(values[m.group(2)]), route)

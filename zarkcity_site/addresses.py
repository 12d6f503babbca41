"""Addresses reversed once a process: `reverse(name, args)` for the views the game page links to on every
load (some fifteen of them: its header, its forms, its script's data), kept by name and arguments.

Each `reverse` walks the URLconf's patterns and quotes its arguments, some 15 to 25 µs; the same game's
page asks for the same addresses at every load. What `reverse` gives depends only on the name, the
arguments, the script prefix and the URLconf, so those are the key; the cache is bounded (least recently
used go first), since the arguments run over every game and player."""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse

KEPT = 8192  # addresses: a few hundred bytes each, a few MB at most per process


def address(name: str, *args: int | str) -> str:
    """The path `reverse(name, args=args)` gives, from the process's cache when asked before."""
    return _reversed(name, args, get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF)


@lru_cache(maxsize=KEPT)
def _reversed(name: str, args: tuple[int | str, ...], prefix: str, urlconf: object) -> str:
    # prefix and urlconf are the key's: reverse reads them itself (a request's SCRIPT_NAME, a test's override).
    return reverse(name, args=args)

"""zarkcity's rules engines: pure Python, no Django, no clock, no global randomness.

Each game lives in its own subpackage (`engine.zarkcity`; a variant such as Deck Town would sit
beside it) exposing the same functions; `engine.game(name)` returns that module.
"""

from __future__ import annotations

import importlib
from types import ModuleType

GAMES = ("zarkcity",)


def game(name: str = "zarkcity") -> ModuleType:
    """The rules module of a game by name: new_game, apply, legal_moves, view, replay, ..."""
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r} (known: {', '.join(GAMES)})")
    return importlib.import_module(f"engine.{name}")

"""zarkcity's rules engines: pure Python, no Django, no clock, no global randomness.

Each game is a package (`engine.zarkcity`, ...) offering one typed interface
(`engine.interface.Game`), listed in `engine.registry`; `engine.game(id)` returns it.
"""

from __future__ import annotations

from .interface import Game
from .registry import get as game
from .registry import ids as game_ids

__all__ = ["Game", "game", "game_ids"]

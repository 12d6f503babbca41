"""Black ICE (Andrew Looney; Pyramid Primer #1) for 2 players: ../shared/spec/blackice.md.

`PACKAGE` is the game's one declaration (engine/kit/package.py); `engine.blackice.game.GAME` the
game on the kit. Not yet in engine/registry.py: its pages come later (every registered game gets
the kit's random and MCTS bots).
"""

from __future__ import annotations

from ..kit.package import Package
from .game import GAME

PACKAGE = Package(game=GAME)

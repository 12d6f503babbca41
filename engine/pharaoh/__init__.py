"""Pharaoh (Pyramid Primer #1) for 2, 3 or 4 players: ../shared/spec/pharaoh.md, on the game kit.

`PACKAGE` declares everything the service finds about the game; `engine.pharaoh.game.GAME` is the
game behind the one interface (engine/interface.py).
"""

from __future__ import annotations

from ..kit.package import Package
from .game import GAME

PACKAGE = Package(game=GAME, verifier="verify.py")

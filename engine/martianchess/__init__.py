"""Martian Chess (Pyramid Primer #1) for 2 or 4 players: ../shared/spec/martian_chess.md.

`engine.martianchess.game.GAME` is the game behind the one interface (engine/interface.py).
"""

from __future__ import annotations

from ..bots.kit import KIT_BOTS
from ..kit.package import Package, late
from .game import GAME

PACKAGE = Package(
    GAME,
    bots={**KIT_BOTS, "alphabeta": late("engine.bots.alphabeta", "choose")},
    verifier="verify.py",
    script="board.js",
    order=3,
)

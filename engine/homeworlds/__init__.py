"""Homeworlds (John Cooper; Pyramid Primer #1) for 2 players: ../shared/spec/homeworlds.md.

`PACKAGE` is the game's one declaration (engine/kit/package.py); `engine.homeworlds.game.GAME`
the game on the kit, which the registry finds by `PACKAGE`; the star map and its clicks are
engine/homeworlds/picture.py on the drawing kit. docs/homeworlds.md.
"""

from __future__ import annotations

from ..kit.package import Package
from .game import GAME

PACKAGE = Package(game=GAME, verifier="verify.py")

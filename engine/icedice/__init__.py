"""IceDice (Pyramid Primer #1), 2 to 5 players: ../shared/spec/icedice.md, on the game kit."""

from __future__ import annotations

from ..kit.package import Package
from .game import GAME

PACKAGE = Package(game=GAME, verifier="verify.py")

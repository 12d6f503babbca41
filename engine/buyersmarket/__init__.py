"""Buyer's Market (Gregory Lattanzio, 2017; ../shared/spec/rules.md section 15): bid for pallets of
pyramids with your bank, then build to the building code. `GAME` (engine/buyersmarket/game.py) is the
game interface; docs/rules.md and docs/notation.md (Buyer's Market) document the rules and notation."""

from __future__ import annotations

from ..kit.package import Package
from .game import GAME

PACKAGE = Package(GAME, verifier="verify.py", script="board.js", style="board.css", order=4)

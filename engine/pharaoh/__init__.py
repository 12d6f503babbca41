"""Pharaoh (Pyramid Primer #1) for 2, 3 or 4 players: ../shared/spec/pharaoh.md, on the game kit.

`PACKAGE` declares everything the service finds about the game; `engine.pharaoh.game.GAME` is the
game behind the one interface (engine/interface.py). Its MCTS bot values the lines it cuts short with
`engine.pharaoh.bots.evaluate` (distance to a goal-line): random steps alone almost never line up three
pieces, so without it nearly every line was an even share (docs/bots.md).
"""

from __future__ import annotations

from ..bots.kit import Mcts, random_move
from ..kit.package import Package
from .bots import evaluate
from .game import GAME

PACKAGE = Package(game=GAME, bots={"random": random_move, "mcts": Mcts(evaluate, playout=0)}, verifier="verify.py")

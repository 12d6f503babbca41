"""Launch Pad 23 (Andrew Looney; Pyramid Primer #1) for 2 to 4 players: ../shared/spec/launchpad23.md,
on the game kit.

`PACKAGE` declares everything the service finds about the game; `engine.launchpad23.game.GAME` is the
game behind the one interface (engine/interface.py). The kit's MCTS bot values a line cut short by
`engine.launchpad23.bots.evaluate` (rocket progress): random lines almost never build a rocket.
"""

from __future__ import annotations

from ..bots.kit import Mcts, random_move
from ..kit.package import Package
from .bots import evaluate
from .game import GAME

PLAYOUT = 8  # random steps after the tree before the evaluation values the line

PACKAGE = Package(
    game=GAME,
    bots={"random": random_move, "mcts": Mcts(evaluate, playout=PLAYOUT)},
    verifier="verify.py",
)

"""Launch Pad 23 (Andrew Looney; Pyramid Primer #1) for 2 to 4 players: ../shared/spec/launchpad23.md.

`PACKAGE` is the game's one declaration (engine/kit/package.py); `engine.launchpad23.game.GAME` the
game on the kit. Not yet in engine/registry.py: the pages and clicks come later.
"""

from __future__ import annotations

from ..bots.kit import mcts_bot, random_bot
from ..kit.package import Package
from .bots import evaluate
from .game import GAME

# Random playouts almost never build a rocket: the MCTS bot values its short lines by rocket progress.
PACKAGE = Package(game=GAME, bots={"random": random_bot, "mcts": mcts_bot(evaluate, playout=8)})

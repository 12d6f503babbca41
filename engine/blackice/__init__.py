"""Black ICE (Andrew Looney; Pyramid Primer #1) for 2 players: ../shared/spec/blackice.md, on the game kit.

`PACKAGE` declares everything the service finds about the game; `engine.blackice.game.GAME` is the
game behind the one interface (engine/interface.py). Its bots are the kit's random and MCTS
(engine/bots/kit.py), which determinize the Codes the bot's seat has not peeked.
"""

from __future__ import annotations

from ..kit.package import Package
from .game import GAME

PACKAGE = Package(game=GAME, verifier="verify.py")

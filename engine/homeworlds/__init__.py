"""Homeworlds (John Cooper; Pyramid Primer #1) for 2 players: ../shared/spec/homeworlds.md.

`PACKAGE` is the game's one declaration (engine/kit/package.py); `engine.homeworlds.game.GAME`
the game on the kit, which the registry finds by `PACKAGE`; the star map and its clicks are
engine/homeworlds/picture.py on the drawing kit. Its MCTS bot is the kit's, with lines cut short
and valued by engine/homeworlds/bots.py. docs/homeworlds.md, docs/bots.md.
"""

from __future__ import annotations

from ..bots.kit import Mcts, random_move
from ..kit.package import Package
from .bots import evaluate
from .game import GAME

# Random steps are no guide here (a random player soon moves its last ship from home and loses), so
# every line stops where it leaves the tree and the evaluation values it. Its values are spread less
# than a game's ends (0 or 1), so the search explores less than the kit's default (0.7) to tell them apart.
MCTS = Mcts(evaluate, playout=0, exploration=0.3)

PACKAGE = Package(game=GAME, verifier="verify.py", bots={"random": random_move, "mcts": MCTS})

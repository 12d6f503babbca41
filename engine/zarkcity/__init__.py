"""Zark City: the rules (rules.py), move generation, views, notation and the file formats.

Everything a caller needs is importable from here: `from engine.zarkcity import new_game, apply, view`;
resignation, draws, time-outs and the game record are the game kit's (`GAME`, engine/kit/base.py).
The same code plays Deck Town under its Ruleset (engine/decktown; docs/engine.md).
"""

from __future__ import annotations

from ..bots import play_random
from ..errors import EngineError, IllegalMoveError, NotationError, PositionError, ReplayError
from ..kit.package import Package, late
from .describe import describe
from .game import GAME
from .movegen import legal_moves
from .notation import (
    COLOURS,
    SIZES,
    Build,
    Cell,
    Choose,
    Convert,
    Demolish,
    Discard,
    Draw,
    Fly,
    Grow,
    Hatch,
    Move,
    MovePiece,
    Place,
    Spawn,
    parse,
)
from .position import dumps, from_position, loads, to_position
from .rules import apply, movers, new_game, winners
from .ruleset import ZARK_CITY, Ruleset
from .state import HAND_LIMIT, RULES_VERSION, Square, State
from .views import public_move_text, view

# Zark City is the default game (engine.registry.DEFAULT) and the first in every list.
PACKAGE = Package(
    GAME,
    bots={"random": play_random, "greedy": late("engine.bots.greedy", "bot"), "mcts": late("engine.bots.mcts", "bot")},
    verifier="verify.py",
    script="board.js",
    order=1,
)

__all__ = [
    "COLOURS",
    "HAND_LIMIT",
    "RULES_VERSION",
    "SIZES",
    "Build",
    "Cell",
    "Choose",
    "Convert",
    "Demolish",
    "Discard",
    "Draw",
    "EngineError",
    "Fly",
    "Grow",
    "Hatch",
    "IllegalMoveError",
    "Move",
    "MovePiece",
    "NotationError",
    "PACKAGE",
    "Place",
    "PositionError",
    "ReplayError",
    "Ruleset",
    "Spawn",
    "Square",
    "State",
    "ZARK_CITY",
    "apply",
    "describe",
    "dumps",
    "from_position",
    "legal_moves",
    "loads",
    "movers",
    "new_game",
    "parse",
    "public_move_text",
    "to_position",
    "view",
    "winners",
]

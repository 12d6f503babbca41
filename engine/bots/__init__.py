"""Computer opponents: what pages call each bot, and the one call that picks a bot's move.

Which bots play a game is the game's own declaration (`Package.bots`, engine/kit/package.py): a name
from the table below and the function that plays it, weakest first.

A bot decides only from what its seat can see: `choose_move` first asks a game with hidden
information (`engine.kit.core.Hidden`) for a deal the seat cannot tell from the real one and hands
the bot only that, so the real hidden cards are never consulted. Given the same seed and the same
view, a bot plays the same move. docs/bots.md describes each bot and measures their strength.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import registry
from ..interface import Game
from ..kit.core import Chance, Hidden
from .rng import Rng


@dataclass(frozen=True)
class BotInfo:
    name: str  # "random" | "greedy" | "mcts" | "alphabeta"
    label: str  # what pages show
    summary: str  # one sentence for the new-game form and docs


RANDOM = BotInfo("random", "Random", "Plays any legal move, chosen at random.")
GREEDY = BotInfo(
    "greedy",
    "Greedy",
    "Looks one move ahead: wins at once when it can, blocks a rival's immediate win, and builds toward a block.",
)
MCTS = BotInfo(
    "mcts",
    "MCTS",
    "Searches a tree of its moves and the replies over many deals of the cards it cannot see, a few turns ahead.",
)
ALPHABETA = BotInfo("alphabeta", "Alpha-beta", "Looks three moves ahead and plays the best score it can force.")

_ALL = {info.name: info for info in (RANDOM, GREEDY, MCTS, ALPHABETA)}


# A bot: (game, a determinized state, seat, its playable moves, generator, effort) -> the move.
BotFn = Callable[[Game, Any, str, list[Any], Rng, float], Any]


def bots_for(game_id: str) -> tuple[BotInfo, ...]:
    """The bots that can play this game, weakest first (none for a game without bots)."""
    if game_id not in registry.ids():
        return ()
    return tuple(bot_info(name) for name in registry.package(game_id).bots)


def bot_info(name: str) -> BotInfo:
    """The bot called `name`; ValueError for an unknown name."""
    if name not in _ALL:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(_ALL)})")
    return _ALL[name]


def playable_moves(game: Game, state: Any, seat: str) -> list[Any]:
    """The seat's legal moves without resigning (kept only when nothing else is legal)."""
    moves = game.legal_moves(state, seat)
    playing = [move for move in moves if not game.is_resign(move)]
    return playing or moves


def choose_move(game: Game, bot: str, state: Any, seat: str, seed: str, *, effort: float = 1.0) -> str:
    """The notation text of the move `bot` plays for `seat` (one of game.movers(state)) now.

    Deterministic given `seed` and what `seat` can see. `effort` scales the search budget
    (1.0 = the full-strength default, 0.7 processor seconds a Turn Option for mcts at two players; tests use ~0.01).
    ValueError when the bot does not play this game or `seat` is not to move.
    """
    info = bot_info(bot)
    if info not in bots_for(game.info.id):
        raise ValueError(f"the {info.label} bot does not play {game.info.name}")
    if game.result(state) is not None or seat not in game.movers(state):
        raise ValueError(f"{seat} is not to move")
    rng = Rng.from_text(seed, game.info.id, bot, seat)
    seen = unseen_dealt(game, state, seat, rng)  # from here on, only what `seat` could know
    moves = playable_moves(game, seen, seat)
    if len(moves) == 1:
        return str(moves[0])
    play: BotFn = registry.package(game.info.id).bots[bot]
    return str(play(game, seen, seat, moves, rng, effort))


def unseen_dealt(game: Game, state: Any, seat: str, rng: Rng) -> Any:
    """A state `seat` cannot tell from `state`: secrets dealt again (Hidden), future chance reseeded
    (Chance); a game with neither hides nothing that could matter to a move."""
    if isinstance(game, Hidden):
        return game.determinize(state, seat, rng)
    if isinstance(game, Chance):
        return game.reseed(state, f"determinized:{rng.randrange(1 << 62)}")
    return state


def play_random(game: Game, state: Any, seat: str, moves: list[Any], rng: Rng, effort: float) -> Any:
    return rng.choice(moves)

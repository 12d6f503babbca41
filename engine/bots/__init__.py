"""Computer opponents: which bots play which game, and the one call that picks a bot's move.

A bot decides only from what its seat can see: it first asks the game for a state the seat cannot
tell from the real one (`Game.determinize`, engine/bots/kit.py `SeededBot`) and the bot's decision
gets only that, so the real hidden cards are never consulted. Given the same seed and the same view,
a bot plays the same move. docs/bots.md describes each bot and measures their strength.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import registry
from ..interface import Game
from . import kit
from .kit import BotFactory, BotFn, factory, playable_moves

__all__ = ["BotInfo", "bot_factory", "bot_info", "bots_for", "choose_move", "mcts_iterations", "playable_moves"]


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
    "Searches a tree of its moves and the replies over many deals of what it cannot see (cards, future dice).",
)
ALPHABETA = BotInfo("alphabeta", "Alpha-beta", "Looks three moves ahead and plays the best score it can force.")

_ALL = {info.name: info for info in (RANDOM, GREEDY, MCTS, ALPHABETA)}
# game id -> the bots written for that game alone, weakest first. Every registered game also gets the
# kit's `random` and `mcts` (engine/bots/kit.py), which know a game only through its interface.
_OWN: dict[str, tuple[BotInfo, ...]] = {
    "zarkcity": (GREEDY, MCTS),
    "decktown": (GREEDY, MCTS),
    "martianchess": (ALPHABETA,),
}


def bots_for(game_id: str) -> tuple[BotInfo, ...]:
    """The bots that can play this game (none for an unknown game): random, the kit's MCTS unless the
    game has its own, then the game's own bots weakest first (taken to be stronger than the kit's)."""
    if game_id not in registry.ids():
        return ()
    own = _OWN.get(game_id, ())
    return (RANDOM, *own) if MCTS in own else (RANDOM, MCTS, *own)


def bot_info(name: str) -> BotInfo:
    """The bot called `name`; ValueError for an unknown name."""
    if name not in _ALL:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(_ALL)})")
    return _ALL[name]


def choose_move(game: Game, bot: str, state: Any, seat: str, seed: str, *, effort: float = 1.0) -> str:
    """The notation text of the move `bot` plays for `seat` (one of game.movers(state)) now.

    Deterministic given `seed` and what `seat` can see. `effort` scales the search budget
    (1.0 = the full-strength default, 0.7 processor seconds a Turn Option for Zark City's mcts at two
    players; tests use ~0.01). ValueError when the bot does not play this game or `seat` is not to move.
    """
    info = bot_info(bot)
    if info not in bots_for(game.info.id):
        raise ValueError(f"the {info.label} bot does not play {game.info.name}")
    return str(bot_factory(game.info.id, bot)(seed, effort=effort).choose(game, state, seat))


def bot_factory(game_id: str, name: str) -> BotFactory:
    """The factory of the bot `name` for this game (seed -> a bot with `choose(game, state, seat)`)."""
    return factory(name, _decide(game_id, name))


def mcts_iterations(game_id: str) -> int:
    """The MCTS bot's iterations a move at effort 1.0 in this game: its own bot's, or the kit's."""
    if MCTS in _OWN.get(game_id, ()):
        from . import mcts

        return mcts.ITERATIONS
    return kit.ITERATIONS


def _decide(game_id: str, name: str) -> BotFn:
    # The games' own bots are imported when first asked for: each reads its game's own modules.
    if name == "alphabeta":
        from . import alphabeta

        return alphabeta.choose
    if name == "greedy":
        from . import greedy

        return greedy.bot
    if name == "mcts" and MCTS in _OWN.get(game_id, ()):
        from . import mcts

        return mcts.bot
    return kit.random_move if name == "random" else kit.Mcts()

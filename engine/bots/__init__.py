"""Computer opponents: what pages call each bot, and the one call that picks a bot's move.

Which bots play a game is the game's own declaration (`Package.bots`, engine/kit/package.py): a name
from the table below and the function that plays it, weakest first. A package that declares none
gets the kit's `random` and `mcts` (engine/bots/kit.py, `KIT_BOTS`), which know a game only through
its interface.

A bot decides only from what its seat can see: it first asks a game with hidden information
(`engine.kit.core.Hidden`) for a deal the seat cannot tell from the real one, or reseeds a game of
chance (`Chance`), and the bot's decision gets only that (`kit.SeededBot`), so the real hidden cards
are never consulted. Given the same seed and the same view, a bot plays the same move. docs/bots.md
describes each bot and measures their strength.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .. import registry
from ..interface import Game
from . import kit
from .kit import KIT_BOTS, BotFactory, BotFn, factory, playable_moves, random_move, unseen_dealt

__all__ = [
    "BotInfo",
    "bot_factory",
    "bot_info",
    "bots_for",
    "choose_move",
    "declared",
    "mcts_iterations",
    "play_random",
    "playable_moves",
    "unseen_dealt",
]

play_random = random_move  # the name the packages declare their random bot by


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


def declared(game_id: str) -> Mapping[str, Callable[..., Any]]:
    """The game's bots by name, weakest first: its package's, or the kit's when it declares none."""
    return registry.package(game_id).bots or KIT_BOTS


def bots_for(game_id: str) -> tuple[BotInfo, ...]:
    """The bots that can play this game, weakest first (none for an unknown game)."""
    if game_id not in registry.ids():
        return ()
    return tuple(bot_info(name) for name in declared(game_id))


def bot_info(name: str) -> BotInfo:
    """The bot called `name`; ValueError for an unknown name."""
    if name not in _ALL:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(_ALL)})")
    return _ALL[name]


def choose_move(game: Game, bot: str, state: Any, seat: str, seed: str, *, effort: float = 1.0) -> str:
    """The notation text of the move `bot` plays for `seat` (one of game.movers(state)) now.

    Deterministic given `seed` and what `seat` can see. `effort` scales the search budget (1.0 = the
    full-strength default; tests use ~0.01). ValueError when the bot does not play this game or
    `seat` is not to move.
    """
    info = bot_info(bot)
    if info not in bots_for(game.info.id):
        raise ValueError(f"the {info.label} bot does not play {game.info.name}")
    return str(bot_factory(game.info.id, bot)(seed, effort=effort).choose(game, state, seat))


def bot_factory(game_id: str, name: str) -> BotFactory:
    """The factory of the bot `name` for this game (seed -> a bot with `choose(game, state, seat)`)."""
    decide: BotFn = declared(game_id)[name]
    return factory(name, decide)


def mcts_iterations(game_id: str) -> int:
    """The MCTS bot's iterations a move at effort 1.0 in this game: the kit's (with or without the
    game's evaluation plugged in), or its own bot's."""
    search = declared(game_id).get("mcts")
    if isinstance(search, kit.Mcts):
        return search.iterations
    from . import mcts  # the Zark City family's own search, read only for a game that declares it

    return mcts.ITERATIONS

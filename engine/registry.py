"""The registry of games: one line per game (games.md ids). Apps find a game here and nowhere else."""

from __future__ import annotations

import importlib

from .interface import Game, GameInfo

# id -> the module holding that game's `GAME` (an object implementing engine.interface.Game).
_MODULES = {
    "zarkcity": "engine.zarkcity.game",
    "decktown": "engine.decktown.game",
    "martianchess": "engine.martianchess.game",
    "buyersmarket": "engine.buyersmarket.game",
    "homeworlds": "engine.homeworlds.game",
}
DEFAULT = "zarkcity"  # a file or stored game that names no game is Zark City (games.md)
_loaded: dict[str, Game] = {}


def ids() -> tuple[str, ...]:
    return tuple(_MODULES)


def get(game_id: str | None = None) -> Game:
    """The game with this id; ValueError naming the known ids when there is none."""
    key = DEFAULT if game_id in (None, "") else str(game_id)
    if key not in _MODULES:
        raise ValueError(f"unknown game {key!r} (known: {', '.join(_MODULES)})")
    if key not in _loaded:
        _loaded[key] = importlib.import_module(_MODULES[key]).GAME
    return _loaded[key]


def all_games() -> tuple[Game, ...]:
    return tuple(get(game_id) for game_id in _MODULES)


def infos() -> tuple[GameInfo, ...]:
    return tuple(game.info for game in all_games())


def reasons() -> tuple[str, ...]:
    """Every reason any game can end with (`GameInfo.reasons`), each once, in registry order."""
    return tuple(dict.fromkeys(reason for info in infos() for reason in info.reasons))

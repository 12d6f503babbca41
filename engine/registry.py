"""The registry of games: every package under engine/ that declares `PACKAGE` (engine/kit/package.py).

Apps find a game here and nowhere else. A new game adds its package and nothing in this file: the
registry looks for `engine/<id>/__init__.py` files that define `PACKAGE` and orders them by the
package's `order`, then by id.
"""

from __future__ import annotations

import importlib
import os
import re
from functools import cache

from .interface import Game, GameInfo
from .kit.package import ENGINE, Package

DEFAULT = "zarkcity"  # a file or stored game that names no game is Zark City (games.md)
# A package declares itself on a line of its own, `PACKAGE = Package(`: read without importing every
# folder under engine/ (the kit, the bots and the shared modules declare none).
_DECLARES = re.compile(r"^PACKAGE\s*(?::[^=]*)?=", re.MULTILINE)


@cache
def packages() -> tuple[Package, ...]:
    """Every game's package, in the lobby's order."""
    found = []
    for name in sorted(os.listdir(ENGINE)):
        init = os.path.join(ENGINE, name, "__init__.py")
        if os.path.isfile(init) and _declares(init):
            package = importlib.import_module(f"engine.{name}").PACKAGE
            if package.id != name:
                raise ValueError(f"engine/{name} declares the game {package.id!r}: a package is named by its id")
            found.append(package)
    return tuple(sorted(found, key=lambda p: (p.order, p.id)))


def _declares(init: str) -> bool:
    with open(init, encoding="utf-8") as file:
        return _DECLARES.search(file.read()) is not None


@cache
def _by_id() -> dict[str, Package]:
    return {package.id: package for package in packages()}


def ids() -> tuple[str, ...]:
    return tuple(_by_id())


def package(game_id: str | None = None) -> Package:
    """The package of the game with this id; ValueError naming the known ids when there is none."""
    key = DEFAULT if game_id in (None, "") else str(game_id)
    if key not in _by_id():
        raise ValueError(f"unknown game {key!r} (known: {', '.join(ids())})")
    return _by_id()[key]


def get(game_id: str | None = None) -> Game:
    """The game with this id; ValueError naming the known ids when there is none."""
    game: Game = package(game_id).game
    return game


def all_games() -> tuple[Game, ...]:
    return tuple(p.game for p in packages())


def infos() -> tuple[GameInfo, ...]:
    return tuple(game.info for game in all_games())


def reasons() -> tuple[str, ...]:
    """Every reason any game can end with (`GameInfo.reasons`), each once, in registry order."""
    return tuple(dict.fromkeys(reason for info in infos() for reason in info.reasons))

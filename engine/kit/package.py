"""A game package's one declaration: everything the service finds about a game, in one place.

Each `engine/<id>/__init__.py` defines `PACKAGE = Package(...)`; the registry (engine/registry.py)
finds the packages by that name, and the command line, the arena, the offline verifier and the
static files read them there and nowhere else (docs/games.md, "The package declaration").
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

# engine/: a package's files are under engine/<id>/ (os.path: pathlib imports urllib, which the
# engine may not, tests/engine/test_purity.py)
ENGINE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@dataclass(frozen=True)
class Package:
    game: Any  # the object implementing engine.interface.Game (a KitGame for games on the kit)
    # Bot name -> the bot, weakest first: `(game, state seen by the seat, seat, its playable moves, rng,
    # effort) -> move` (engine.bots.BotFn). The lobby, the API and the arena offer these and no others.
    bots: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    # The standard-library offline verifier (a script that imports nothing of engine/), relative to the
    # package's folder: "verify.py". tools/verify_game.py runs it; the verify page offers it to download.
    verifier: str = ""
    script: str = ""  # the board's ES module under the package's static/ ("" : the kit's click script)
    style: str = ""  # the board's stylesheet under the package's static/, if it has one
    # Where the lobby and every list place the game: lower first, ties by id (the registry's order).
    order: int = 100

    @property
    def id(self) -> str:
        return str(self.game.info.id)

    @property
    def folder(self) -> str:
        """engine/<id>/: the package's own files."""
        return os.path.join(ENGINE, self.id)

    @property
    def static_folder(self) -> str:
        """engine/<id>/static/: served under `static_prefix` (settings.STATICFILES_DIRS)."""
        return os.path.join(self.folder, "static")

    @property
    def has_static(self) -> bool:
        return os.path.isdir(self.static_folder)

    @property
    def static_prefix(self) -> str:
        """The static path the package's static/ files are served under: "games/<id>"."""
        return f"games/{self.id}"

    def static_path(self, name: str) -> str:
        """A file of the package's static/ as a static path ({% static %}), e.g. "games/<id>/board.js"."""
        return f"{self.static_prefix}/{name}"

    @property
    def verifier_path(self) -> str | None:
        """The offline verifier's file, or None when the game has none."""
        return os.path.normpath(os.path.join(self.folder, self.verifier)) if self.verifier else None

    @property
    def verifier_name(self) -> str:
        """The name the verify page downloads the verifier as: "verify_<id>.py"."""
        return f"verify_{self.id}.py"


def late(module: str, name: str) -> Callable[..., Any]:
    """The function `name` of `module`, imported when first called: a bot module that imports its game's
    own modules (engine.bots.greedy imports engine.zarkcity.notation) cannot be imported while that
    game's package is still declaring itself."""

    @cache
    def found() -> Callable[..., Any]:
        function: Callable[..., Any] = getattr(importlib.import_module(module), name)
        return function

    def call(*args: Any, **kwargs: Any) -> Any:
        return found()(*args, **kwargs)

    call.__name__ = call.__qualname__ = f"{module}.{name}"
    return call

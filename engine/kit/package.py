"""A game package's one declaration: everything the service finds about a game, in one place.

Each `engine/<id>/__init__.py` defines `PACKAGE = Package(...)`; the registry, the command line,
the arena, the offline verifier and the static files read it there and nowhere else.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Package:
    game: Any  # the object implementing engine.interface.Game (a KitGame for games on the kit)
    # Bot name -> factory (seed -> a bot with `choose(game, state, seat)`): what the lobby and the arena offer.
    bots: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    verifier: str = ""  # the standard-library offline verifier, a file in the package ("verify.py")
    script: str = ""  # the board's ES module under the package's static/ ("" : the kit's click script)
    style: str = ""  # the board's stylesheet under the package's static/, if it has one

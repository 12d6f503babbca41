"""The whole truth of a Martian Chess game at one moment, as an immutable value.

`apply(state, move, by)` returns a new State and never changes the one it was given. The board is a
plain dict for speed; by contract nobody mutates it after construction.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .board import POINTS, Cell, zone_of

GAME_ID = "martianchess"
RULES_VERSION = "martianchess/1"
PLAYER_COUNTS = (2, 4)
REASONS = ("score", "resignation", "timeout", "draw")


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]  # seat colours in seating order: seat i owns zone i (board.zone_of)
    board: Mapping[Cell, str]  # cell -> S, M or L; colour means nothing
    to_move: str | None  # None once the game is over
    captured: Mapping[str, tuple[str, ...]]  # each player's captured sizes, in the order taken
    seed: str = ""  # decided who starts (engine/shuffle.py); secret until the game ends
    turn: int = 1  # the number of the move to be made: 1 is the first
    last_crossing: tuple[Cell, Cell] | None = None  # (from, to) when the previous move crossed a canal
    last_move: tuple[str, str] | None = None  # (colour, notation) of the previous move, for the picture
    resigned: tuple[str, ...] = ()
    winner: str | None = None
    reason: str | None = None  # score | resignation | timeout | draw; None while the game is on
    extra: Mapping[str, Any] = field(default_factory=dict)  # unused: reserved like Zark City's

    @property
    def phase(self) -> str:
        return "over" if self.reason is not None else "play"

    def seat(self, colour: str) -> int:
        return self.players.index(colour)

    def zone_owner(self, cell: Cell) -> str:
        return self.players[zone_of(cell, len(self.players))]

    def controls(self, colour: str) -> dict[Cell, str]:
        """The pieces `colour` controls: all and only those standing in their zone."""
        seat, count = self.seat(colour), len(self.players)
        return {cell: size for cell, size in self.board.items() if zone_of(cell, count) == seat}

    def score(self, colour: str) -> int:
        return sum(POINTS[size] for size in self.captured.get(colour, ()))

    def scores(self) -> dict[str, int]:
        return {colour: self.score(colour) for colour in self.players}

    def active_players(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p not in self.resigned)

    def evolve(self, **changes: Any) -> State:
        return replace(self, **changes)

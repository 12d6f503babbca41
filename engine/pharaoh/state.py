"""Pharaoh's immutable State: the seats, the board, this turn's throw and what is left of it."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, NamedTuple

from .board import SIZES

GAME_ID = "pharaoh"
RULES_VERSION = "pharaoh/1"
PLAYER_COUNTS = (2, 3, 4)
REASONS = ("goal-line", "resignation", "timeout", "draw")


class Piece(NamedTuple):
    colour: str
    size: str

    def __str__(self) -> str:
        return f"{self.colour}:{self.size}"


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]  # seating order: the edges follow it (REC-P1)
    seed: str
    first_player: str
    to_move: str | None  # None once the game is over
    throw: int  # this turn's die
    points: int  # what is left of it
    board: tuple[tuple[str, Piece], ...]  # (cell, piece), sorted by cell
    dice: int  # throws made so far: the next one is number `dice`
    resigned: tuple[str, ...] = ()
    winner: str | None = None
    reason: str | None = None

    @cached_property
    def squares(self) -> dict[str, Piece]:
        return dict(self.board)

    def at(self, cell: str) -> Piece | None:
        return self.squares.get(cell)

    def cell_of(self, colour: str, size: str) -> str | None:
        return next((cell for cell, piece in self.board if piece == (colour, size)), None)

    def supply(self, colour: str) -> tuple[str, ...]:
        """The pieces of `colour` not on the board (none once they resigned: theirs left for good)."""
        if colour in self.resigned:
            return ()
        placed = {piece.size for _, piece in self.board if piece.colour == colour}
        return tuple(size for size in SIZES if size not in placed)

    def active_players(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p not in self.resigned)

    @property
    def over(self) -> bool:
        return self.reason is not None

    def with_board(self, squares: dict[str, Piece]) -> State:
        return self.evolve(board=tuple(sorted(squares.items())))

    def evolve(self, **changes: Any) -> State:
        return replace(self, **changes)

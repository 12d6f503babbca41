"""Launch Pad 23's pieces, complex and immutable State (../shared/spec/launchpad23.md)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

COLOURS = ("red", "yellow", "green", "blue", "black")
SIZES = ("S", "M", "L")
COPIES = 2  # two Rainbow Stashes: two pieces of each kind
PYRAMID_FACES = ("S", "M", "L", "S/M", "S/L", "M/L")
COLOUR_FACES = (*COLOURS, "atom")
CELLS = ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")
FACTORY = "b2"
# REC-L1: pads in seating order, clockwise from a1.
PADS = {2: ("a1", "c3"), 3: ("a1", "a3", "c3"), 4: ("a1", "a3", "c3", "c1")}
PHASES = ("start", "add", "move", "over")


class Piece(NamedTuple):
    colour: str
    size: str

    def __str__(self) -> str:
        return f"{self.colour}:{self.size}"


KINDS = tuple(Piece(colour, size) for size in SIZES for colour in COLOURS)
Board = tuple[tuple[Piece, ...], ...]  # the pieces of each cell, in CELLS order
EMPTY: Board = tuple(() for _ in CELLS)


def adjacent(one: str, two: str) -> bool:
    """Through a side only: one file or one rank apart, not both."""
    files, ranks = abs(ord(one[0]) - ord(two[0])), abs(int(one[1]) - int(two[1]))
    return files + ranks == 1


@cache  # fixed by the grid: asked for every piece of every listing (the bots' searches list often)
def neighbours(cell: str) -> tuple[str, ...]:
    return tuple(other for other in CELLS if adjacent(cell, other))


def piece_order(piece: Piece) -> tuple[int, int]:
    """Large first, then colour order: how the engine writes a cell."""
    return (-SIZES.index(piece.size), COLOURS.index(piece.colour))


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    seed: str
    phase: str = "start"
    starts: tuple[str | None, ...] = ()  # each seat's opening size, None until chosen
    first_player: str | None = None
    to_move: str | None = None
    throw: tuple[str, str] | None = None  # (pyramid face, colour face)
    rerolled: bool = False
    moves_left: int = 0
    board: Board = EMPTY
    dice: int = 0  # dice thrown so far (the next die is number `dice`)
    turns: int = 0  # grows at each new turn: the steps of one turn share it
    resigned: tuple[str, ...] = ()
    winners: tuple[str, ...] = ()
    reason: str | None = None

    def cell(self, name: str) -> tuple[Piece, ...]:
        return self.board[CELLS.index(name)]

    def pad(self, seat: str) -> str:
        return PADS[len(self.players)][self.players.index(seat)]

    def seated(self) -> tuple[str, ...]:
        return tuple(seat for seat in self.players if seat not in self.resigned)

    def pad_owner(self, cell: str) -> str | None:
        """The seated player whose pad `cell` is; None for a depot, the Factory or a left pad."""
        return next((seat for seat in self.seated() if self.pad(seat) == cell), None)

    def start_of(self, seat: str) -> str | None:
        return self.starts[self.players.index(seat)]

    def on_board(self, kind: Piece) -> int:
        return sum(cell.count(kind) for cell in self.board)

    def in_bank(self, kind: Piece) -> int:
        return COPIES - self.on_board(kind)


def with_cell(board: Board, name: str, pieces: tuple[Piece, ...]) -> Board:
    index = CELLS.index(name)
    return (*board[:index], tuple(sorted(pieces, key=piece_order)), *board[index + 1 :])


def put(board: Board, name: str, piece: Piece) -> Board:
    return with_cell(board, name, (*board[CELLS.index(name)], piece))


def take(board: Board, name: str, piece: Piece) -> Board:
    pieces = list(board[CELLS.index(name)])
    pieces.remove(piece)
    return with_cell(board, name, tuple(pieces))


def is_rocket(pieces: tuple[Piece, ...]) -> bool:
    """Exactly five pieces, one of each colour, all the same size."""
    return len(pieces) == 5 and {p.colour for p in pieces} == set(COLOURS) and len({p.size for p in pieces}) == 1

"""The board's geometry: cells, zones, canals and the starting setup (martian_chess.md, Board and zones).

Cells are (file, rank) pairs counted from 0: a1 is (0, 0), d8 is (3, 7). The 2-player game uses
files a-d of the chessboard; the 4-player game all eight.
"""

from __future__ import annotations

import re

from ..errors import NotationError, shown

Cell = tuple[int, int]
RANKS = 8
SIZES = ("S", "M", "L")
POINTS = {"S": 1, "M": 2, "L": 3}
NAMES = {"S": "Pawn", "M": "Drone", "L": "Queen"}
_CELL = re.compile(r"^([a-h])([1-8])$")


def files(players: int) -> int:
    """The board's width: 4 files for two players, the whole chessboard for four."""
    return 4 if players == 2 else 8


def cell_name(cell: Cell) -> str:
    return "abcdefgh"[cell[0]] + str(cell[1] + 1)


def parse_cell(text: str) -> Cell:
    """A cell in chess notation ("c2", any case) on the 8 x 8 board; NotationError when not one."""
    match = _CELL.match(text.strip().lower())
    if not match:
        raise NotationError(f"{shown(text)} is not a cell (write a file a-h and a rank 1-8, like c2)")
    return "abcdefgh".index(match.group(1)), int(match.group(2)) - 1


def on_board(cell: Cell, players: int) -> bool:
    return 0 <= cell[0] < files(players) and 0 <= cell[1] < RANKS


def all_cells(players: int) -> tuple[Cell, ...]:
    """Every cell, rank 1 first, then by file."""
    return tuple((f, r) for r in range(RANKS) for f in range(files(players)))


def zone_of(cell: Cell, players: int) -> int:
    """The seat whose zone holds `cell`: 2 players split at the canal between ranks 4 and 5; 4 players
    take the quadrants a1-d4, a5-d8, e5-h8, e1-h4 in seating order (clockwise seen from above)."""
    north = cell[1] >= 4
    if players == 2:
        return 1 if north else 0
    if cell[0] < 4:
        return 1 if north else 0
    return 2 if north else 3


def zone_cells(seat: int, players: int) -> tuple[Cell, ...]:
    return tuple(cell for cell in all_cells(players) if zone_of(cell, players) == seat)


def outer_corner(seat: int, players: int) -> Cell:
    """The board corner inside a zone: a1 and d8 for two players; a1, a8, h8, h1 for four."""
    if players == 2:
        return ((0, 0), (3, 7))[seat]
    return ((0, 0), (0, 7), (7, 7), (7, 0))[seat]


def setup(players: int) -> dict[Cell, str]:
    """Nine pieces per zone in the 3 x 3 square at its outer corner: Queens 0-1 steps from the corner,
    Drones 2 steps, Pawns 3-4 steps (steps counted along files plus ranks)."""
    board: dict[Cell, str] = {}
    for seat in range(players):
        cf, cr = outer_corner(seat, players)
        for cell in zone_cells(seat, players):
            df, dr = abs(cell[0] - cf), abs(cell[1] - cr)
            if df <= 2 and dr <= 2:
                board[cell] = "L" if df + dr <= 1 else "M" if df + dr == 2 else "S"
    return board


# Move patterns: (direction, how many steps at most). The Queen's reach is bounded by the board.
ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
PATTERNS: dict[str, tuple[tuple[Cell, ...], int]] = {
    "S": (DIAGONAL, 1),
    "M": (ORTHOGONAL, 2),
    "L": (ORTHOGONAL + DIAGONAL, RANKS),
}


def line(start: Cell, end: Cell) -> tuple[Cell, ...] | None:
    """The cells strictly between two cells on one file, rank or diagonal; None when not on one."""
    df, dr = end[0] - start[0], end[1] - start[1]
    if (df, dr) == (0, 0) or (df and dr and abs(df) != abs(dr)):
        return None
    steps = max(abs(df), abs(dr))
    sf, sr = (df > 0) - (df < 0), (dr > 0) - (dr < 0)
    return tuple((start[0] + sf * i, start[1] + sr * i) for i in range(1, steps))


def fits_pattern(size: str, start: Cell, end: Cell) -> bool:
    """Whether a piece of `size` may go from start to end on an empty board."""
    df, dr = abs(end[0] - start[0]), abs(end[1] - start[1])
    if size == "S":
        return df == 1 and dr == 1
    if size == "M":
        return (df == 0) != (dr == 0) and df + dr <= 2
    return line(start, end) is not None

"""Pharaoh's board (pharaoh.md): 21 cells of a 5 x 5 grid without its corners, the edges, the goal-lines.

Cells are chess names, files `a`-`e`, ranks `1`-`5`, rank 1 at the bottom. Everything here is fixed
by the board or by the number of seats, so it is computed once.
"""

from __future__ import annotations

FILES = "abcde"
CORNERS = frozenset({"a1", "e1", "a5", "e5"})
CELLS = tuple(f"{f}{r}" for r in range(1, 6) for f in FILES if f"{f}{r}" not in CORNERS)
SIZES = ("S", "M", "L")
PIPS = {"S": 1, "M": 2, "L": 3}
NAMES = {"S": "Small", "M": "Medium", "L": "Large"}

EDGES = {
    "south": ("b1", "c1", "d1"),
    "west": ("a2", "a3", "a4"),
    "north": ("b5", "c5", "d5"),
    "east": ("e2", "e3", "e4"),
}
# REC-P1: the edges in seating order, clockwise seen from above with south at the bottom.
SEATING = {2: ("south", "north"), 3: ("south", "west", "north"), 4: ("south", "west", "north", "east")}

ROW, COLUMN = ("b3", "c3", "d3"), ("c2", "c3", "c4")
DIAGONALS = (("b2", "c3", "d4"), ("b4", "c3", "d2"))
# REC-P2: the goal-lines that count, by the number of seats at the start (a resignation changes nothing).
GOAL_LINES = {2: (ROW,), 3: (ROW, COLUMN), 4: (ROW, COLUMN, *DIAGONALS)}


def xy(cell: str) -> tuple[int, int]:
    return FILES.index(cell[0]), int(cell[1]) - 1


def is_cell(text: str) -> bool:
    return text in CELLS


def step_kind(start: str, end: str) -> str | None:
    """ "orthogonal" or "diagonal" when the cells touch by a side or a corner, else None."""
    (x1, y1), (x2, y2) = xy(start), xy(end)
    dx, dy = abs(x1 - x2), abs(y1 - y2)
    if max(dx, dy) != 1:
        return None
    return "diagonal" if dx and dy else "orthogonal"


NEIGHBOURS = {cell: tuple(other for other in CELLS if step_kind(cell, other)) for cell in CELLS}


def step_cost(size: str, start: str, end: str) -> int:
    """An orthogonal step costs the piece's pips, a diagonal one twice that."""
    return PIPS[size] * (2 if step_kind(start, end) == "diagonal" else 1)


def edges_of(players: tuple[str, ...]) -> dict[str, str]:
    """Seat colour -> the name of its edge (REC-P1)."""
    return dict(zip(players, SEATING[len(players)], strict=True))


def edge_cells(players: tuple[str, ...], seat: str) -> tuple[str, ...]:
    return EDGES[edges_of(players)[seat]]


def goal_lines(seats: int) -> tuple[tuple[str, str, str], ...]:
    return GOAL_LINES[seats]

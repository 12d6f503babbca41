"""Board geometry of Zark City: neighbours, 8-connectivity, the six trominoes and Power Blocks.

The win check is local: a Power Block that a step creates contains a cell whose control that
step changed, so only the 18 tromino placements through each such cell are looked at.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from .cards import CARDS
from .notation import Cell
from .state import Square

SIDE_STEPS: tuple[Cell, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))
CORNER_STEPS: tuple[Cell, ...] = ((1, 1), (1, -1), (-1, 1), (-1, -1))
TOUCH_STEPS = SIDE_STEPS + CORNER_STEPS

# The six Blocks (rules.md 1.5): two straight lines and the four L's, anchored at their minimum corner.
TROMINOES: tuple[tuple[Cell, Cell, Cell], ...] = (
    ((0, 0), (1, 0), (2, 0)),
    ((0, 0), (0, 1), (0, 2)),
    ((0, 0), (1, 0), (0, 1)),
    ((0, 0), (1, 0), (1, 1)),
    ((0, 0), (0, 1), (1, 1)),
    ((1, 0), (0, 1), (1, 1)),
)


def _placements_through_origin() -> tuple[tuple[Cell, Cell], ...]:
    """Every tromino placement covering (0, 0), as the offsets of its two other cells (18 of them)."""
    found = []
    for shape in TROMINOES:
        for ox, oy in shape:
            others = [(x - ox, y - oy) for x, y in shape if (x, y) != (ox, oy)]
            found.append((others[0], others[1]))
    return tuple(found)


_THROUGH_ORIGIN = _placements_through_origin()


def sides(cell: Cell) -> tuple[Cell, ...]:
    """The four orthogonally adjacent cells (sides touching)."""
    x, y = cell
    return ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))


def touches_card(board: Mapping[Cell, Square], cell: Cell, ignoring: Cell | None = None) -> bool:
    """Whether a card lies orthogonally next to `cell` (a card at `ignoring` does not count)."""
    return any(n in board and n != ignoring for n in sides(cell))


def occupies(square: Square | None, colour: str) -> bool:
    return square is not None and any(owner == colour for owner, _ in square.pieces)


def pieces_on_board(board: Mapping[Cell, Square], colour: str, size: str) -> int:
    piece = (colour, size)
    return sum(square.pieces.count(piece) for square in board.values())


def has_pieces(board: Mapping[Cell, Square], colour: str) -> bool:
    return any(occupies(square, colour) for square in board.values())


def is_connected(cells: Collection[Cell]) -> bool:
    """Whether the cards form one section, corners touching counting as a link (rules.md 8)."""
    if not cells:
        return True
    cell_set = set(cells)
    start = next(iter(cell_set))
    seen = {start}
    frontier = [start]
    while frontier:
        x, y = frontier.pop()
        for dx, dy in TOUCH_STEPS:
            n = (x + dx, y + dy)
            if n in cell_set and n not in seen:
                seen.add(n)
                frontier.append(n)
    return len(seen) == len(cell_set)


def is_power_block(first: str, second: str, third: str) -> bool:
    """Three of a Kind (same rank) or a Suited Run (one suit, consecutive numbers in any order)."""
    a, b, c = CARDS[first], CARDS[second], CARDS[third]
    if a.rank == b.rank == c.rank:
        return True
    if not a.suit == b.suit == c.suit:
        return False
    low, mid, high = sorted((a.number, b.number, c.number))
    return low > 0 and mid == low + 1 and high == mid + 1


def winners_through(board: Mapping[Cell, Square], cells: Iterable[Cell]) -> set[str]:
    """Players who control all three cards of a Power Block that covers one of `cells`."""
    found: set[str] = set()
    for cell in cells:
        square = board.get(cell)
        owner = square.controller() if square is not None else None
        if square is None or owner is None or owner in found:
            continue
        if _controls_power_block_at(board, cell, square, owner):
            found.add(owner)
    return found


def _controls_power_block_at(board: Mapping[Cell, Square], cell: Cell, square: Square, owner: str) -> bool:
    x, y = cell
    for (ax, ay), (bx, by) in _THROUGH_ORIGIN:
        a = board.get((x + ax, y + ay))
        if a is None or a.controller() != owner:
            continue
        b = board.get((x + bx, y + by))
        if b is not None and b.controller() == owner and is_power_block(square.card, a.card, b.card):
            return True
    return False

"""Board geometry of Zark City: neighbours, 8-connectivity, the six trominoes and Power Blocks.

The win check is local: a Power Block that a step creates contains a cell whose control that
step changed, so only the 18 tromino placements through each such cell are looked at.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from .cards import CARDS
from .notation import Cell
from .square import Square

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
_NEAR_ORIGIN = tuple(sorted({offset for pair in _THROUGH_ORIGIN for offset in pair}))  # the 12 cells they reach


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


def fly_keeps_connected(board: Mapping[Cell, Square], src: Cell, dst: Cell) -> bool:
    """Whether the cards stay one section when the card at `src` flies to `dst` (rules.md 8, A10).

    Assumes the board is connected now (an invariant) and `dst` touches a side of another card.
    Then lifting `src` keeps the rest together when the cards around `src` link up among
    themselves; only when they do not is the whole new layout searched.
    """
    x, y = src
    around = {(x + dx, y + dy) for dx, dy in TOUCH_STEPS if (x + dx, y + dy) in board or (x + dx, y + dy) == dst}
    if is_connected(around):
        return True
    return is_connected((board.keys() - {src}) | {dst})


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
        if square is None or not square.pieces:
            continue
        owner = square.pieces[0][0]
        if owner in found or not controlled_by(square, owner):
            continue
        if _controls_power_block_at(board, cell, square, owner):
            found.add(owner)
    return found


def _controls_power_block_at(board: Mapping[Cell, Square], cell: Cell, square: Square, owner: str) -> bool:
    x, y = cell
    mine: dict[Cell, str] = {}
    for dx, dy in _NEAR_ORIGIN:
        other = board.get((x + dx, y + dy))
        if other is not None and controlled_by(other, owner):
            mine[(dx, dy)] = other.card
    if len(mine) < 2:
        return False
    return any(a in mine and b in mine and is_power_block(square.card, mine[a], mine[b]) for a, b in _THROUGH_ORIGIN)


def controlled_by(square: Square, colour: str) -> bool:
    """Whether `colour` is the card's sole occupant; pieces are sorted, so first and last tell."""
    pieces = square.pieces
    return bool(pieces) and pieces[0][0] == colour and pieces[-1][0] == colour

"""The plain-text board of a `Scene`, for emails and replies: the same description as the picture,
item by item in the scene's order.

A piece is its colour's letter and its size (`rL`: red Large; `k` is black, `w` white, `c` clear, `?` hidden),
a lying piece adds where it points (`rL>`, `rL<`, `rL^`, `rLv`), a stack joins its pieces bottom to
top with `+` (`rL+gS`); spots sharing a cell are joined by `,`; `##` is a blocked cell, `.` an empty one.
"""

from __future__ import annotations

from .scene import Box, Card, Cell, Die, Grid, Item, Label, Link, Piece, Pyramid, Scene, Spot, Zone, cell_names

LETTERS = {"red": "r", "yellow": "y", "green": "g", "blue": "b", "black": "k", "white": "w", "clear": "c"}
LETTERS["hidden"] = "?"
POINTS = {"": "", "left": "<", "right": ">", "up": "^", "down": "v"}


def text(scene: Scene) -> str:
    """Every item that says something, a block or a line each, blocks separated by a blank line."""
    blocks = [block for item in scene.items if (block := _item(item))]
    return "\n\n".join(blocks)


def piece_text(piece: Pyramid) -> str:
    return LETTERS.get(piece.colour, piece.colour[:1]) + piece.size + POINTS[piece.lying]


def spot_text(spot: Spot) -> str:
    if isinstance(spot, Pyramid):
        return piece_text(spot)
    return "+".join(piece_text(p) for p in spot.pieces)


def spots_text(spots: tuple[Spot, ...], empty: str = "empty") -> str:
    return " ".join(spot_text(spot) for spot in spots) or empty


def _item(item: Item) -> str:
    if isinstance(item, Grid):
        return grid_text(item)
    if isinstance(item, Zone):
        return f"{item.title}: {spots_text(item.spots, item.empty)}"
    if isinstance(item, Box):
        return f"{item.title}: {spots_text(item.spots)}" if item.title else ""
    if isinstance(item, Piece):
        return spot_text(item.spot)
    if isinstance(item, Die):
        return f"{item.title}: {item.face}"
    if isinstance(item, Card):
        return "[card]" if item.face_down else f"[{item.label}]"
    if isinstance(item, Label):
        return item.text if item.in_text else ""
    assert isinstance(item, Link)
    return ""


def cell_text(cell: Cell) -> str:
    if cell.text:
        return cell.text
    if cell.blocked:
        return "##"
    return ",".join(spot_text(spot) for spot in cell.spots) or "."


def grid_text(grid: Grid) -> str:
    """Rank by rank, the top rank first, the file letters under the columns."""
    given = {cell.name: cell for cell in grid.cells}
    names = cell_names(grid)
    tokens = [cell_text(given.get(name, Cell(name))) for name in names]
    width = max(2, *(len(t) for t in tokens))
    margin = len(str(grid.ranks)) + 1
    rows = []
    for rank in range(grid.ranks, 0, -1):
        row = tokens[(rank - 1) * grid.files : rank * grid.files]
        rows.append(f"{rank:>{margin - 1}} " + " ".join(t.ljust(width) for t in row).rstrip())
    files = "abcdefghijklmnopqrstuvwxyz"[: grid.files]
    rows.append(" " * margin + " ".join(f.ljust(width) for f in files).rstrip())
    heading = [grid.title] if grid.title else []
    return "\n".join(heading + rows)

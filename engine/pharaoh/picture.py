"""Pharaoh's board as the drawing kit's description (engine/kit/draw): the page's SVG, the email's
picture and the text board all come from this one `scene`.

The 5 x 5 grid with its blocked corners, pieces seen from the side, each edge tinted by its owner,
the goal-lines that count dotted; under the board the die showing the throw with the points left,
then each seat's supply. Targets for the kit's click script: every cell by name, and the viewer's
own supply pieces as `supply:S`, `supply:M`, `supply:L` (`enter M c1` is supply:M, then c1).
"""

from __future__ import annotations

from ..kit import draw
from .board import CELLS, CORNERS, NAMES
from .notation import Enter, Move
from .views import PharaohView

CELL = 62
LEFT, TOP = 28, 8
WIDTH = LEFT + 5 * CELL + 22  # 360: a phone's width, drawn one to one
ZONE_WIDTH, ZONE_GAP = 147, 8


def scene(view: PharaohView) -> draw.Scene:
    grid = draw.Grid(LEFT, TOP, 5, 5, cell=CELL, cells=_cells(view), seen="side", title="The board (rank 5 on top)")
    below = TOP + 5 * CELL + 28
    items: list[draw.Item] = [grid, *_die(view, below)]
    zones = _supplies(view, below + 56)
    items += zones
    bottom = max((zone.y + draw.zone_height(zone) for zone in zones), default=below + 56)
    return draw.Scene(WIDTH, bottom + 8, tuple(items), title=_title(view))


def _title(view: PharaohView) -> str:
    pieces = ", ".join(f"{piece.replace(':', ' ')} on {cell}" for cell, piece in view["board"].items())
    return f"Pharaoh board: {pieces or 'no pieces on the board'}"


def _cells(view: PharaohView) -> tuple[draw.Cell, ...]:
    owners = {
        cell: colour for colour, cells in view["edges"].items() if colour not in view["resigned"] for cell in cells
    }
    lines = {cell for line in view["goal_lines"] for cell in line}
    cells = [draw.Cell(corner, blocked=True) for corner in sorted(CORNERS)]
    for cell in CELLS:
        piece = view["board"].get(cell)
        spots = (_pyramid(piece),) if piece else ()
        cells.append(draw.Cell(cell, spots=spots, tint=owners.get(cell, ""), label="•" if cell in lines else ""))
    return tuple(cells)


def _pyramid(piece: str, target: str = "") -> draw.Pyramid:
    colour, size = piece.split(":")
    assert size in draw.SIZES
    return draw.Pyramid(colour, size, target=target, title=f"{colour}'s {NAMES[size]}")


def _die(view: PharaohView, y: float) -> list[draw.Item]:
    """The die showing this turn's throw, whose it is and the points left; the result once it is over."""
    if view["phase"] == "over":
        winner = view["winner"]
        said = f"Game over: {winner} wins ({view['reason']})" if winner else f"Game over: no winner ({view['reason']})"
        return [draw.Label(LEFT, y + 26, said, size=17, bold=True)]
    mover = view["to_move"] or ""
    left = "1 point left" if view["points"] == 1 else f"{view['points']} points left"
    return [
        draw.Die(LEFT, y, str(view["throw"]), title=f"{mover}'s die"),
        draw.Label(LEFT + 56, y + 18, f"{mover} threw {view['throw']}", bold=True, in_text=False),
        draw.Label(LEFT + 56, y + 38, left),
    ]


def _supplies(view: PharaohView, y: float) -> list[draw.Zone]:
    """Each seat's supply, two to a row; only the viewer's own pieces are click targets."""
    zones = []
    for index, colour in enumerate(view["players"]):
        mine = colour == view["viewer"] and view["phase"] != "over"
        spots = tuple(
            _pyramid(f"{colour}:{size}", f"supply:{size}" if mine else "") for size in view["supplies"][colour]
        )
        gone = colour in view["resigned"]
        title = f"{colour} (resigned)" if gone else f"{colour}'s supply"
        x = LEFT + (index % 2) * (ZONE_WIDTH + ZONE_GAP)
        row_y = y + (index // 2) * 76
        zones.append(draw.Zone(x, row_y, ZONE_WIDTH, title, spots, tint="" if gone else colour, empty="-"))
    return zones


def click_path(move: Move) -> tuple[str, ...]:
    """The targets clicked to make `move`: the supply's piece then the edge cell, or the two cells."""
    if isinstance(move, Enter):
        return (f"supply:{move.size}", move.cell)
    return tuple(str(move).split("-"))

"""The board as SVG, for the game page and (through cairosvg) the turn emails.

Rank 1 is at the bottom. Each zone is tinted by its owner's colour, canals are water between
zones, pieces are pyramids seen from above (a bigger pyramid is a bigger piece), the last move is
outlined. Presentation is in attributes and one <style> inside the picture, so it looks the same
in a page, a file and an email. `interactive` adds data-cell/data-size/data-zone on every cell
for the board script (engine/martianchess/static/board.js).
"""

from __future__ import annotations

from html import escape

from .board import NAMES
from .views import MartianChessView

CELL = 56
MARGIN = 22  # room for the coordinates
TINTS = {"red": "#f3c9c4", "yellow": "#f4e7a8", "green": "#c8e6c4", "blue": "#c6d8f2", "black": "#cfcfcf"}
DARKER = 0.9  # every other cell is shaded a little, like a chessboard
RESIGNED_TINT = "#e4e4e4"
HALF = {"S": 10, "M": 15, "L": 21}  # half the side of a pyramid's base
FACES = ("#f1ead6", "#d4c9ab", "#b3a684", "#94886a")  # north, east, south, west: lit from the north-west
STYLE = (
    "body svg.zc-board.mc-board{max-width:100%;height:auto}"  # in a page (not an email picture): fit a phone
    ".mc-board .mc-hint{opacity:0}"
    ".mc-board .mc-selectable{cursor:pointer}"
    ".mc-board .mc-selectable .mc-frame{stroke:#2b59c3;stroke-width:2.5}"
    ".mc-board .mc-selected .mc-frame{stroke:#111;stroke-width:4}"
    ".mc-board .mc-target{cursor:pointer}"
    ".mc-board .mc-target .mc-hint{opacity:.85}"
    ".mc-board .mc-target .mc-frame{stroke:#1b7f3b;stroke-width:3.5}"
    ".mc-board .mc-chosen .mc-frame{stroke:#111;stroke-width:4;stroke-dasharray:none}"
    ".mc-board [data-cell]:focus{outline:none}"
    ".mc-board [data-cell]:focus .mc-frame{stroke:#111;stroke-width:4;stroke-dasharray:4 3}"
)


def board_svg(view: MartianChessView, *, interactive: bool = False) -> str:
    width = view["files"]
    size = width * CELL + 2 * MARGIN
    height = 8 * CELL + 2 * MARGIN
    last = _last_cells(view)
    label = f"The board: {sum(1 for _ in view['board'])} pieces" + (f"; last move {last[0]}-{last[1]}" if last else "")
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="zc-board mc-board" viewBox="0 0 {size} {height}" '
        f'width="{size}" height="{height}" role="img" aria-label="{label}">',
        f"<title>{escape(label)}</title><style>{STYLE}</style>",
        f'<rect x="0" y="0" width="{size}" height="{height}" fill="#2e3440"/>',
    ]
    owners = {cell: colour for colour, cells in view["zones"].items() for cell in cells}
    for cell, owner in owners.items():
        parts.append(_cell(view, cell, owner, last, interactive))
    parts.append(_canals(width))
    parts.append(_coordinates(width))
    parts.append("</svg>")
    return "".join(parts)


def _last_cells(view: MartianChessView) -> tuple[str, str] | None:
    move = view["last_move"]
    if move is None or "-" not in move["move"]:
        return None
    start, end = move["move"].split("-")
    return start, end


def _origin(cell: str) -> tuple[int, int]:
    """The top-left corner of a cell in picture units (rank 8 at the top)."""
    return MARGIN + "abcdefgh".index(cell[0]) * CELL, MARGIN + (8 - int(cell[1:])) * CELL


def _cell(view: MartianChessView, cell: str, owner: str, last: tuple[str, str] | None, interactive: bool) -> str:
    x, y = _origin(cell)
    resigned = owner in view["resigned"]
    fill = RESIGNED_TINT if resigned else TINTS.get(owner, "#dddddd")
    dark = ("abcdefgh".index(cell[0]) + int(cell[1:])) % 2 == 1  # a1 is dark, as on a chessboard
    piece = view["board"].get(cell)
    title = f"{cell}: {NAMES[piece] if piece else 'empty'}, {owner}'s zone{' (resigned)' if resigned else ''}"
    data = (
        f' data-cell="{cell}" data-zone="{owner}"' + (f' data-size="{piece}"' if piece else "") if interactive else ""
    )
    frame = _frame(cell, last)
    return (
        f'<g class="mc-cell"{data}><title>{escape(title)}</title>'
        f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}"/>'
        + (
            f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#000" opacity="{1 - DARKER:.2f}"/>'
            if dark
            else ""
        )
        + frame
        + (_pyramid(x + CELL // 2, y + CELL // 2, piece) if piece else "")
        + (
            f'<circle class="mc-hint" cx="{x + CELL // 2}" cy="{y + CELL // 2}" r="8" fill="#1b7f3b" '
            'stroke="#fff" stroke-width="2"/>'
            if interactive
            else ""
        )
        + "</g>"
    )


def _frame(cell: str, last: tuple[str, str] | None) -> str:
    """The cell's outline: the last move's start dashed, its end solid, in amber; else invisible."""
    x, y = _origin(cell)
    inset = 2.5
    box = f'x="{x + inset}" y="{y + inset}" width="{CELL - 2 * inset}" height="{CELL - 2 * inset}"'
    if last and cell == last[0]:
        dashes = 'stroke-width="3" stroke-dasharray="5 3"'
        return f'<rect class="mc-frame mc-last-from" {box} fill="none" stroke="#e0a100" {dashes}/>'
    if last and cell == last[1]:
        return f'<rect class="mc-frame mc-last-to" {box} fill="none" stroke="#e0a100" stroke-width="4"/>'
    return f'<rect class="mc-frame" {box} fill="none" stroke="none"/>'


def _pyramid(cx: int, cy: int, size: str) -> str:
    """A pyramid seen from above: four triangular faces meeting at the apex, shaded by the light."""
    h = HALF[size]
    corners = ((cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h))
    faces = []
    for i, fill in enumerate(FACES):
        (ax, ay), (bx, by) = corners[i], corners[(i + 1) % 4]
        faces.append(
            f'<polygon points="{ax},{ay} {bx},{by} {cx},{cy}" fill="{fill}" stroke="#4a4433" stroke-width="1.2"/>'
        )
    return f'<g class="mc-piece" data-piece="{size}">' + "".join(faces) + "</g>"


def _canals(width: int) -> str:
    """Water between the zones: between ranks 4 and 5, and (four players) between files d and e."""
    mid_y = MARGIN + 4 * CELL
    canal = '<rect x="{}" y="{}" width="{}" height="{}" fill="#3b82c4" opacity=".9"/>'
    parts = [canal.format(MARGIN, mid_y - 2, width * CELL, 4)]
    if width == 8:
        parts.append(canal.format(MARGIN + 4 * CELL - 2, MARGIN, 4, 8 * CELL))
    return "".join(parts)


def _coordinates(width: int) -> str:
    text = (
        '<text x="{}" y="{}" fill="#e5e9f0" font-size="13" font-family="system-ui, sans-serif" '
        'text-anchor="middle" dominant-baseline="central">{}</text>'
    )
    parts = [
        text.format(MARGIN + f * CELL + CELL // 2, 8 * CELL + MARGIN + MARGIN // 2, "abcdefgh"[f]) for f in range(width)
    ]
    parts += [text.format(MARGIN // 2, MARGIN + (8 - r) * CELL + CELL // 2, r) for r in range(1, 9)]
    return '<g class="mc-coords" aria-hidden="true">' + "".join(parts) + "</g>"

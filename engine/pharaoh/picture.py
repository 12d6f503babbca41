"""Pharaoh's board as SVG, for the game page and (through cairosvg) the turn emails.

Rank 1 is at the bottom; the blocked corners are dark stone, each seat's edge is tinted by its
colour, the centre's goal-lines are dotted. Pieces are translucent pyramids seen from the side (a
taller one is a larger piece); each seat's supply waits at the right, under the die that shows
the throw and the points left. `interactive` adds `data-cell` (and `data-piece`) on every cell and
`data-supply` on supply pieces: the named targets the board script clicks.
"""

from __future__ import annotations

from html import escape

from ..interface import BoardScript
from .board import CELLS, CORNERS, FILES, NAMES, PIPS, xy
from .views import PharaohView

CELL = 60
MARGIN = 24  # room for the coordinates
PANEL = 170  # the die and the supplies, right of the board
SIDE = 5 * CELL + 2 * MARGIN
WIDTH, HEIGHT = SIDE + PANEL, SIDE
PAINT = {"red": "#d63a2f", "yellow": "#e8b500", "green": "#2f9e44", "blue": "#2f6fd1", "black": "#2b2b2b"}
TINTS = {"red": "#f6d2cd", "yellow": "#f7ebb5", "green": "#cfead2", "blue": "#cddcf5", "black": "#d4d4d4"}
HEIGHTS = {"S": 20, "M": 30, "L": 40}  # a pyramid from the side: taller for a larger piece
HALF_BASE = {"S": 9, "M": 13, "L": 17}
PIPS_DOTS = {1: ((0, 0),), 2: ((-1, -1), (1, 1)), 3: ((-1, -1), (0, 0), (1, 1))}
PIPS_DOTS |= {4: ((-1, -1), (1, -1), (-1, 1), (1, 1)), 5: (*((-1, -1), (1, -1), (-1, 1), (1, 1)), (0, 0))}
PIPS_DOTS |= {6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1))}
STYLE = (
    "body svg.zc-board.ph-board{max-width:100%;height:auto}"  # in a page (not an email picture): fit a phone
    ".ph-board [data-cell],.ph-board [data-supply]{cursor:default}"
    ".ph-board .kit-selectable,.ph-board .kit-target{cursor:pointer}"
    ".ph-board .kit-selectable .ph-frame{stroke:#2b59c3;stroke-width:3}"
    ".ph-board .kit-selected .ph-frame{stroke:#111;stroke-width:4}"
    ".ph-board .kit-target .ph-frame{stroke:#1b7f3b;stroke-width:4}"
    ".ph-board [data-cell]:focus,.ph-board [data-supply]:focus{outline:none}"
    ".ph-board [data-cell]:focus .ph-frame,.ph-board [data-supply]:focus .ph-frame{stroke:#111;stroke-dasharray:4 3}"
)
TEXT = 'font-family="system-ui, sans-serif" fill="#1d232c"'


def board_svg(view: PharaohView, *, interactive: bool = False) -> str:
    label = _label(view)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="zc-board ph-board" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-label="{escape(label)}">',
        f"<title>{escape(label)}</title><style>{STYLE}</style>",
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#f4efe3"/>',
    ]
    owners = {cell: colour for colour, cells in view["edges"].items() for cell in cells}
    lines = {cell for line in view["goal_lines"] for cell in line}
    parts += [_cell(view, cell, owners.get(cell), cell in lines, interactive) for cell in CELLS]
    parts += [_corner(cell) for cell in sorted(CORNERS)]
    parts += [_coordinates(), _die(view), *_supplies(view, interactive)]
    parts.append("</svg>")
    return "".join(parts)


def _label(view: PharaohView) -> str:
    pieces = ", ".join(f"{piece.replace(':', ' ')} on {cell}" for cell, piece in view["board"].items())
    if view["phase"] == "over":
        return f"Pharaoh board, game over: {pieces or 'no pieces'}"
    return f"Pharaoh board: {pieces or 'no pieces yet'}; {view['to_move']} threw {view['throw']}, {view['points']} left"


def _origin(cell: str) -> tuple[int, int]:
    """The top-left corner of a cell in picture units (rank 5 at the top)."""
    x, y = xy(cell)
    return MARGIN + x * CELL, MARGIN + (4 - y) * CELL


def _cell(view: PharaohView, cell: str, owner: str | None, on_line: bool, interactive: bool) -> str:
    x, y = _origin(cell)
    fill = TINTS[owner] if owner and owner not in view["resigned"] else "#fbf8f1"
    piece = view["board"].get(cell)
    words = f"{piece.split(':')[0]}'s {NAMES[piece[-1]]}" if piece else "empty"
    title = f"{cell}: {words}" + (f", {owner}'s edge" if owner else "")
    data = f' data-cell="{cell}"' + (f' data-piece="{piece}"' if piece else "") if interactive else ""
    dot = f'<circle cx="{x + CELL // 2}" cy="{y + CELL - 9}" r="3" fill="#b59a5a"/>' if on_line and not piece else ""
    return (
        f'<g class="ph-cell"{data}><title>{escape(title)}</title>'
        f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#8a7d60" stroke-width="1"/>'
        f'<rect class="ph-frame" x="{x + 3}" y="{y + 3}" width="{CELL - 6}" height="{CELL - 6}" fill="none"/>'
        + dot
        + (_pyramid(x + CELL // 2, y + CELL - 8, piece) if piece else "")
        + "</g>"
    )


def _corner(cell: str) -> str:
    x, y = _origin(cell)
    return (
        f'<g class="ph-blocked"><title>{cell}: blocked</title>'
        f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#6b6252"/>'
        f'<path d="M{x} {y}L{x + CELL} {y + CELL}M{x + CELL} {y}L{x} {y + CELL}" stroke="#4d4638" '
        'stroke-width="3"/></g>'
    )


def _pyramid(cx: int, base: int, piece: str) -> str:
    """A pyramid from the side: a translucent triangle in its owner's colour, lit from the left."""
    colour, size = piece.split(":")
    h, w = HEIGHTS[size], HALF_BASE[size]
    paint = PAINT[colour]
    return (
        f'<g class="ph-piece" data-size="{size}">'
        f'<polygon points="{cx - w},{base} {cx + w},{base} {cx},{base - h}" fill="{paint}" fill-opacity=".78" '
        f'stroke="#1d1d1d" stroke-opacity=".55" stroke-width="1.2"/>'
        f'<polygon points="{cx},{base} {cx + w},{base} {cx},{base - h}" fill="#000" fill-opacity=".16"/>'
        + "".join(
            f'<circle cx="{cx}" cy="{base - 4 - 6 * i}" r="1.6" fill="#fff" fill-opacity=".85"/>'
            for i in range(PIPS[size])
        )
        + "</g>"
    )


def _coordinates() -> str:
    text = f'<text x="{{}}" y="{{}}" font-size="13" {TEXT} text-anchor="middle" dominant-baseline="central">{{}}</text>'
    parts = [text.format(MARGIN + f * CELL + CELL // 2, SIDE - MARGIN // 2, FILES[f]) for f in range(5)]
    parts += [text.format(MARGIN // 2, MARGIN + (5 - r) * CELL + CELL // 2, r) for r in range(1, 6)]
    return '<g class="ph-coords" aria-hidden="true">' + "".join(parts) + "</g>"


def _die(view: PharaohView) -> str:
    """The die shows this turn's throw, beside whose it is and the points left."""
    x, y, side = SIDE + 10, MARGIN, 44
    if view["phase"] == "over":
        return f'<text x="{x}" y="{y + 20}" font-size="15" {TEXT}>Game over</text>'
    mover = view["to_move"] or ""
    dots = "".join(
        f'<circle cx="{x + side / 2 + dx * 11}" cy="{y + side / 2 + dy * 11}" r="4" fill="#1d232c"/>'
        for dx, dy in PIPS_DOTS[view["throw"]]
    )
    left = "1 point left" if view["points"] == 1 else f"{view['points']} points left"
    return (
        f'<g class="ph-die" data-throw="{view["throw"]}"><title>{mover} threw {view["throw"]}; {left}</title>'
        f'<rect x="{x}" y="{y}" width="{side}" height="{side}" rx="7" fill="#fff" stroke="{PAINT.get(mover, "#444")}" '
        f'stroke-width="3"/>{dots}'
        f'<text x="{x + side + 10}" y="{y + 16}" font-size="14" {TEXT}>{escape(mover)}</text>'
        f'<text x="{x + side + 10}" y="{y + 36}" font-size="14" {TEXT}>{left}</text></g>'
    )


def _supplies(view: PharaohView, interactive: bool) -> list[str]:
    """Each seat's supply under the die: the pieces waiting to enter, taller for larger."""
    parts = []
    for row, colour in enumerate(view["players"]):
        top = MARGIN + 64 + row * 62
        x = SIDE + 10
        gone = colour in view["resigned"]
        words = f"{colour} (resigned)" if gone else f"{colour}'s supply"
        parts.append(f'<text x="{x}" y="{top + 10}" font-size="12" {TEXT}>{escape(words)}</text>')
        for i, size in enumerate(view["supplies"][colour]):
            cx = x + 20 + i * 44
            data = f' data-supply="{colour}:{size}"' if interactive else ""
            parts.append(
                f'<g class="ph-supply"{data}><title>{colour}\'s {NAMES[size]}, in the supply</title>'
                f'<rect class="ph-frame" x="{cx - 20}" y="{top + 16}" width="40" height="44" fill="none"/>'
                + _pyramid(cx, top + 56, f"{colour}:{size}")
                + "</g>"
            )
    return parts


def board_script(view: PharaohView) -> BoardScript:
    """The click script builds steps from the legal-move list and the picture's named targets."""
    return BoardScript(module="js/pharaoh_board.js", data={"phase": view["phase"]})

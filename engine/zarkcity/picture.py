"""The board and a hand as server-rendered SVG, drawn only from an engine view (never from a State).

Cards are white rounded rectangles with rank and suit in the corner and a large suit in the middle;
standard cards turn 90 degrees on alternate cells (rules.md 1.3: cosmetic), Arcade cards are square.
Pyramids are side-on triangles sized S/M/L in their seat colour, each marked with its colour's
letter so colour-blind players can tell them apart. Every text is escaped.

The game page asks for the `interactive` board: every card and every frontier cell (an empty cell
beside a card, drawn as a faint dashed slot) carries `data-cell="x,y"` so the page's script can
make them clickable; the picture mailed or served as board.svg stays the plain one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from math import ceil
from typing import Any

from ..kit.draw.tiles import tile

PITCH = 124  # grid step: the long side of a card plus a gap
LONG, SHORT, SQUARE = 112, 80, 108
MARGIN, GUTTER = 12, 22  # around the board; the coordinate labels' strip on the top and left
SEAT_FILL = {"red": "#d64545", "yellow": "#e8b923", "green": "#3a9d5d", "blue": "#3b6fd4", "black": "#2b2b2b"}
SEAT_LETTER = {"red": "R", "yellow": "Y", "green": "G", "blue": "B", "black": "K"}
LETTER_INK = {"yellow": "#2b2b2b"}  # a dark letter on the light colour, white on the others
SUIT_SYMBOL = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663", "T": "\u2605"}
SUIT_INK = {"H": "#c62828", "D": "#c62828", "T": "#6a3fa0"}
PIECE_HEIGHT = {"S": 24, "M": 33, "L": 42}
SIZE_NAME = {"S": "small", "M": "medium", "L": "large"}
Point = tuple[float, float]
# A game's own card face: (card code, left, top, width, height, big) -> SVG; `big` is False in small sizes.
CardFace = Callable[[str, float, float, float, float, bool], str]


@dataclass(frozen=True)
class CardStyle:
    """How a game draws its cards: square or turned on alternate cells, and with which face."""

    square: bool = False
    face: CardFace | None = None  # None: the playing card face below

    def draw(self, card: str, left: float, top: float, w: float, h: float, big: bool = True) -> str:
        return _drawn_face(self, card, left, top, w, h, big)


@lru_cache(maxsize=4096)
def _drawn_face(style: CardStyle, card: str, left: float, top: float, w: float, h: float, big: bool) -> str:
    """A card face drawn once per process for each place it is drawn at: a face depends on nothing else.
    On a board every face is drawn at 0,0 and placed by its tile's translation, so every board of every
    game finds its faces here; a hand's cards stay at their places. Some 1 KB each: 4,096 are a few MB."""
    if style.face is not None:
        return style.face(card, left, top, w, h, big)
    return _card_face(card, left, top, w, h, big=big)


def e(value: Any) -> str:
    return escape(str(value), quote=True)


def card_parts(card: str) -> tuple[str, str]:
    """("10", "H") for "10H"; ("JK", "") for a joker."""
    return (card, "") if card == "JK" else (card[:-1], card[-1])


def card_label(card: str) -> str:
    rank, suit = card_parts(card)
    return rank if not suit else rank + SUIT_SYMBOL.get(suit, suit)


# ----------------------------------------------------------------------------- the board


def render_board_svg(view: dict[str, Any], *, interactive: bool = False, style: CardStyle | None = None) -> str:
    """The whole board as one <svg> element, its viewBox fitted to the cards with a margin.

    `interactive` adds the frontier slots (and widens the picture to show them) and cell data.
    `style` is the game's card style (by default Zark City's, square for the Arcade deck).
    """
    board = view.get("board") or []
    style = style or CardStyle(square=view.get("deck_type") == "arcade")
    square = style.square
    if not board:
        return _empty_board()
    cards = [tuple(entry["at"]) for entry in board]
    slots = frontier(cards) if interactive else []
    xs = [x for x, _ in cards + slots]
    ys = [y for _, y in cards + slots]
    left, top = min(xs) * PITCH - GUTTER - MARGIN, min(ys) * PITCH - GUTTER - MARGIN
    width = (max(xs) - min(xs) + 1) * PITCH + GUTTER + 2 * MARGIN
    height = (max(ys) - min(ys) + 1) * PITCH + GUTTER + 2 * MARGIN
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="zc-board" viewBox="{left} {top} {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="The board: {len(board)} cards">',
        "<title>The board</title>",
    ]
    parts.extend(_slot(cell, square) for cell in slots)
    parts.extend(_square(entry, style) for entry in board)
    # Last, so that on the game page, where the labels follow a panned board, they sit over the cards.
    parts.append(_coordinates(sorted(set(xs)), sorted(set(ys)), min(xs), min(ys), strips=interactive))
    parts.append("</svg>")
    return "".join(parts)


def frontier(cards: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Empty cells orthogonally next to a card (where a card may be built, hatched, placed or flown), by row."""
    taken = set(cards)
    cells = {(x + dx, y + dy) for x, y in cards for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
    return sorted(cells - taken, key=lambda cell: (cell[1], cell[0]))


def _slot(cell: tuple[int, int], square: bool) -> str:
    """An empty cell beside the city: a faint dashed outline, a target only while the script lights it."""
    x, y = cell
    left, top, w, h = _card_box(x, y, square)
    return (
        f'<g class="zc-slot" data-cell="{e(x)},{e(y)}"><title>empty cell {e(x)},{e(y)}</title>'
        f'<rect class="zc-slot-face" x="{left}" y="{top}" width="{w}" height="{h}" rx="8" ry="8"/>'
        f'<text class="zc-slot-label" x="{left + w / 2}" y="{top + h / 2}" text-anchor="middle" '
        f'dominant-baseline="central" font-size="14" font-family="system-ui, sans-serif">{e(x)},{e(y)}</text></g>'
    )


def _empty_board() -> str:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" class="zc-board" viewBox="0 0 260 60" width="260" height="60" '
        'role="img" aria-label="The board is empty"><text x="130" y="35" text-anchor="middle" '
        'class="zc-empty" font-size="14" fill="#5d6375">No cards on the board yet</text></svg>'
    )


STRIP_REACH = 10_000  # a label strip reaches well past the board, so zooming out never shows its end


def _coordinates(xs: list[int], ys: list[int], min_x: int, min_y: int, *, strips: bool = False) -> str:
    """Column numbers above the board and row numbers to its left, the x and y of `x,y`, inside the viewBox.

    Two groups (`zc-coords--cols`, `zc-coords--rows`) that the game page's script moves to keep the
    labels at the edge of a panned board; `strips` puts a band of felt behind each for that.
    """
    top = min_y * PITCH - GUTTER / 2
    left = min_x * PITCH - GUTTER / 2
    band = GUTTER + MARGIN
    columns = [
        f'<text x="{x * PITCH + PITCH / 2}" y="{top}" class="zc-coord" text-anchor="middle" '
        f'dominant-baseline="middle">{e(x)}</text>'
        for x in range(min(xs), max(xs) + 1)
    ]
    rows = [
        f'<text x="{left}" y="{y * PITCH + PITCH / 2}" class="zc-coord" text-anchor="middle" '
        f'dominant-baseline="middle">{e(y)}</text>'
        for y in range(min(ys), max(ys) + 1)
    ]
    if strips:
        reach, width = STRIP_REACH, 2 * STRIP_REACH
        columns.insert(
            0, f'<rect class="zc-coord-strip" x="{-reach}" y="{min_y * PITCH - band}" width="{width}" height="{band}"/>'
        )
        rows.insert(
            0, f'<rect class="zc-coord-strip" x="{min_x * PITCH - band}" y="{-reach}" width="{band}" height="{width}"/>'
        )
    return (
        f'<g class="zc-coords" font-size="13" fill="#5d6375" font-family="system-ui, sans-serif">'
        f'<g class="zc-coords--cols">{"".join(columns)}</g><g class="zc-coords--rows">{"".join(rows)}</g></g>'
    )


def _card_box(x: int, y: int, square: bool) -> tuple[float, float, float, float]:
    """The card's rectangle in its cell: square, upright, or turned on alternate cells."""
    if square:
        w = h = SQUARE
    elif (x + y) % 2:
        w, h = LONG, SHORT
    else:
        w, h = SHORT, LONG
    return x * PITCH + (PITCH - w) / 2, y * PITCH + (PITCH - h) / 2, w, h


def _square(entry: dict[str, Any], style: CardStyle) -> str:
    (x, y), card, pieces = entry["at"], entry["card"], entry.get("pieces") or {}
    left, top, w, h = _card_box(x, y, style.square)
    title = f"{card} at {x},{y}: {_pieces_text(pieces)}"
    return (
        f'<g class="zc-square" data-at="{e(x)},{e(y)}" data-cell="{e(x)},{e(y)}" data-card="{e(card)}">'
        f"<title>{e(title)}</title>"
        + tile(left, top, (-1, -1, w + 2, h + 2), style.draw(card, 0, 0, w, h))  # the same face on every cell
        + _pieces(pieces, left, top, w, h, f"{x},{y}")
        + "</g>"
    )


def _pieces_text(pieces: dict[str, str]) -> str:
    listed = [f"{colour} {size}" for colour, sizes in pieces.items() for size in sizes]
    return ", ".join(listed) if listed else "empty"


def _card_face(card: str, left: float, top: float, w: float, h: float, *, big: bool = True) -> str:
    rank, suit = card_parts(card)
    ink = SUIT_INK.get(suit, "#1f2433")
    symbol = SUIT_SYMBOL.get(suit, suit) if suit else "\u2605"  # a joker gets a plain star
    centre = (
        f'<text x="{left + w / 2}" y="{top + h / 2}" text-anchor="middle" dominant-baseline="central" '
        f'font-size="{min(w, h) * 0.55:.0f}" fill="{ink}" fill-opacity="0.18">{e(symbol)}</text>'
        if big
        else ""
    )
    corner = _corner(rank, suit, symbol, ink, left + 6, top + 4, rotate=None)
    far = _corner(rank, suit, symbol, ink, left + w - 6, top + h - 4, rotate=(left + w - 6, top + h - 4))
    return (
        f'<rect class="zc-card-face" x="{left}" y="{top}" width="{w}" height="{h}" rx="8" ry="8" '
        f'fill="#ffffff" stroke="#b9b2a3" stroke-width="1.5"/>' + centre + corner + far
    )


def _corner(rank: str, suit: str, symbol: str, ink: str, x: float, y: float, rotate: Point | None) -> str:
    transform = f' transform="rotate(180 {rotate[0]} {rotate[1]})"' if rotate else ""
    suit_line = f'<tspan x="{x}" dy="13" font-size="13">{e(symbol)}</tspan>' if suit else ""  # a joker has no suit
    return (
        f'<text x="{x}" y="{y + 13}" fill="{ink}" font-family="Georgia, serif" font-weight="700" '
        f'font-size="15"{transform}><tspan x="{x}">{e(rank)}</tspan>{suit_line}</text>'
    )


# ----------------------------------------------------------------------------- pyramids


def _pieces(pieces: dict[str, str], left: float, top: float, w: float, h: float, cell: str) -> str:
    """Every piece side by side in a grid over the card's middle, so none hides another."""
    flat = [(colour, size) for colour, sizes in pieces.items() for size in sizes]
    if not flat:
        return ""
    area_left, area_top, area_w, area_h = left + 17, top + 8, w - 34, h - 16  # clear of the corner labels
    columns, scale = _grid(len(flat), area_w, area_h)
    rows = ceil(len(flat) / columns)
    cell_w, cell_h = area_w / columns, area_h / rows
    drawn = []
    for index, (colour, size) in enumerate(flat):
        row, column = divmod(index, columns)
        in_row = min(columns, len(flat) - row * columns)  # centre a short last row
        cx = area_left + (column + 0.5) * cell_w + (columns - in_row) * cell_w / 2
        base = area_top + (row + 0.5) * cell_h + PIECE_HEIGHT["L"] * scale / 2
        drawn.append(_pyramid(colour, size, cx, base, scale, cell))
    return "".join(drawn)


def _grid(count: int, area_w: float, area_h: float) -> tuple[int, float]:
    """The number of columns that lets the pieces be drawn largest, and that scale (at most 1)."""
    best = (1, 0.0)
    for columns in range(1, count + 1):
        rows = ceil(count / columns)
        scale = min(1.0, area_h / rows / (PIECE_HEIGHT["L"] + 2), area_w / columns / (PIECE_HEIGHT["L"] * 0.9 + 3))
        if scale > best[1] + 1e-9:
            best = (columns, scale)
    return best


def _pyramid(colour: str, size: str, cx: float, base: float, scale: float, cell: str) -> str:
    """A pyramid seen from the side: a triangle on its base, with its colour's letter inside."""
    height = PIECE_HEIGHT.get(size, PIECE_HEIGHT["S"]) * scale
    return (
        f'<g class="zc-piece" data-colour="{e(colour)}" data-size="{e(size)}" data-cell="{e(cell)}">'
        + _drawn_pyramid(colour, height, cx, base)
        + "</g>"
    )


def _drawn_pyramid(colour: str, height: float, cx: float, base: float) -> str:
    """The pyramid as a tile around the middle of its base: the same few on every board."""
    half = height * 0.45
    fill = SEAT_FILL.get(colour, "#888888")
    points = f"{-half:.1f},0 {half:.1f},0 0,{-height:.1f}"
    letter = SEAT_LETTER.get(colour, "?")
    body = (
        f'<polygon points="{points}" fill="{fill}" stroke="#1f2433" stroke-width="1" stroke-linejoin="round"/>'
        f'<text x="0" y="{-height * 0.28:.1f}" text-anchor="middle" font-size="{max(7, height * 0.36):.0f}" '
        f'font-family="system-ui, sans-serif" font-weight="700" fill="{LETTER_INK.get(colour, "#ffffff")}">'
        f"{e(letter)}</text>"
    )
    return tile(cx, base, (-half - 1, -height - 1, 2 * half + 2, height + 2), body)


# ----------------------------------------------------------------------------- a hand


def render_hand_svg(cards: list[str], *, deck_type: str = "standard", style: CardStyle | None = None) -> str:
    """The viewer's own hand, upright cards in a fanned-out row. Pass only the viewer's `hand`."""
    style = style or CardStyle(square=deck_type == "arcade")
    w, h = (SQUARE * 0.7, SQUARE * 0.7) if style.square else (SHORT * 0.8, LONG * 0.8)
    if style.face is not None:
        w, h = SHORT, LONG  # a named card needs its full width for the name
    step = w + 8
    width = max(1, len(cards)) * step + 8
    height = h + 12
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="zc-hand" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'width="{width:.0f}" height="{height:.0f}" role="img" aria-label="Your hand: {e(" ".join(cards))}">'
    ]
    for index, card in enumerate(cards):
        left = 8 + index * step
        parts.append(
            f'<g class="zc-hand-card" data-card="{e(card)}"><title>{e(card)}</title>'
            + style.draw(card, left, 6, w, h)
            + "</g>"
        )
    parts.append("</svg>")
    return "".join(parts)

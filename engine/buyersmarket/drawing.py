"""The marks the market picture is drawn with (engine/buyersmarket/picture.py): pyramids, seat chips,
labels, and the width a label takes, so the layout can keep every label clear of its neighbours.

Two kinds of pyramid, told apart by more than colour (docs/board.md, "Accessibility"):
- a resource wears its suit's die colour (B1) and the suit's symbol;
- a bank pyramid is "opaque" white, as the seed suggests for the players' own colour (15.1), with a
  heavy outline and its player's letter (R, Y, G, B): the seats are named red, yellow, green and blue,
  the die's colours too, so a bank pyramid in its seat's colour read as a hearts or a stars resource.
"""

from __future__ import annotations

from html import escape

from .pieces import SIZE_NAMES, SUIT_NAMES, SUIT_SYMBOLS, SUITS

# The Arcade die's colours for the suits (rules.md 2.2, B1) and a mark colour that reads on each.
SUIT_FILLS = {"S": "#7b4fa3", "H": "#d23a3a", "D": "#2f6fd1", "C": "#2f9e44", "T": "#e0b400"}
SUIT_INK = {"T": "#2b2b2b"}  # a dark symbol on yellow, white on the others
# The seats' colours as the page's chips draw them (static/css/site.css --seat-*), for the chips only.
SEAT_FILLS = {"red": "#d64545", "yellow": "#e8b923", "green": "#3a9d5d", "blue": "#3b6fd4", "black": "#2b2b2b"}
SEAT_LETTERS = {"red": "R", "yellow": "Y", "green": "G", "blue": "B", "black": "K"}
SEAT_INK = {"yellow": "#2b2b2b"}
BANK_FILL = "#fbfaf6"
INK = "#1f2433"
MUTED = "#4a4f5c"

PYRAMID_HEIGHT = {"S": 20, "M": 28, "L": 36}
HALF_BASE = 0.45  # half a pyramid's base, per unit of its height
MARK_SIZE = {"S": 10, "M": 12, "L": 14}  # the suit symbol or seat letter inside a pyramid
GAP = 3  # between pyramids side by side
LABEL = 15  # every label's font size: 10 CSS px on a 360 px phone, where the picture is drawn at 0.67
# Average advance of a character in em, a little over DejaVu Sans's (the font librsvg and Chromium
# pick here for sans-serif): the layout keeps labels apart by these widths.
EM_NORMAL = 0.6
EM_BOLD = 0.66
EM_WIDE = 0.9  # the suit symbols


def seat_letter(colour: str) -> str:
    return SEAT_LETTERS.get(colour, colour[:1].upper())


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The width a label of `size` takes, by average advances (generous, so neighbours never touch)."""
    em = EM_BOLD if bold else EM_NORMAL
    return sum(EM_WIDE if ch in SUIT_SYMBOLS.values() else em for ch in text) * size


def label(
    x: float, y: float, text: str, *, size: float = LABEL, bold: bool = False, fill: str = INK, anchor: str = ""
) -> str:
    """A label with its baseline at y; `anchor` "end" or "middle" aligns it there instead of starting at x."""
    weight = ' font-weight="bold"' if bold else ""
    align = f' text-anchor="{anchor}"' if anchor else ""
    return (
        f'<text class="bm-label" x="{x:.1f}" y="{y:.1f}" font-size="{size}"{weight}{align} fill="{fill}">'
        f"{escape(text)}</text>"
    )


def wrap(text: str, width: float, size: float = LABEL) -> list[str]:
    """`text` cut at spaces into lines no wider than `width`."""
    lines: list[str] = []
    for word in text.split(" "):
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and text_width(joined, size) <= width:
            lines[-1] = joined
        else:
            lines.append(word)
    return lines


def pyramid_width(size: str, scale: float = 1.0) -> float:
    return 2 * HALF_BASE * PYRAMID_HEIGHT[size] * scale


def pyramid(x: float, base: float, piece: str, scale: float = 1.0) -> str:
    """The pyramid "H:L" or "red:S" seen from the side, its base's left end at (x, base)."""
    owner, _, size = piece.partition(":")
    height = PYRAMID_HEIGHT[size] * scale
    half = HALF_BASE * height
    resource = owner in SUITS
    fill = SUIT_FILLS[owner] if resource else BANK_FILL
    stroke = 'stroke="#00000066" stroke-width="1"' if resource else f'stroke="{INK}" stroke-width="2"'
    mark = SUIT_SYMBOLS[owner] if resource else seat_letter(owner)
    ink = SUIT_INK.get(owner, "#fff") if resource else INK
    name = f"{SUIT_NAMES[owner]} {SIZE_NAMES[size]} (resource)" if resource else f"{SIZE_NAMES[size]} of {owner}'s bank"
    mark_size = MARK_SIZE[size] * scale
    text = (
        f'<text class="bm-mark" x="{x + half:.1f}" y="{base - 0.12 * height:.1f}" font-size="{mark_size:.1f}"'
        f' font-weight="bold" text-anchor="middle" fill="{ink}">{escape(mark)}</text>'
        if mark_size >= 8
        else ""
    )
    return (
        f'<g class="bm-pyramid" data-owner="{escape(owner)}" data-size="{size}"><title>{escape(name)}</title>'
        f'<polygon points="{x:.1f},{base:.1f} {x + 2 * half:.1f},{base:.1f} {x + half:.1f},{base - height:.1f}"'
        f' fill="{fill}" {stroke} stroke-linejoin="round"/>{text}</g>'
    )


def pyramid_rows(pieces: list[str], x: float, top: float, width: float) -> tuple[str, float]:
    """Pyramids side by side from (x, top), on as many rows as `width` needs, each row as tall as its
    tallest; the drawing and the height it took."""
    parts: list[str] = []
    rows = rows_of(pieces, width)
    y = top
    for row in rows:
        base = y + max(PYRAMID_HEIGHT[p[-1]] for p in row)
        left = x
        for piece in row:
            parts.append(pyramid(left, base, piece))
            left += pyramid_width(piece[-1]) + GAP
        y = base + GAP
    return "".join(parts), y - top


def rows_of(pieces: list[str], width: float) -> list[list[str]]:
    """How `pyramid_rows` splits `pieces` into rows no wider than `width`."""
    rows: list[list[str]] = []
    used = width
    for piece in pieces:
        need = pyramid_width(piece[-1])
        if not rows or used + GAP + need > width:
            rows.append([])
            used = -GAP
        rows[-1].append(piece)
        used += GAP + need
    return rows


def chip(x: float, y: float, colour: str) -> str:
    """A seat's chip, centred at (x, y): a disc of the seat's colour with its letter, as on the page."""
    fill = SEAT_FILLS.get(colour, "#999")
    return (
        f'<g class="bm-chip"><circle cx="{x}" cy="{y}" r="10" fill="{fill}" stroke="#00000059"/>'
        f'<text class="bm-mark" x="{x}" y="{y + 4.5}" font-size="13" font-weight="bold" text-anchor="middle"'
        f' fill="{SEAT_INK.get(colour, "#fff")}">{escape(seat_letter(colour))}</text></g>'
    )


def tag(x: float, baseline: float, text: str, *, dark: bool) -> tuple[str, float]:
    """A rounded tag ("to move", "resigned") whose text sits on `baseline` from x; and its width."""
    width = text_width(text, LABEL, bold=dark) + 12
    fill, ink = (INK, "#fff") if dark else ("#ece6d8", INK)
    return (
        f'<g class="bm-tag"><rect x="{x:.1f}" y="{baseline - 15:.1f}" width="{width:.1f}" height="20" rx="10"'
        f' fill="{fill}"/>{label(x + 6, baseline, text, bold=dark, fill=ink)}</g>',
        width,
    )

"""The market as SVG, for the game page and (as a PNG) the turn emails.

One column, top to bottom: the five face-up piles (top card, cards left), the pallets two a row
(value, pips held, the resource pips against their cap, the pyramids on it), the global resources,
a key to the two kinds of pyramid, one panel a player (bank, collected pyramids by size, cards
bought), and once the game is scored each building with its score line by line.

WIDTH is what the email draws one pixel a unit (under its 560 px column) and what a 360 px phone
shows whole at 0.67 (its board frame is some 318 px wide): every label is LABEL units, so about 10
CSS px there, and the page's zoom (static/js/board_zoom.js) never opens it smaller (`data-min-scale`).
Every block's size is computed before it is drawn, so nothing overlaps whatever the number of
players or pyramids (tests/engine/test_buyersmarket_picture.py). Presentation is in attributes and
one <style>, so it looks the same in a page and an email. `interactive` adds data-pallet / data-pile
for the board script (engine/buyersmarket/static/board.js).
"""

from __future__ import annotations

from html import escape

from .drawing import (
    GAP,
    INK,
    MUTED,
    PYRAMID_HEIGHT,
    SUIT_FILLS,
    chip,
    label,
    pyramid,
    pyramid_rows,
    pyramid_width,
    rows_of,
    tag,
    text_width,
    wrap,
)
from .pieces import SIZE_NAMES, SUIT_NAMES, SUITS
from .views import BuildingView, BuyersMarketView, PalletView, card_label

WIDTH = 472
MARGIN = 8
INNER = WIDTH - 2 * MARGIN
PAD = 8  # inside a tile or panel
LINE = 20  # a label's line
SECTION = 14  # between sections
MIN_SCALE = 0.67  # screen pixels per unit at which a LABEL is 10 CSS px: the page's zoom opens no smaller
LABEL_COLUMN = 122  # "collected", "bank", "cards" in a player's panel; their contents start after it
BUILDING_AREA = 250  # a building's drawing; its score lines on the right
STYLE = "body svg.zc-board.bm-board{max-width:100%;height:auto}.bm-board text{font-family:sans-serif}"
LARGEST_FIRST = ("L", "M", "S")

Parts = list[str]


def board_svg(view: BuyersMarketView, *, interactive: bool = False) -> str:
    parts: Parts = []
    y = _piles(view, parts, MARGIN, interactive)
    y = _pallets(view, parts, y + SECTION, interactive)
    y = _grp(view, parts, y + SECTION)
    y = _key(view, parts, y + SECTION)
    y = _players(view, parts, y + SECTION)
    if "buildings" in view:
        y = _buildings(view, parts, y + SECTION)
    height = round(y + MARGIN)
    title = f"The market: {len(view['pallets'])} pallets in play"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="zc-board bm-board" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" data-min-scale="{MIN_SCALE}" data-zoom-open="width" role="img" '
        f'aria-label="{title}">'
        f"<title>{escape(title)}</title><style>{STYLE}</style>"
        f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#f4efe3"/>' + "".join(parts) + "</svg>"
    )


def _heading(parts: Parts, y: float, text: str) -> float:
    parts.append(label(MARGIN, y + 16, text, size=16, bold=True))
    return y + 24


def _tile(x: float, y: float, w: float, h: float, stroke: str = "#c9bfa9", width: float = 1.5) -> str:
    return (
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="6" fill="#fffdf6"'
        f' stroke="{stroke}" stroke-width="{width}"/>'
    )


# --- the market ----------------------------------------------------------------------------------------


def _piles(view: BuyersMarketView, parts: Parts, y: float, interactive: bool) -> float:
    y = _heading(parts, y, "Piles: the top card, face up")
    w = (INNER - 4 * GAP * 2) / 5
    for i, suit in enumerate(SUITS):
        pile = view["piles"][suit]
        x = MARGIN + i * (w + 2 * GAP)
        top = pile["top"]
        data = f' data-pile="{suit}"' if interactive else ""
        left = f"{pile['size']} card" + ("" if pile["size"] == 1 else "s")
        parts.append(
            f'<g class="bm-pile"{data}><title>{escape(SUIT_NAMES[suit])} pile</title>'
            + _tile(x, y, w, 52, SUIT_FILLS[suit], 2)
            + label(x + PAD, y + 23, card_label(top) if top else "empty", size=20, bold=True, fill=SUIT_FILLS[suit])
            + label(x + PAD, y + 43, left, fill=MUTED)
            + "</g>"
        )
    return y + 52


def _pallets(view: BuyersMarketView, parts: Parts, y: float, interactive: bool) -> float:
    y = _heading(parts, y, "Pallets (Ace: 11)")
    pallets = view["pallets"]
    if not pallets:
        parts.append(label(MARGIN, y + 16, "No pallet in play."))
        return y + LINE
    w = (INNER - 2 * GAP) / 2
    for row in range(0, len(pallets), 2):
        pair = pallets[row : row + 2]
        xs = [MARGIN + i * (w + 2 * GAP) for i in range(len(pair))]
        drawn = [_pallet(p, x, y, w) for p, x in zip(pair, xs, strict=True)]
        h = max(height for _, height in drawn)
        for p, x, (inside, _) in zip(pair, xs, drawn, strict=True):
            data = f' data-pallet="{p["card"]}"' if interactive else ""
            # No transform on a pallet: the zoom pans a focused one into view by its getBBox().
            parts.append(
                f'<g class="bm-pallet"{data} data-zoom-focus="">'
                + _tile(x, y, w, h, SUIT_FILLS[p["card"][-1]], 2)
                + inside
                + "</g>"
            )
        y += h + 2 * GAP
    return y - 2 * GAP


def _pallet(pallet: PalletView, x: float, y: float, w: float) -> tuple[str, float]:
    """A pallet's tile contents, its top left corner at (x, y), and the tile's height."""
    colour = SUIT_FILLS[pallet["card"][-1]]
    short = pallet["value"] - pallet["total"]
    state = "complete" if pallet["complete"] else f"{short} short"
    holds = f"holds {pallet['total']} pip{'' if pallet['total'] == 1 else 's'}: {state}"
    lines = (
        label(x + PAD, y + 23, card_label(pallet["card"]), size=20, bold=True, fill=colour)
        + label(x + w - PAD, y + 23, f"value {pallet['value']}", anchor="end")
        + label(x + PAD, y + 44, holds, fill=MUTED)
        + label(x + PAD, y + 64, f"resource pips {pallet['resource_pips']} of {pallet['value']}", fill=MUTED)
    )
    if not pallet["pieces"]:
        return lines + label(x + PAD, y + 88, "no pyramids yet", fill=MUTED), 98
    pyramids, h = pyramid_rows(pallet["pieces"], x + PAD, y + 74, w - 2 * PAD)
    return lines + pyramids, 74 + h + PAD - GAP


def _grp(view: BuyersMarketView, parts: Parts, y: float) -> float:
    y = _heading(parts, y, "Global resources: pyramids left")
    w = INNER / 5
    base = y + PYRAMID_HEIGHT["L"]
    for i, suit in enumerate(SUITS):
        x = MARGIN + i * w + 4
        for size in LARGEST_FIRST:
            parts.append(pyramid(x, base, f"{suit}:{size}"))
            centre = x + pyramid_width(size) / 2
            parts.append(label(centre, base + 17, str(view["grp"][suit][size]), anchor="middle"))
            x += pyramid_width(size) + 2 * GAP
    return base + 21


def _key(view: BuyersMarketView, parts: Parts, y: float) -> float:
    """What the two kinds of pyramid look like: colours alone would not tell a bank from a resource."""
    sample = view["viewer"] or view["players"][0]
    base = y + PYRAMID_HEIGHT["M"]
    parts.append(pyramid(MARGIN, base, "H:M"))
    parts.append(label(MARGIN + 30, base - 6, "resource: its suit's colour and symbol"))
    parts.append(pyramid(MARGIN, base + 34, f"{sample}:M"))
    parts.append(label(MARGIN + 30, base + 28, "bank: white, with its player's letter"))
    return base + 34


# --- the players -----------------------------------------------------------------------------------------


def _players(view: BuyersMarketView, parts: Parts, y: float) -> float:
    y = _heading(parts, y, "Players")
    if view["called_by"]:
        note = f"{view['called_by']} called the building phase: everyone else has one more turn."
        for line in wrap(note, INNER):
            parts.append(label(MARGIN, y + 15, line, fill=MUTED))
            y += LINE
        y += 4
    for colour in view["players"]:
        y = _player(view, colour, parts, y) + 2 * GAP
    return y - 2 * GAP


def _player(view: BuyersMarketView, colour: str, parts: Parts, y: float) -> float:
    inside, h = _player_inside(view, colour)
    moving = colour in view["movers"]
    stroke, width = (INK, 3) if moving else ("#c9bfa9", 1.5)
    parts.append(
        f'<g class="bm-player" data-colour="{colour}" transform="translate({MARGIN} {y:.1f})">'
        + _tile(0, 0, INNER, h, stroke, width)
        + inside
        + "</g>"
    )
    return y + h


def _player_inside(view: BuyersMarketView, colour: str) -> tuple[str, float]:
    parts: Parts = [_seat_header(view, colour)]
    y = 34.0
    bank = view["banks"][colour]
    banked = [f"{colour}:{s}" for s in LARGEST_FIRST for _ in range(bank[s])]
    y = _labelled_row(parts, y, "bank", banked, "empty")
    crp = view["crp"][colour]
    by_size = [[p for p in crp if p.endswith(":" + s)] for s in LARGEST_FIRST]
    first = True
    for size, pieces in zip(LARGEST_FIRST, by_size, strict=True):
        if pieces:
            name = f"collected {len(crp)}" if first else ""
            y = _labelled_row(parts, y, name, pieces, "", note=f"{len(pieces)} {SIZE_NAMES[size]}")
            first = False
    if first:
        y = _labelled_row(parts, y, "collected", [], "nothing yet")
    cards = " ".join(card_label(c) for c in view["collected"][colour]) or "none"
    parts.append(label(PAD, y + 15, "cards bought", fill=MUTED))
    for line in wrap(cards, INNER - LABEL_COLUMN - PAD):
        parts.append(label(LABEL_COLUMN, y + 15, line))
        y += LINE
    return "".join(parts), y + PAD


def _seat_header(view: BuyersMarketView, colour: str) -> str:
    """The chip, the colour (and "you"), then tags: to move, resigned, called; the points once scored."""
    name = colour + (" (you)" if colour == view["viewer"] else "")
    parts = [chip(PAD + 10, 18, colour), label(PAD + 26, 23, name, size=16, bold=True)]
    x = PAD + 26 + text_width(name, 16, bold=True) + 8
    tags = []
    if colour in view["resigned"]:
        tags.append(("resigned", False))
    elif colour in view["movers"]:
        tags.append(("to move", True))
    if view["called_by"] == colour:
        tags.append(("called", False))
    for text, dark in tags:
        drawn, width = tag(x, 23, text, dark=dark)
        parts.append(drawn)
        x += width + 6
    building = view.get("buildings", {}).get(colour)
    if building is not None:
        winner = " (won)" if colour in view["winners"] else ""
        parts.append(label(INNER - PAD, 23, f"{building['total']} points{winner}", size=16, bold=True, anchor="end"))
    return "".join(parts)


def _labelled_row(parts: Parts, y: float, name: str, pieces: list[str], empty: str, note: str = "") -> float:
    """A label in the left column (`note` under it), pyramids on as many rows as they need to the right."""
    width = INNER - LABEL_COLUMN - PAD
    names = [text for text in (name, note) if text]
    first_row = (rows_of(pieces, width) or [[]])[0]
    first_base = y + 2 + max((PYRAMID_HEIGHT[p[-1]] for p in first_row), default=LINE - 2)
    baseline = max(y + 15, first_base - 2 - LINE * (len(names) - 1))  # the last one level with the pyramids
    for i, text in enumerate(names):
        parts.append(label(PAD, baseline + i * LINE, text, fill=MUTED))
    labels_h = baseline + LINE * len(names) - 13 - y
    if not pieces:
        parts.append(label(LABEL_COLUMN, y + 15, empty))
        return y + max(LINE, labels_h) + 2
    drawn, h = pyramid_rows(pieces, LABEL_COLUMN, y + 2, width)
    parts.append(drawn)
    return y + max(h + 4, labels_h + 2)


# --- the end -----------------------------------------------------------------------------------------------


def _buildings(view: BuyersMarketView, parts: Parts, y: float) -> float:
    y = _heading(parts, y, "Buildings: the best of each collected pile")
    for colour, building in view["buildings"].items():
        inside, h = _building(colour, building, colour in view["winners"])
        parts.append(
            f'<g class="bm-building" data-colour="{colour}" transform="translate({MARGIN} {y:.1f})">'
            + _tile(0, 0, INNER, h)
            + inside
            + "</g>"
        )
        y += h + 2 * GAP
    return y - 2 * GAP


def _building(colour: str, building: BuildingView, won: bool) -> tuple[str, float]:
    head = f"{colour}: {building['total']} points" + (" (won)" if won else "")
    parts = [chip(PAD + 10, 18, colour), label(PAD + 26, 23, head, size=16, bold=True)]
    lines_h = _score_lines(parts, building, 34)
    drawing, drawing_h = _levels(building["levels"], 34)
    parts.append(drawing)
    return "".join(parts), 34 + max(lines_h, drawing_h) + PAD


def _score_lines(parts: Parts, building: BuildingView, top: float) -> float:
    """Bricks to unspent, then the total, in two columns right of the drawing; the height they take."""
    left, right = PAD + BUILDING_AREA + 16, INNER - PAD
    rows = [(str(name), f"{int(points):+d}", False) for name, points in building["lines"]]
    rows.append(("total", str(building["total"]), True))
    for i, (name, points, bold) in enumerate(rows):
        baseline = top + 15 + i * LINE
        parts.append(label(left, baseline, name, bold=bold))
        parts.append(label(right, baseline, points, bold=bold, anchor="end"))
    return len(rows) * LINE


def _levels(levels: list[list[str]], top: float) -> tuple[str, float]:
    """The building bottom level first, each level centred on the one below, shrunk to fit its area."""
    if not levels:
        return label(PAD, top + 15, "nothing built", fill=MUTED), LINE
    widest = max(sum(pyramid_width(p[-1]) + 1 for p in level) for level in levels)
    scale = min(1.0, BUILDING_AREA / widest)
    height = sum(PYRAMID_HEIGHT[level[0][-1]] for level in levels if level) * scale
    base = top + height
    parts = []
    for level in levels:
        if not level:
            continue
        size = level[0][-1]
        width = sum(pyramid_width(p[-1], scale) + 1 for p in level) - 1
        x = PAD + (BUILDING_AREA - width) / 2
        for piece in level:
            parts.append(pyramid(x, base, piece, scale))
            x += pyramid_width(piece[-1], scale) + 1
        base -= PYRAMID_HEIGHT[size] * scale
    return "".join(parts), height

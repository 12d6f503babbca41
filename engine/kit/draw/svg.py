"""The SVG of a `Scene`: the game page's board (interactive: every target clickable) and the email's
picture (the same drawing, rendered to PNG by librsvg or cairosvg in notifications/pictures.py).

Presentation lives in attributes; the one <style> only sizes the board in a page and, when
interactive, draws the click script's highlights. Fonts are generic (sans-serif), so a page, a file
and an email look alike.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from html import escape

from .pyramids import PALETTE, colours, footprint, gradient, mix, spot_svg
from .scene import (
    INK,
    SIZES,
    Box,
    Card,
    Cell,
    Die,
    Grid,
    Item,
    Label,
    Piece,
    Pyramid,
    Scene,
    Seen,
    Size,
    Spot,
    Zone,
    cell_names,
    cell_target,
    item_spots,
    spot_pieces,
    spot_target,
    spot_title,
)

MUTED = "#5d6375"
GROUND = ("#efe9d8", "#e4dcc6")  # a grid's cells, alternating like a chessboard
BLOCKED = "#b9b3a5"
TITLE = 15  # a zone's or a box's title
COORDS = 14  # a grid's file letters and rank numbers
GAP = 0.3  # between spots in a row, in Larges
STYLE = "body svg.zc-board.kd-board{max-width:100%;height:auto}"
# The board's frame on a 360 px phone (docs/board.md): a picture wider than that is drawn smaller,
# and its smallest words must still be 10 CSS px there (`smallest_text_px`).
PHONE_FRAME = 318
FONT_SIZE = re.compile(r'<text\b[^>]*?\sfont-size="([\d.]+)"')
CLICKS = (
    ".kd-board .kd-hit{fill:#000;fill-opacity:0;stroke:none}"
    ".kd-board .kd-can{cursor:pointer}"
    ".kd-board .kd-can>.kd-hit{stroke:#2b59c3;stroke-width:3;stroke-dasharray:6 4}"
    ".kd-board .kd-picked>.kd-hit{stroke:#111;stroke-width:4;stroke-dasharray:none;fill:#fff3b0;fill-opacity:.35}"
    ".kd-board .kd-target:focus{outline:none}"
    ".kd-board .kd-target:focus>.kd-hit{stroke:#111;stroke-width:4;stroke-dasharray:2 3}"
)
DIE_SPOTS = {
    "1": ((0.5, 0.5),),
    "2": ((0.27, 0.27), (0.73, 0.73)),
    "3": ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    "4": ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    "5": ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    "6": ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


def svg(scene: Scene, *, interactive: bool = False) -> str:
    """The scene as one SVG document; `interactive` writes every target as `data-target` with a hit area."""
    w, h = _n(scene.width), _n(scene.height)
    style = STYLE + (CLICKS if interactive else "")
    body = "".join(_item(item, interactive) for item in scene.items)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="zc-board kd-board" viewBox="0 0 {w} {h}" '
        f'width="{w}" height="{h}" role="img" aria-label="{escape(scene.title)}">'
        f"<title>{escape(scene.title)}</title><style>{style}</style><defs>{_gradients(scene)}</defs>"
        f'<rect x="0" y="0" width="{w}" height="{h}" fill="{scene.background}"/>'
        f'<g font-family="sans-serif" fill="{INK}">{body}</g></svg>'
    )


def dice_svg(dice: Sequence[Die], *, height: float = 22, title: str = "dice") -> str:
    """Dice in a row as a small inline picture `height` px tall: each drawn as the board draws it (its
    own x, y and target ignored), for a throw's line in the history and the emails."""
    side, gap = 44.0, 6.0
    row = tuple(replace(die, x=1 + i * (side + gap), y=1, side=side, target="") for i, die in enumerate(dice))
    w, h = len(row) * (side + gap) - gap + 2, side + 2
    body = "".join(_die(die, False) for die in row)
    defs = _gradients(Scene(w, h, row))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="kd-dice" viewBox="0 0 {_n(w)} {_n(h)}" '
        f'width="{_n(w * height / h)}" height="{_n(height)}" role="img" aria-label="{escape(title)}">'
        f'<title>{escape(title)}</title><defs>{defs}</defs><g font-family="sans-serif" fill="{INK}">{body}</g></svg>'
    )


def smallest_text_px(scene: Scene, *, frame: float = PHONE_FRAME) -> float:
    """The smallest words of the scene's picture in CSS px when it is drawn `frame` px wide (never
    enlarged): a game's test keeps this at 10 or more for the boards its rules can make."""
    sizes = [float(size) for size in FONT_SIZE.findall(svg(scene))]
    return min(sizes, default=float("inf")) * min(1.0, frame / scene.width)


def _gradients(scene: Scene) -> str:
    used = sorted({piece.colour for spot in _all_spots(scene) for piece in spot_pieces(spot)})
    return "".join(gradient(colour) for colour in used)


def _all_spots(scene: Scene) -> list[Spot]:
    spots: list[Spot] = []
    for item in scene.items:
        spots.extend(item_spots(item))
        if isinstance(item, Die):
            spots.extend(Pyramid("white", size) for size in _die_sizes(item.face))
    return spots


def _item(item: Item, interactive: bool) -> str:
    if isinstance(item, Grid):
        return _grid(item, interactive)
    if isinstance(item, Zone):
        return _zone(item, interactive)
    if isinstance(item, Box):
        return _box(item, interactive)
    if isinstance(item, Piece):
        w, h = footprint(item.spot, item.seen)
        top = item.y - h * item.unit if item.seen == "side" else item.y - h * item.unit / 2
        box = (item.x - w * item.unit / 2, top, w * item.unit, h * item.unit)
        return _spot(item.spot, item.x, item.y, item.unit, item.seen, box, interactive)
    if isinstance(item, Die):
        return _die(item, interactive)
    if isinstance(item, Card):
        return _card(item, interactive)
    if isinstance(item, Label):
        ink = _ink(item.colour)
        return label(item.x, item.y, item.text, size=item.size, anchor=item.anchor, bold=item.bold, fill=ink)
    return (
        f'<line x1="{_n(item.x1)}" y1="{_n(item.y1)}" x2="{_n(item.x2)}" y2="{_n(item.y2)}" stroke="{item.colour}" '
        f'stroke-width="2"' + (' stroke-dasharray="6 4"' if item.dashed else "") + "/>"
    )


# --- targets -------------------------------------------------------------------------------------
def target(
    name: str, title: str, body: str, box: tuple[float, float, float, float], interactive: bool, pad: float = 2
) -> str:
    """`body` as a click target: on the page a group with `data-target`, its name spoken, and a hit
    area over `box` (x, y, width, height) grown by `pad` that the click script outlines; in a picture
    just `body`. Cells pass a negative pad, so the outlines of neighbouring lit cells stay apart."""
    if not (interactive and name):
        return body
    x, y, w, h = box
    return (
        f'<g class="kd-target" data-target="{escape(name)}" aria-label="{escape(title or name)}">'
        f'<rect class="kd-hit" x="{_n(x - pad)}" y="{_n(y - pad)}" width="{_n(w + 2 * pad)}" '
        f'height="{_n(h + 2 * pad)}" rx="4" fill="#000" fill-opacity="0"/>{body}</g>'
    )


def _spot(
    spot: Spot, x: float, y: float, unit: float, seen: Seen, box: tuple[float, float, float, float], interactive: bool
) -> str:
    """A spot, and its pieces' own targets: a stack's target covers it, a lone piece's target its piece."""
    body = spot_svg(spot, x, y, unit, seen)
    return target(spot_target(spot), spot_title(spot), body, box, interactive)


# --- rows of spots ---------------------------------------------------------------------------------
def row_layout(
    spots: tuple[Spot, ...], width: float, unit: float, seen: Seen
) -> tuple[list[tuple[Spot, float, float, tuple[float, float, float, float]]], float]:
    """Spots left to right from (0, 0), wrapping at `width`: each spot with its anchor (the middle of
    its base when seen from the side, its centre from above) and its box; and the height they take."""
    placed: list[tuple[Spot, float, float, tuple[float, float, float, float]]] = []
    rows: list[list[tuple[Spot, float, float, float]]] = [[]]
    x = 0.0
    for spot in spots:
        w, h = (v * unit for v in footprint(spot, seen))
        if rows[-1] and x + w > width:
            rows.append([])
            x = 0.0
        rows[-1].append((spot, x, w, h))
        x += w + GAP * unit
    top = 0.0
    for row in rows:
        tall = max((h for *_, h in row), default=0.0)
        for spot, left, w, h in row:
            anchor_y = top + tall if seen == "side" else top + tall / 2
            box_top = top + tall - h if seen == "side" else top + (tall - h) / 2
            placed.append((spot, left + w / 2, anchor_y, (left, box_top, w, h)))
        top += tall + (GAP * unit if row is not rows[-1] else 0)
    return placed, top


def _spots_at(
    spots: tuple[Spot, ...], x: float, y: float, width: float, unit: float, seen: Seen, interactive: bool
) -> str:
    placed, _ = row_layout(spots, width, unit, seen)
    return "".join(
        _spot(spot, x + sx, y + sy, unit, seen, (x + bx, y + by, bw, bh), interactive)
        for spot, sx, sy, (bx, by, bw, bh) in placed
    )


def zone_height(zone: Zone) -> float:
    """How tall a zone is drawn: its title and its rows of spots (or its "empty" line)."""
    _, rows = row_layout(zone.spots, zone.width - 12, zone.unit, zone.seen)
    return TITLE + 10 + max(rows, TITLE) + 8


def _zone(zone: Zone, interactive: bool) -> str:
    height = zone_height(zone)
    fill = _tint(zone.tint) if zone.tint else "#ffffff"
    parts = [
        f'<rect x="{_n(zone.x)}" y="{_n(zone.y)}" width="{_n(zone.width)}" height="{_n(height)}" rx="6" '
        f'fill="{fill}" fill-opacity="0.7" stroke="#c9c2ae"/>',
        label(zone.x + 6, zone.y + TITLE + 2, zone.title, bold=True),
    ]
    top = zone.y + TITLE + 10
    if zone.spots:
        parts.append(_spots_at(zone.spots, zone.x + 6, top, zone.width - 12, zone.unit, zone.seen, interactive))
    else:
        parts.append(label(zone.x + 6, top + TITLE - 2, zone.empty, fill=MUTED))
    box = (zone.x, zone.y, zone.width, height)
    return target(zone.target, zone.title, "".join(parts), box, interactive)


def _box(item: Box, interactive: bool) -> str:
    fill = _tint(item.tint) if item.tint else "#ffffff"
    stroke = ' stroke="#1f2430" stroke-width="3"' if item.marked else ' stroke="#9a937f"'
    parts = [
        f'<rect x="{_n(item.x)}" y="{_n(item.y)}" width="{_n(item.width)}" height="{_n(item.height)}" rx="8" '
        f'fill="{fill}"{stroke}/>'
    ]
    top = item.y + 6
    if item.title:
        parts.append(label(item.x + 6, item.y + TITLE + 2, item.title, bold=True))
        top += TITLE + 4
    parts.append(_spots_at(item.spots, item.x + 6, top, item.width - 12, item.unit, item.seen, interactive))
    return target(item.target, item.title, "".join(parts), (item.x, item.y, item.width, item.height), interactive)


# --- grids -----------------------------------------------------------------------------------------
def grid_unit(grid: Grid) -> float:
    """One scale for every piece of the grid, so sizes compare across cells: a Large fills some 60% of
    a cell, less when a cell's spots need more room (or the grid's own `unit`)."""
    if grid.unit:
        return grid.unit
    unit = grid.cell * 0.62
    for cell in grid.cells:
        if not cell.spots:
            continue
        sizes = [footprint(spot, grid.seen) for spot in cell.spots]
        wide = sum(w for w, _ in sizes) + GAP * (len(sizes) - 1)
        tall = max(h for _, h in sizes)
        unit = min(unit, grid.cell * 0.86 / wide, grid.cell * 0.84 / tall)
    return unit


def cell_box(grid: Grid, name: str) -> tuple[float, float, float, float]:
    """(x, y, side, side) of a cell by name."""
    names = cell_names(grid)
    if name not in names:
        raise ValueError(f"{name!r} is not a cell of this {grid.files}x{grid.ranks} grid")
    index = names.index(name)
    file, rank = index % grid.files, index // grid.files
    return grid.x + file * grid.cell, grid.y + (grid.ranks - 1 - rank) * grid.cell, grid.cell, grid.cell


def _grid(grid: Grid, interactive: bool) -> str:
    given = {cell.name: cell for cell in grid.cells}
    unknown = set(given) - set(cell_names(grid))
    if unknown:
        raise ValueError(f"not cells of this {grid.files}x{grid.ranks} grid: {', '.join(sorted(unknown))}")
    unit = grid_unit(grid)
    names = cell_names(grid)
    parts = [_cell(grid, given.get(name, Cell(name)), i, unit, interactive) for i, name in enumerate(names)]
    parts.extend(_outline(grid, cell.name) for cell in grid.cells if cell.marked)  # over the neighbours' edges
    if grid.coords:
        parts.append(_coords(grid))
    return "".join(parts)


def _cell(grid: Grid, cell: Cell, index: int, unit: float, interactive: bool) -> str:
    x, y, side, _ = cell_box(grid, cell.name)
    dark = (index % grid.files + index // grid.files) % 2 == 0
    fill = BLOCKED if cell.blocked else (_tint(cell.tint) if cell.tint else GROUND[dark])
    if cell.tint and not cell.blocked and dark:
        fill = mix(fill, "#000000", 0.06)
    parts = [f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(side)}" height="{_n(side)}" fill="{fill}" stroke="#b7ae95"/>']
    if cell.blocked:
        parts.append(
            f'<path d="M{_n(x)},{_n(y)}L{_n(x + side)},{_n(y + side)}M{_n(x + side)},{_n(y)}L{_n(x)},{_n(y + side)}" '
            f'stroke="#8d8676" stroke-width="1.5"/>'
        )
    if cell.label:
        parts.append(label(x + 4, y + 15, cell.label, size=13, fill=MUTED))
    parts.extend(_arrow(x, y, side, way) for way in cell.arrows)
    if cell.spots:
        parts.append(_cell_spots(grid, cell, x, y, unit, interactive))
    title = _cell_title(cell)
    body = f"<g><title>{escape(title)}</title>{''.join(parts)}</g>"
    return target(cell_target(cell), title, body, (x, y, side, side), interactive, pad=-3)


def _outline(grid: Grid, name: str) -> str:
    x, y, side, _ = cell_box(grid, name)
    return (
        f'<rect x="{_n(x + 1.5)}" y="{_n(y + 1.5)}" width="{_n(side - 3)}" height="{_n(side - 3)}" fill="none" '
        f'stroke="#1f2430" stroke-width="3"/>'
    )


def _arrow(x: float, y: float, side: float, way: str) -> str:
    """A small arrowhead inside the cell's `way` edge, pointing out: a side a piece may leave by."""
    mid, reach, half = side / 2, side * 0.1, side * 0.1
    tip, base = side / 2 - side * 0.03, side / 2 - side * 0.03 - reach
    cx, cy = x + mid, y + mid
    turn = {"n": 0, "e": 90, "s": 180, "w": 270}[way]
    points = f"{_n(cx)},{_n(cy - tip)} {_n(cx - half)},{_n(cy - base)} {_n(cx + half)},{_n(cy - base)}"
    return f'<polygon points="{points}" fill="{MUTED}" transform="rotate({turn} {_n(cx)} {_n(cy)})"/>'


def _cell_spots(grid: Grid, cell: Cell, x: float, y: float, unit: float, interactive: bool) -> str:
    sizes = [footprint(spot, grid.seen) for spot in cell.spots]
    wide = (sum(w for w, _ in sizes) + GAP * (len(sizes) - 1)) * unit
    tall = max(h for _, h in sizes) * unit
    left = x + (grid.cell - wide) / 2
    top = y + (grid.cell - tall) / 2
    return _spots_at(cell.spots, left, top, wide + 0.01, unit, grid.seen, interactive)


def _cell_title(cell: Cell) -> str:
    if cell.blocked:
        return f"{cell.name}: not on the board"
    what = "; ".join(spot_title(spot) for spot in cell.spots) or "empty"
    return f"{cell.name}: {what}"


def _coords(grid: Grid) -> str:
    files = "abcdefghijklmnopqrstuvwxyz"[: grid.files]
    bottom = grid.y + grid.ranks * grid.cell
    letters = [
        label(grid.x + (i + 0.5) * grid.cell, bottom + COORDS + 3, f, size=COORDS, anchor="middle", fill=MUTED)
        for i, f in enumerate(files)
    ]
    numbers = [
        label(
            grid.x - 6,
            grid.y + (grid.ranks - r + 0.5) * grid.cell + COORDS * 0.35,
            str(r),
            size=COORDS,
            anchor="end",
            fill=MUTED,
        )
        for r in range(1, grid.ranks + 1)
    ]
    return "".join(letters + numbers)


# --- dice and cards --------------------------------------------------------------------------------
def _die_sizes(face: str) -> list[Size]:
    """The sizes a pyramid die's face shows ("S/M": a Small and a Medium); [] for any other face."""
    parts = face.split("/")
    return [size for size in SIZES if size in parts] if all(p in SIZES for p in parts) else []


def _die(die: Die, interactive: bool) -> str:
    x, y, s = die.x, die.y, die.side
    body_fill = colours(die.colour)[0] if die.colour else "#fdfdfb"
    parts = [
        f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(s)}" height="{_n(s)}" rx="{_n(s * 0.18)}" fill="{body_fill}" '
        f'stroke="#1f2430" stroke-width="2"/>'
    ]
    parts.append(_die_face(die))
    title = f"{die.title}: {die.face}"
    body = f"<g><title>{escape(title)}</title>{''.join(parts)}</g>"
    return target(die.target, title, body, (x, y, s, s), interactive)


def _die_face(die: Die) -> str:
    x, y, s, face = die.x, die.y, die.side, die.face
    if face in DIE_SPOTS:
        ink = "#ffffff" if die.colour in ("black", "blue", "red", "green") else INK
        return "".join(
            f'<circle cx="{_n(x + fx * s)}" cy="{_n(y + fy * s)}" r="{_n(s * 0.085)}" fill="{ink}"/>'
            for fx, fy in DIE_SPOTS[face]
        )
    sizes = _die_sizes(face)
    if sizes:
        unit = s * 0.82 / (sum(0.8 for _ in sizes) + 0.15 * (len(sizes) - 1)) if len(sizes) > 1 else s * 0.5
        unit = min(unit, s * 0.5)
        spots: tuple[Spot, ...] = tuple(Pyramid("white", size) for size in sizes)
        placed, tall = row_layout(spots, s, unit, "side")
        used = max(bx + bw for *_, (bx, _, bw, _) in placed)
        left, top = x + (s - used) / 2, y + (s - tall) / 2 + s * 0.02
        return "".join(spot_svg(spot, left + sx, top + sy, unit, "side") for spot, sx, sy, _ in placed)
    if face == "atom":
        return _atom(x + s / 2, y + s / 2, s * 0.36)
    if face in PALETTE:
        fill, _, edge = colours(face)
        return (
            f'<rect x="{_n(x + s * 0.18)}" y="{_n(y + s * 0.18)}" width="{_n(s * 0.64)}" height="{_n(s * 0.64)}" '
            f'rx="{_n(s * 0.1)}" fill="{fill}" stroke="{edge}" stroke-width="1.5"/>'
        )
    size = max(10.0, min(s * 0.34, s * 1.2 / max(len(face), 1)))
    return label(x + s / 2, y + s / 2 + size * 0.36, face, size=size, anchor="middle", bold=True)


def _atom(cx: float, cy: float, r: float) -> str:
    orbits = "".join(
        f'<ellipse cx="{_n(cx)}" cy="{_n(cy)}" rx="{_n(r)}" ry="{_n(r * 0.36)}" fill="none" stroke="#1f2430" '
        f'stroke-width="1.6" transform="rotate({turn} {_n(cx)} {_n(cy)})"/>'
        for turn in (0, 60, 120)
    )
    return orbits + f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r * 0.18)}" fill="#1f2430"/>'


def _card(card: Card, interactive: bool) -> str:
    x, y, w, h = card.x, card.y, card.width, card.height
    title = card.title or ("a card, face down" if card.face_down else card.label)
    if card.face_down:
        inner = (
            f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="6" fill="#2f4a7a" stroke="#1f2430"/>'
            f'<rect x="{_n(x + 5)}" y="{_n(y + 5)}" width="{_n(w - 10)}" height="{_n(h - 10)}" rx="4" fill="none" '
            f'stroke="#c9d4ea" stroke-width="1.5"/>'
        )
    else:
        ink = _ink(card.colour) if card.colour else INK
        big = max(15.0, min(24.0, (w - 8) / max(len(card.label), 1) * 1.6))
        inner = (
            f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="6" fill="#ffffff" stroke="#8a8f9c" '
            f'stroke-width="1.5"/>'
            + label(x + 5, y + 17, card.label, size=15, bold=True, fill=ink)
            + label(x + w / 2, y + h / 2 + big * 0.5, card.label, size=big, anchor="middle", fill=ink)
        )
    body = f"<g><title>{escape(title)}</title>{inner}</g>"
    return target(card.target, title, body, (x, y, w, h), interactive)


# --- small parts ----------------------------------------------------------------------------------
def label(
    x: float, y: float, text: str, *, size: float = 15, anchor: str = "start", bold: bool = False, fill: str = INK
) -> str:
    """Words with their baseline at y."""
    weight = ' font-weight="bold"' if bold else ""
    align = f' text-anchor="{anchor}"' if anchor != "start" else ""
    return f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}"{align}{weight} fill="{fill}">{escape(text)}</text>'


def _tint(colour: str) -> str:
    """A zone's ground: its colour washed out, so pieces and words on it stay readable."""
    face = colours(colour)[0]
    return mix(face, "#ffffff", 0.72)


def _ink(colour: str) -> str:
    """Words in a piece colour, dark enough to read on the board's light ground."""
    if colour in PALETTE:
        face, _, edge = colours(colour)
        return edge if colour in ("yellow", "white", "clear") else face
    return colour


def _n(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")

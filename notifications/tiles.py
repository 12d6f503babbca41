"""The email's board picture composed from tiles: the pieces a game's picture marks as tiles
(engine/kit/draw/tiles.py: a card's face, a pyramid) are drawn by librsvg once each in a worker, kept
as cairo surfaces, and pasted where the board has them; librsvg draws only the rest of the board.

Why: two thirds of librsvg's drawing of a mid-game board was the cards' words, laid out by Pango for
every email, though the same faces come back on board after board (docs/performance.md, "Turn
emails"). Pasting a kept tile costs microseconds.

Where a tile lands: its place on the picture is rarely a whole pixel, so a tile is kept for each
eighth of a pixel it is shifted by (PHASES a side) and pasted at a whole pixel: it differs from the
board drawn whole by what antialiasing makes of a shift of at most 1/16 pixel (at most 27 of 255 on
a few edge pixels, 0.19 on average: docs/performance.md, "Turn emails").

The kept tiles are bounded in bytes (KEEP_BYTES), the least recently pasted let go first, so a
worker's memory does not grow with the boards it draws. Any tile that cannot be drawn makes the
whole picture be drawn by librsvg as before.
"""

from __future__ import annotations

import math
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass

from engine.kit.draw.tiles import OPENING

from . import librsvg

KEEP_BYTES = 32 * 1024 * 1024  # the tiles a worker keeps: some 10,000 card faces at an email's scale
PHASES = 8  # a tile is kept for each 1/PHASES of a pixel it is shifted by, across and down
GROUP = re.compile(r"<g\b[^>]*>|</g>")
DEFS = re.compile(r"<defs>.*?</defs>", re.S)
ROOT = re.compile(r"<svg\b[^>]*>")
NUMBER = r"(-?\d+(?:\.\d+)?)"
VIEW_BOX = re.compile(rf'\sviewBox="{NUMBER}[ ,]+{NUMBER}[ ,]+{NUMBER}[ ,]+{NUMBER}"')
WIDTH, HEIGHT = (re.compile(rf'\s{side}="{NUMBER}"') for side in ("width", "height"))


@dataclass(frozen=True)
class Tile:
    """A tile of a board: its markup (its own coordinates), its place, and the box it draws in."""

    body: str
    x: float
    y: float
    box: tuple[float, float, float, float]


def png(svg: str, width: int) -> bytes:
    """The board's PNG as librsvg.png draws it, the tiles pasted from those kept."""
    rest, tiles = split(svg)
    if not tiles:
        return librsvg.png(svg.encode(), width)
    defs, view = _defs(svg), _view(svg)
    if view is None:  # a picture that says not where its user units land: drawn whole
        return librsvg.png(svg.encode(), width)
    try:
        return librsvg.png(
            rest.encode(), width, over=lambda context, factor: _paste(context, factor, tiles, defs, view)
        )
    except librsvg.DrawingError:  # a tile librsvg cannot draw: the board whole, as without tiles
        return librsvg.png(svg.encode(), width)


def split(svg: str) -> tuple[str, list[Tile]]:
    """The SVG without its tiles, and the tiles in the document's order (a tile within a tile is its own)."""
    rest: list[str] = []
    tiles: list[Tile] = []
    at = 0
    for found in OPENING.finditer(svg):
        if found.start() < at:
            continue
        end = _closing(svg, found.end())
        x, y, *box = (float(value) for value in found.groups())
        tiles.append(Tile(svg[found.end() : end], x, y, (box[0], box[1], box[2], box[3])))
        rest.append(svg[at : found.start()])
        at = end + len("</g>")
    rest.append(svg[at:])
    return "".join(rest), tiles


def _closing(svg: str, start: int) -> int:
    """Where the group opened just before `start` closes."""
    depth = 1
    for tag in GROUP.finditer(svg, start):
        if tag.group() == "</g>":
            depth -= 1
            if not depth:
                return tag.start()
        elif not tag.group().endswith("/>"):
            depth += 1
    raise librsvg.DrawingError("a tile's group is not closed")


def _defs(svg: str) -> str:
    found = DEFS.search(svg)
    return found.group() if found else ""


def _view(svg: str) -> tuple[float, float, float] | None:
    """The user units' origin on the picture and the pixels a unit (before the email's scale), from the
    root's viewBox, width and height; None where they do not say (or stretch it unevenly)."""
    root = ROOT.search(svg)
    if root is None:
        return None
    box, wide, tall = (pattern.search(root.group()) for pattern in (VIEW_BOX, WIDTH, HEIGHT))
    if box is None:
        return (0.0, 0.0, 1.0) if wide is None and tall is None else None
    left, top, width, height = (float(value) for value in box.groups())
    across = float(wide.group(1)) / width if wide else 1.0
    down = float(tall.group(1)) / height if tall else across
    return (left, top, across) if width > 0 and height > 0 and abs(across - down) < 1e-9 else None


def _paste(context: int, factor: float, tiles: list[Tile], defs: str, view: tuple[float, float, float]) -> None:
    origin_x, origin_y, unit = view
    factor *= unit
    for tile in tiles:
        left = (tile.x + tile.box[0] - origin_x) * factor
        top = (tile.y + tile.box[1] - origin_y) * factor
        (x, shift_x), (y, shift_y) = _pixel(left), _pixel(top)
        surface = KEPT.take(_key(tile, defs, factor, shift_x, shift_y))
        try:
            librsvg.paste(context, surface, x, y)
        finally:
            librsvg.release(surface)


def _pixel(place: float) -> tuple[int, float]:
    """The whole pixel a tile is pasted at, and its shift within it to the nearest 1/PHASES."""
    shifted = round(place * PHASES)
    return shifted // PHASES, (shifted % PHASES) / PHASES


@dataclass(frozen=True)
class _Key:
    svg: str  # the tile alone as an SVG document
    factor: float
    shift: tuple[float, float]
    pixels: tuple[int, int]


def _key(tile: Tile, defs: str, factor: float, shift_x: float, shift_y: float) -> _Key:
    left, top, width, height = tile.box
    named = defs if "url(#" in tile.body else ""  # a gradient's definition is part of the tile
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="{left} {top} {width} {height}">{named}{tile.body}</svg>'
    )
    pixels = (math.ceil(shift_x + width * factor), math.ceil(shift_y + height * factor))
    return _Key(svg, factor, (shift_x, shift_y), pixels)


class Kept:
    """The tiles drawn in this process, the least recently used let go past `limit` bytes. Thread-safe:
    `take` hands out a surface its caller releases, so letting one go never frees it under a paste."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.bytes = 0
        self._surfaces: OrderedDict[_Key, tuple[int, int]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, key: _Key) -> int:
        with self._lock:
            kept = self._surfaces.get(key)
            if kept is not None:
                self._surfaces.move_to_end(key)
                librsvg.hold(kept[0])
                return kept[0]
        surface = librsvg.tile(key.svg.encode(), key.factor, key.shift, key.pixels)
        self._keep(key, surface, 4 * key.pixels[0] * key.pixels[1] + len(key.svg))
        return surface

    def __len__(self) -> int:
        return len(self._surfaces)

    def clear(self) -> None:
        with self._lock:
            while self._surfaces:
                self._let_go_of_oldest()

    def _keep(self, key: _Key, surface: int, size: int) -> None:
        with self._lock:
            if key in self._surfaces or size > self.limit:
                return  # another thread drew it meanwhile, or it would not fit: the caller's only
            librsvg.hold(surface)
            self._surfaces[key] = (surface, size)
            self.bytes += size
            while self.bytes > self.limit:
                self._let_go_of_oldest()

    def _let_go_of_oldest(self) -> None:
        _, (surface, size) = self._surfaces.popitem(last=False)
        self.bytes -= size
        librsvg.release(surface)


KEPT = Kept(KEEP_BYTES)

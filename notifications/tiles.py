"""The email's board picture composed from tiles: the pieces a game's picture marks as tiles
(engine/kit/draw/tiles.py: a card's face, a pyramid) are drawn by librsvg once each in a worker into
a cairo recording (the operations, not pixels: the glyphs Pango placed, the paths) and replayed where
a board has them, at its place and scale; librsvg draws only the rest of the board, under them.

Why: two thirds of librsvg's drawing of a mid-game board was the cards' words, laid out by Pango for
every email, though the same faces come back on board after board (docs/performance.md, "Turn
emails"). A recording, unlike a tile of pixels, serves every place and every scale: pixels would be
a tile for each scale and each fraction of a pixel a card lands on, too many to keep for the boards
a worker meets (measured and not kept: docs/performance.md). Even rasters at the exact fraction (the
replay's own pixels) come back only when the same game's board does at the same scale, after every
other game's; a worker's tiles would need some 32 MB for 55 games (measured and not kept, "Turn
emails"). Replayed, a tile differs from the board drawn whole only where Pango would have placed a
glyph a little otherwise at that scale (at most 16 of 255 on a few pixels, 0.006 on average). A
replay's time is cairo filling the card's words, which librsvg lays out as outlines, at the board's
scale, not the replay itself. librsvg reads the rest of the board without what draws nothing
(`drawn_only`): its titles and the groups the tiles left empty were most of what it read.

The kept tiles are bounded in bytes (KEEP_BYTES), the least recently pasted let go first, so a
worker's memory does not grow with the boards it draws. Any tile that cannot be drawn makes the
whole picture be drawn by librsvg as before.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass

from engine.kit.draw.tiles import OPENING

from . import librsvg

KEEP_BYTES = 16 * 1024 * 1024  # the tiles a worker keeps: over a thousand, where every game's are a few hundred
RECORDING_BYTES = 12 * 1024  # what cairo keeps for a recording besides its SVG: 3.5 to 8.5 kB measured
GROUP = re.compile(r"<g\b[^>]*>|</g>")
DEFS = re.compile(r"<defs>.*?</defs>", re.S)
ROOT = re.compile(r"<svg\b[^>]*>")
NUMBER = r"(-?\d+(?:\.\d+)?)"
VIEW_BOX = re.compile(rf'\sviewBox="{NUMBER}[ ,]+{NUMBER}[ ,]+{NUMBER}[ ,]+{NUMBER}"')
WIDTH, HEIGHT = (re.compile(rf'\s{side}="{NUMBER}"') for side in ("width", "height"))
TITLE = re.compile(r"<title>[^<]*</title>")
EMPTY_GROUP = re.compile(r"<g\b(?![^>]*\sfilter=)[^>]*></g>")  # a filter may draw where nothing is


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
            drawn_only(rest).encode(), width, over=lambda context, factor: _paste(context, factor, tiles, defs, view)
        )
    except librsvg.DrawingError:  # a tile librsvg cannot draw: the board whole, as without tiles
        return librsvg.png(svg.encode(), width)


def split(svg: str) -> tuple[str, list[Tile]]:
    """The SVG without its tiles, and the tiles in the document's order (a tile within a tile is part of it)."""
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


def drawn_only(rest: str) -> str:
    """The board without its tiles, less what draws nothing: its titles (tooltips, a screen reader's
    words) and the groups left empty (a cell's, a piece's whose pyramid is a tile). librsvg spent more
    time reading them than drawing the rest. Not where a style sheet is: its selectors may count siblings."""
    if "<style" in rest:
        return rest
    rest = TITLE.sub("", rest)
    while True:
        rest, emptied = EMPTY_GROUP.subn("", rest)
        if not emptied:
            return rest


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
        left, top, width, height = tile.box
        named = defs if "url(#" in tile.body else ""  # a gradient's definition is part of the tile
        alone = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="{left} {top} {width} {height}">{named}{tile.body}</svg>'
        )
        x, y = (tile.x + left - origin_x) * factor, (tile.y + top - origin_y) * factor
        KEPT.paste(alone, context, x, y, factor)


class Kept:
    """The tiles recorded in this process by their SVG, the least recently pasted let go past `limit`
    bytes. Thread-safe: a tile is replayed by one thread at a time (cairo writes to a recording as it
    replays it: its index of the commands in view), and one let go while pasted is freed after the paste."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.bytes = 0
        self.drawn = self.pasted = 0  # tiles recorded and tiles pasted since the process started (the benches')
        self._recordings: OrderedDict[str, tuple[int, int, threading.Lock]] = OrderedDict()
        self._lock = threading.Lock()

    def paste(self, svg: str, context: int, x: float, y: float, factor: float) -> None:
        recording, replaying = self._take(svg)
        try:
            with replaying:
                librsvg.paste(context, recording, x, y, factor)
        finally:
            librsvg.release(recording)

    def __len__(self) -> int:
        return len(self._recordings)

    def clear(self) -> None:
        with self._lock:
            while self._recordings:
                self._let_go_of_oldest()

    def _take(self, svg: str) -> tuple[int, threading.Lock]:
        """The tile's recording, held for the caller (who releases it), recorded if not kept."""
        with self._lock:
            self.pasted += 1
            kept = self._recordings.get(svg)
            if kept is not None:
                self._recordings.move_to_end(svg)
                librsvg.hold(kept[0])
                return kept[0], kept[2]
        recording = librsvg.tile(svg.encode())
        return recording, self._keep(svg, recording)

    def _keep(self, svg: str, recording: int) -> threading.Lock:
        size = RECORDING_BYTES + len(svg)
        with self._lock:
            self.drawn += 1
            if svg in self._recordings:  # another thread recorded it meanwhile: replay theirs from now on
                return self._recordings[svg][2]
            replaying = threading.Lock()
            if size <= self.limit:
                librsvg.hold(recording)
                self._recordings[svg] = (recording, size, replaying)
                self.bytes += size
                while self.bytes > self.limit:
                    self._let_go_of_oldest()
            return replaying

    def _let_go_of_oldest(self) -> None:
        _, (recording, size, _) = self._recordings.popitem(last=False)
        self.bytes -= size
        librsvg.release(recording)


KEPT = Kept(KEEP_BYTES)

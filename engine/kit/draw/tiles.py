"""Tiles: the pieces of a picture that repeat from board to board (a card's face, a pyramid), marked
so that the email's picture can draw each once and paste it wherever it comes again
(notifications/tiles.py).

A tile is a group written with its own coordinates, placed by a translation, with the box it draws
in (in its own coordinates, strokes included) in `data-tile`:

    <g transform="translate(X,Y)" data-tile="LEFT TOP WIDTH HEIGHT">...</g>

A browser draws it where it drew the same markup at absolute coordinates, so the page and board.svg
look as before. What a writer promises by marking a group: its markup alone draws it (no inherited
font or fill, no `<style>`; a gradient it names is in the document's `<defs>`), no group around it
moves, scales or fades it (its translation is its place in the root's units), it draws nothing
outside its box, and nothing that is not a tile is drawn over it, so the email may draw everything
else first and the tiles over it, in the document's order.
"""

from __future__ import annotations

import re

# The opening tag exactly as `tile` writes it: the reader (notifications/tiles.py) finds tiles by it.
OPENING = re.compile(
    r'<g transform="translate\((-?[\d.]+),(-?[\d.]+)\)" data-tile="(-?[\d.]+) (-?[\d.]+) ([\d.]+) ([\d.]+)">'
)


def tile(x: float, y: float, box: tuple[float, float, float, float], body: str) -> str:
    """`body`, drawn in its own coordinates, placed at (x, y); `box` is where it draws, in its coordinates."""
    left, top, width, height = (_n(v) for v in box)
    return f'<g transform="translate({_n(x)},{_n(y)})" data-tile="{left} {top} {width} {height}">{body}</g>'


def _n(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")

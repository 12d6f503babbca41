"""The launch complex on the drawing kit: the 3 x 3 grid (pads tinted by owner, the Factory marked),
each cell's pieces as pyramids seen from above, and the standing throw as two dice."""

from __future__ import annotations

from typing import cast

from ..interface import View
from ..kit import draw
from .state import CELLS, FACTORY, SIZES
from .views import LaunchpadView

CELL = 120
MARGIN = 24


def scene(shown: View) -> draw.Scene:
    data = cast(LaunchpadView, shown)
    owners = {pad: seat for seat, pad in data.get("pads", {}).items()}
    board = data.get("board", {})
    cells = tuple(_cell(name, board.get(name, []), owners.get(name)) for name in CELLS)
    grid = draw.Grid(MARGIN, MARGIN, 3, 3, cell=CELL, cells=cells, title="Launch complex")
    items: list[draw.Item] = [grid, *_dice(data)]
    width, height = MARGIN * 3 + CELL * 3 + 70, MARGIN * 3 + CELL * 3
    return draw.Scene(width=width, height=height, items=tuple(items), title="Launch Pad 23")


def _cell(name: str, pieces: list[str], owner: str | None) -> draw.Cell:
    spots = tuple(_pyramid(text, name) for text in pieces)
    label = "Factory" if name == FACTORY else (f"{owner} pad" if owner else "")
    return draw.Cell(name, spots=spots, tint=owner or "", label=label)


def _pyramid(text: str, cell: str) -> draw.Pyramid:
    colour, _, size = text.partition(":")
    return draw.Pyramid(colour, cast(draw.Size, size if size in SIZES else "S"), target=cell)


def _dice(data: LaunchpadView) -> list[draw.Item]:
    throw = data.get("throw")
    if not throw:
        return []
    left = MARGIN * 2 + CELL * 3
    return [
        draw.Die(left, MARGIN, throw["size"], title="pyramid die"),
        draw.Die(left, MARGIN + 60, throw["colour"], title="colour die"),
    ]

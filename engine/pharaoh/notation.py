"""Pharaoh's steps in writing (pharaoh.md, Notation): `enter M c1`, `c1-c2`, `pass`.

One parser reads every channel (web form, email reply, API, command line). Input is
case-insensitive; `M@c1` and `M c1` also mean an entry, `c1c2`, `c1xc2` and `c1 c2` a move, and a
path `c1-c2-c3` the two steps `c1-c2` and `c2-c3`. `str` of a step is its canonical form.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import NotationError, shown
from .board import CORNERS, is_cell

_ENTER = re.compile(r"(?:enter\s+)?([sml])\s*(?:@|\s)\s*([a-e][1-5])")
_PATH = re.compile(r"[a-e][1-5](?:\s*[-x\s]?\s*[a-e][1-5])+")
_CELL = re.compile(r"[a-e][1-5]")


@dataclass(frozen=True, order=True)
class Enter:
    """A piece from the mover's supply onto one of their edge cells."""

    size: str
    cell: str

    def __str__(self) -> str:
        return f"enter {self.size} {self.cell}"


@dataclass(frozen=True, order=True)
class Step:
    """The mover's piece on `start` to the neighbouring `end`: a plain move or a capture."""

    start: str
    end: str

    def __str__(self) -> str:
        return f"{self.start}-{self.end}"


@dataclass(frozen=True)
class Pass:
    """The mover ends the turn; unspent points are lost."""

    def __str__(self) -> str:
        return "pass"


Move = Enter | Step | Pass

EXAMPLES = "enter M c1, c1-c2, a path c1-c2-c3, or pass"


def parse_steps(text: str) -> list[Move]:
    """The steps a written step stands for: one, or several for a path; NotationError if unreadable."""
    words = " ".join(text.split()).lower()
    if words == "pass":
        return [Pass()]
    if entry := _ENTER.fullmatch(words):
        return [Enter(entry.group(1).upper(), _board_cell(entry.group(2)))]
    if _PATH.fullmatch(words):
        cells = [_board_cell(cell) for cell in _CELL.findall(words)]
        return [Step(start, end) for start, end in zip(cells, cells[1:], strict=False)]
    raise NotationError(f"cannot read {shown(text.strip())}: write a step like {EXAMPLES}")


def _board_cell(cell: str) -> str:
    if cell in CORNERS:
        raise NotationError(f"{cell} is not a cell: the four corners of the board are blocked")
    assert is_cell(cell)
    return cell

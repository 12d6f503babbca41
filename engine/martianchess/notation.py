"""Martian Chess moves as small values, and the one parser that reads them (martian_chess.md, Notation).

The web form, the email reply and the command line all call `parse`; `parse(str(m)) == m`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import NotationError, shown
from .board import Cell, cell_name, parse_cell

# "c2-d3", "c2d3", "c2xd3", "c2 d3", "C2 x D3": two cells, optionally joined by - or x, spaces allowed.
_STEP = re.compile(r"^([a-z]\d+)\s*(?:[-x]\s*)?([a-z]\d+)$")


@dataclass(frozen=True, slots=True)
class Step:
    """Move the piece on `start` to `end`: a plain move, a capture or a field promotion."""

    start: Cell
    end: Cell

    def __str__(self) -> str:
        return f"{cell_name(self.start)}-{cell_name(self.end)}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Only when the player has no other legal move (a ruling: martian_chess.md, REC)."""

    def __str__(self) -> str:
        return "pass"


Move = Step | Pass  # and the kit's `resign` (engine/kit/base.py), which every game shares


def parse(text: str) -> Move:
    """One move in any accepted spelling, case-insensitive; NotationError saying what a move looks like
    (`resign` is the kit's, read before this)."""
    if not isinstance(text, str):
        raise NotationError(f"a move must be text, not {type(text).__name__}")
    words = " ".join(text.split()).lower()
    if words == "pass":
        return Pass()
    match = _STEP.match(words)
    if not match:
        raise NotationError(f"{shown(text)} is not a move (write the two cells, like c2-d3, or pass or resign)")
    return Step(parse_cell(match.group(1)), parse_cell(match.group(2)))

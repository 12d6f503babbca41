"""The notation (spec "Notation"): one parser for every channel; `str(move)` is canonical."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import NotationError
from .state import CELLS, COLOURS, SIZES


@dataclass(frozen=True)
class Start:
    """`start M`: the secret opening piece's size."""

    size: str

    def __str__(self) -> str:
        return f"start {self.size}"


@dataclass(frozen=True)
class Add:
    """`add M red` from the Bank, or `add M red from blue` off blue's pad."""

    size: str
    colour: str
    source: str | None = None  # the seat whose pad gives the piece

    def __str__(self) -> str:
        taken = f" from {self.source}" if self.source else ""
        return f"add {self.size} {self.colour}{taken}"


@dataclass(frozen=True)
class Shift:
    """`M red b2-b1`: one piece to an adjacent cell."""

    size: str
    colour: str
    origin: str
    target: str

    def __str__(self) -> str:
        return f"{self.size} {self.colour} {self.origin}-{self.target}"


@dataclass(frozen=True)
class Word:
    """`reroll`, `failure` or `pass`."""

    verb: str

    def __str__(self) -> str:
        return self.verb


Move = Start | Add | Shift | Word
WORDS = ("reroll", "failure", "pass")
EXAMPLE = "`add M red`, `M red b2-b1`, `start M`, `reroll`, `failure` or `pass`"


def parse(text: str) -> Move:
    words = re.sub(r"\b([a-c][1-3])\s*-?\s*([a-c][1-3])\b", r"\1 \2", text.strip().lower()).split()
    if len(words) == 1 and words[0] in WORDS:
        return Word(words[0])
    if len(words) == 2 and words[0] == "start":
        return Start(_size(words[1], text))
    if words[:1] == ["add"]:
        return _add(words[1:], text)
    if len(words) == 4:
        size, colour = _kind(words[:2], text)
        return Shift(size, colour, _cell(words[2], text), _cell(words[3], text))
    raise NotationError(f"cannot read {text.strip()!r}: write {EXAMPLE}")


def _add(words: list[str], text: str) -> Add:
    if len(words) == 2:
        return Add(*_kind(words, text))
    if len(words) == 4 and words[2] == "from" and words[3] in COLOURS:
        return Add(*_kind(words[:2], text), source=words[3])
    raise NotationError(f"cannot read {text.strip()!r}: write `add M red` or `add M red from blue`")


def _kind(words: list[str], text: str) -> tuple[str, str]:
    """A size and a colour in either order."""
    first, second = words
    if first in COLOURS:
        first, second = second, first
    if second not in COLOURS:
        raise NotationError(f"{text.strip()!r}: a colour is one of {', '.join(COLOURS)}")
    return _size(first, text), second


def _size(word: str, text: str) -> str:
    if word.upper() not in SIZES:
        raise NotationError(f"{text.strip()!r}: a size is S, M or L, not {word!r}")
    return word.upper()


def _cell(word: str, text: str) -> str:
    if word not in CELLS:
        raise NotationError(f"{text.strip()!r}: {word!r} is not a cell (a1 to c3)")
    return word

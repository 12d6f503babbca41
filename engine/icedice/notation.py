"""IceDice's steps and their one parser: `take M green`, `take S green from blue`, `roll`, `stop`.

Input is case-insensitive and reads colour before size too (`take green M`); the printed form is
canonical: lower-case words and colours, upper-case sizes, size before colour.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import NotationError, shown
from ..interface import COLOURS
from .state import SIZES


@dataclass(frozen=True)
class Take:
    """A piece of an offered kind onto the Counter: from the Bank, or stolen from `source`'s Vault."""

    size: str
    colour: str
    source: str | None = None  # None: the Bank (or the only opponent who has one, when the Bank has none)

    def __str__(self) -> str:
        steal = f" from {self.source}" if self.source else ""
        return f"take {self.size} {self.colour}{steal}"


@dataclass(frozen=True)
class Roll:
    """Throw both dice again."""

    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True)
class Stop:
    """The Counter into the mover's Vault; the turn ends."""

    def __str__(self) -> str:
        return "stop"


Move = Take | Roll | Stop
VERBS = ("take", "roll", "stop", "resign")
TAKE_FORM = "take takes the form: take SIZE COLOUR [from SEAT], like take M green or take S green from blue"


def parse(text: str) -> Move:
    words = text.split()
    if not words:
        raise NotationError("an empty step (the steps are: take, roll, stop, resign)")
    verb = words[0].lower()
    if verb in ("roll", "stop"):
        if len(words) > 1:
            raise NotationError(f"{verb} takes nothing after it, not {shown(text.strip())}")
        return Roll() if verb == "roll" else Stop()
    if verb != "take":
        raise NotationError(f"{shown(words[0])} is not a step (the steps are: {', '.join(VERBS)})")
    return _take([word.lower() for word in words[1:]])


def _take(words: list[str]) -> Take:
    source = None
    if len(words) == 4 and words[2] == "from":
        source = _colour(words[3])
        words = words[:2]
    if len(words) != 2:
        raise NotationError(TAKE_FORM)
    first, second = words
    if first.upper() in SIZES:
        return Take(first.upper(), _colour(second), source)
    if second.upper() in SIZES:
        return Take(second.upper(), _colour(first), source)
    raise NotationError(f"{TAKE_FORM} (the sizes are S, M, L)")


def _colour(word: str) -> str:
    if word not in COLOURS:
        raise NotationError(f"{shown(word)} is not a colour (the colours are: {', '.join(COLOURS)})")
    return word

"""Homeworlds' steps and their one parser: the notation players know from Super Duper Games.

Parsing is by position (a system may be called `G3`, `Red` or `Build`), case-insensitive, any
spaces; `str` is canonical: lower-case verbs, pieces and colour words, single spaces, homeworld
stars in colour order. System names keep the spelling typed; the rules compare them without case.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import NotationError, shown
from .pieces import COLOUR_LETTERS, COLOUR_WORDS, is_piece, ordered

NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,39}")


@dataclass(frozen=True)
class Homeworld:
    stars: tuple[str, ...]
    ship: str

    def __str__(self) -> str:
        return " ".join(("homeworld", *self.stars, self.ship))


@dataclass(frozen=True)
class Build:
    piece: str
    system: str

    def __str__(self) -> str:
        return f"build {self.piece} {self.system}"


@dataclass(frozen=True)
class Trade:
    piece: str
    new: str
    system: str

    def __str__(self) -> str:
        return f"trade {self.piece} {self.new} {self.system}"


@dataclass(frozen=True)
class Move:
    piece: str
    origin: str
    destination: str

    def __str__(self) -> str:
        return f"move {self.piece} {self.origin} {self.destination}"


@dataclass(frozen=True)
class Discover:
    piece: str
    origin: str
    star: str
    name: str

    def __str__(self) -> str:
        return f"discover {self.piece} {self.origin} {self.star} {self.name}"


@dataclass(frozen=True)
class Attack:
    piece: str
    system: str

    def __str__(self) -> str:
        return f"attack {self.piece} {self.system}"


@dataclass(frozen=True)
class SacrificeStep:
    piece: str
    system: str

    def __str__(self) -> str:
        return f"sacrifice {self.piece} {self.system}"


@dataclass(frozen=True)
class Catastrophe:
    system: str
    colour: str  # the colour letter

    def __str__(self) -> str:
        return f"catastrophe {self.system} {COLOUR_WORDS[self.colour]}"


@dataclass(frozen=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Done:
    def __str__(self) -> str:
        return "done"


Action = Build | Trade | Move | Discover | Attack
Step = Homeworld | Action | SacrificeStep | Catastrophe | Pass | Done
# The notation table's order: the legal-step list is sorted by it, then by text.
VERBS = ("homeworld", "build", "trade", "move", "discover", "attack", "sacrifice", "catastrophe", "pass", "done")
FORMS = {
    "build": "build PIECE SYSTEM",
    "trade": "trade PIECE PIECE SYSTEM",
    "move": "move PIECE SYSTEM SYSTEM",
    "discover": "discover PIECE SYSTEM PIECE NAME",
    "attack": "attack PIECE SYSTEM",
    "sacrifice": "sacrifice PIECE SYSTEM",
    "catastrophe": "catastrophe SYSTEM COLOUR",
}


def parse(text: str) -> Step:
    """One step; NotationError saying what is unreadable."""
    words = text.split()
    if not words:
        raise NotationError("an empty step: try `build g1 North`")
    head, args = words[0].lower(), words[1:]
    if head in ("pass", "done"):
        if args:
            raise NotationError(f"`{head}` takes nothing after it, not {shown(' '.join(args))}")
        return Pass() if head == "pass" else Done()
    if head == "homeworld":
        return _homeworld(args)
    if head not in FORMS:
        raise NotationError(f"unknown step {shown(words[0])}: steps are {', '.join(VERBS)}")
    if len(args) != len(FORMS[head].split()) - 1:
        raise NotationError(f"`{head}` is written `{FORMS[head]}`, not {shown(text.strip(), 40)}")
    return _read(head, args)


def _read(head: str, args: list[str]) -> Step:
    if head == "build":
        return Build(_piece(args[0]), _name(args[1]))
    if head == "trade":
        return Trade(_piece(args[0]), _piece(args[1]), _name(args[2]))
    if head == "move":
        return Move(_piece(args[0]), _name(args[1]), _name(args[2]))
    if head == "discover":
        return Discover(_piece(args[0]), _name(args[1]), _piece(args[2]), _name(args[3]))
    if head == "attack":
        return Attack(_piece(args[0]), _name(args[1]))
    if head == "sacrifice":
        return SacrificeStep(_piece(args[0]), _name(args[1]))
    return Catastrophe(_name(args[0]), _colour(args[1]))


def _homeworld(args: list[str]) -> Homeworld:
    if len(args) not in (2, 3):
        raise NotationError("`homeworld` is written `homeworld STAR STAR SHIP` (setup=free: also one star)")
    pieces = [_piece(arg) for arg in args]
    return Homeworld(ordered(pieces[:-1]), pieces[-1])


def _piece(text: str) -> str:
    piece = text.lower()
    if not is_piece(piece):
        raise NotationError(f"{shown(text)} is not a piece: a colour r y g b then a size 1 2 3, like g1")
    return piece


def _colour(text: str) -> str:
    word = text.lower()
    if word in COLOUR_WORDS:
        return word
    if word in COLOUR_LETTERS:
        return COLOUR_LETTERS[word]
    raise NotationError(f"{shown(text)} is not a colour: red, yellow, green, blue (or r y g b)")


def _name(text: str) -> str:
    if not NAME.fullmatch(text):
        raise NotationError(f"{shown(text)} is not a system name: a letter, then up to 39 letters, digits or _")
    return text

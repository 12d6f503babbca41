"""Zark City moves as small values, and the one parser that reads them (../shared/spec/notation.md).

The web form, the email reply and the command line all call `parse`; `parse(str(m)) == m`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import NotationError, shown
from .cards import parse_card as parse_zark_card
from .cards import sort_cards

Cell = tuple[int, int]
COLOURS = ("red", "yellow", "green", "blue", "black")
SIZES = ("S", "M", "L")
SIZE_PIPS = {"S": 1, "M": 2, "L": 3}
# A board holds at most 65 cards, so no cell is more than 64 steps from 0,0: 4 digits are plenty.
_CELL = re.compile(r"^(-?\d{1,4}),(-?\d{1,4})$")


def cell_str(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def parse_cell(text: str) -> Cell:
    match = _CELL.match(text)
    if not match:
        raise NotationError(f"{shown(text)} is not a cell (write x,y with no spaces, like 0,0 or -1,2)")
    return int(match.group(1)), int(match.group(2))


def parse_size(text: str) -> str:
    size = text.upper()
    if size not in SIZES:
        raise NotationError(f"{shown(text)} is not a piece size (use S, M or L)")
    return size


def parse_colour(text: str) -> str:
    colour = text.lower()
    if colour not in COLOURS:
        raise NotationError(f"{shown(text)} is not a player colour (red, yellow, green, blue or black)")
    return colour


@dataclass(frozen=True, slots=True)
class Choose:
    card: str

    def __str__(self) -> str:
        return f"choose {self.card}"


@dataclass(frozen=True, slots=True)
class Place:
    at: Cell

    def __str__(self) -> str:
        return f"place {cell_str(self.at)}"


@dataclass(frozen=True, slots=True)
class Draw:
    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Grow:
    size: str  # the size of the piece that grows: S or M
    at: Cell

    def __str__(self) -> str:
        return f"grow {self.size} {cell_str(self.at)}"


@dataclass(frozen=True, slots=True)
class Spawn:
    at: Cell

    def __str__(self) -> str:
        return f"spawn {cell_str(self.at)}"


@dataclass(frozen=True, slots=True)
class Build:
    card: str
    at: Cell

    def __str__(self) -> str:
        return f"build {self.card} {cell_str(self.at)}"


@dataclass(frozen=True, slots=True)
class MovePiece:
    """The Move option: slide one of your pieces to an orthogonally adjacent card."""

    size: str
    src: Cell
    dst: Cell

    def __str__(self) -> str:
        return f"move {self.size} {cell_str(self.src)} {cell_str(self.dst)}"


@dataclass(frozen=True, slots=True)
class Demolish:
    owner: str
    size: str
    at: Cell
    pay: tuple[str, ...]  # canonical deck order
    draws: int | None = None  # Deck Town (D9): change cards drawn, 0 up to the change; None: all of it

    def __str__(self) -> str:
        return f"demolish {self.owner} {self.size} {cell_str(self.at)} pay {' '.join(self.pay)}{_draws(self.draws)}"


@dataclass(frozen=True, slots=True)
class Convert:
    owner: str
    size: str
    at: Cell
    into: str
    pay: tuple[str, ...]  # canonical deck order
    draws: int | None = None  # as for Demolish

    def __str__(self) -> str:
        head = f"convert {self.owner} {self.size} {cell_str(self.at)} into {self.into}"
        return f"{head} pay {' '.join(self.pay)}{_draws(self.draws)}"


def _draws(draws: int | None) -> str:
    """The change-draw count ("draw 1"): written only when it is not the whole change (the default)."""
    return "" if draws is None else f" draw {draws}"


@dataclass(frozen=True, slots=True)
class Fly:
    src: Cell
    dst: Cell
    ace: str

    def __str__(self) -> str:
        return f"fly {cell_str(self.src)} {cell_str(self.dst)} pay {self.ace}"


@dataclass(frozen=True, slots=True)
class Hatch:
    card: str
    at: Cell

    def __str__(self) -> str:
        return f"hatch {self.card} {cell_str(self.at)}"


@dataclass(frozen=True, slots=True)
class Discard:
    cards: tuple[str, ...]  # canonical deck order

    def __str__(self) -> str:
        return f"discard {' '.join(self.cards)}"


# `resign` is the kit's own step (engine/kit/base.py `RESIGN`), read before the game's notation.
Move = Choose | Place | Draw | Grow | Spawn | Build | MovePiece | Demolish | Convert | Fly | Hatch | Discard

_USAGE = {
    "choose": "choose CARD",
    "place": "place X,Y",
    "draw": "draw",
    "grow": "grow S|M X,Y",
    "spawn": "spawn X,Y",
    "build": "build CARD X,Y",
    "move": "move S|M|L FROM TO",
    "demolish": "demolish COLOUR S|M|L X,Y pay CARD...",
    "convert": "convert COLOUR S|M|L X,Y into S|M|L pay CARD...",
    "fly": "fly FROM TO pay ACE",
    "hatch": "hatch CARD X,Y",
    "discard": "discard CARD...",
    "resign": "resign",
}


def _fixed(words: list[str], count: int) -> list[str]:
    if len(words) != count:
        raise NotationError(f"{words[0]} takes the form: {_USAGE[words[0]]}")
    return words


CardReader = Callable[[str], str]  # a typed card to its code: the game's own cards
CardSorter = Callable[[list[str]], tuple[str, ...]]


def _pay_list(words: list[str], verb: str, card: CardReader, sort: CardSorter) -> tuple[str, ...]:
    if not words:
        raise NotationError(f"{verb} needs at least one card after pay: {_USAGE[verb]}")
    return sort([card(w) for w in words])


def _parse_attack(words: list[str], card: CardReader, sort: CardSorter) -> Move:
    verb = words[0]
    head, pay_words = _split_pay(words)
    pay_words, draws = _split_draws(pay_words, verb)
    if verb == "demolish":
        _fixed(head, 4)
        pay = _pay_list(pay_words, verb, card, sort)
        return Demolish(parse_colour(head[1]), parse_size(head[2]), parse_cell(head[3]), pay, draws)
    if len(head) != 6 or head[4].lower() != "into":
        raise NotationError(f"convert takes the form: {_USAGE['convert']}")
    return Convert(
        parse_colour(head[1]),
        parse_size(head[2]),
        parse_cell(head[3]),
        parse_size(head[5]),
        _pay_list(pay_words, verb, card, sort),
        draws,
    )


def _split_draws(words: list[str], verb: str) -> tuple[list[str], int | None]:
    """The paid cards, and the number after a closing `draw N` (None without one: the whole change)."""
    lowered = [w.lower() for w in words]
    if "draw" not in lowered:
        return words, None
    i = lowered.index("draw")
    count = words[i + 1 :]
    if len(count) != 1 or not count[0].isdigit() or len(count[0]) > 1:
        raise NotationError(
            f"draw after the paid cards takes how many change cards, 0 to 2 (Deck Town): {_USAGE[verb]} draw N"
        )
    return words[:i], int(count[0])


def _split_pay(words: list[str]) -> tuple[list[str], list[str]]:
    lowered = [w.lower() for w in words]
    if "pay" not in lowered:
        raise NotationError(f"{words[0]} needs the cards you pay with: {_USAGE[words[0]]}")
    i = lowered.index("pay")
    return words[:i], words[i + 1 :]


def _parse_fly(words: list[str], card: CardReader) -> Move:
    head, pay_words = _split_pay(words)
    if len(head) != 3 or len(pay_words) != 1:
        raise NotationError(f"fly takes the form: {_USAGE['fly']}")
    return Fly(parse_cell(head[1]), parse_cell(head[2]), card(pay_words[0]))


def parse(text: str, card: CardReader = parse_zark_card, sort: CardSorter = sort_cards) -> Move:
    """Read one move in the notation (case-insensitive, any spacing); raise NotationError if unreadable.

    `card` and `sort` are the game's card reader and deck order (Zark City's by default)."""
    words = text.split()
    if not words:
        raise NotationError("the move is empty: type one move, like 'draw' or 'build 7H 1,0'")
    words[0] = verb = words[0].lower()
    if verb == "draw":
        _fixed(words, 1)
        return Draw()
    if verb == "resign":  # a bare `resign` is the kit's own step, read before the game's notation
        raise NotationError(f"resign takes the form: {_USAGE['resign']}")
    if verb == "choose":
        return Choose(card(_fixed(words, 2)[1]))
    if verb in ("place", "spawn"):
        at = parse_cell(_fixed(words, 2)[1])
        return Place(at) if verb == "place" else Spawn(at)
    if verb in ("build", "hatch"):
        _fixed(words, 3)
        code, at = card(words[1]), parse_cell(words[2])
        return Build(code, at) if verb == "build" else Hatch(code, at)
    if verb == "grow":
        _fixed(words, 3)
        return Grow(parse_size(words[1]), parse_cell(words[2]))
    if verb == "move":
        _fixed(words, 4)
        return MovePiece(parse_size(words[1]), parse_cell(words[2]), parse_cell(words[3]))
    if verb in ("demolish", "convert"):
        return _parse_attack(words, card, sort)
    if verb == "fly":
        return _parse_fly(words, card)
    if verb == "discard":
        if len(words) < 2:
            raise NotationError(f"discard takes the form: {_USAGE['discard']}")
        return Discard(sort([card(w) for w in words[1:]]))
    known = ", ".join(_USAGE)
    raise NotationError(f"{shown(words[0])} is not a move (the moves are: {known})")

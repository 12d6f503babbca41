"""Buyer's Market moves as small values, and the one parser that reads them (docs/notation.md).

    place M 7H                      a GRP pyramid onto the pallet of its colour (turn choice 2)
    contribute L 7H                 one bank pyramid onto a pallet not yet complete (choice 3)
    buy 7H                          take a pallet that holds its value (choice 1b)
    buy 3C with L back S            pay with bank pyramids (1a), making change (15.4)
    buy 3C with L return S          ... or change in the pallet's colour back to the GRP
    ... call                        any action may end with `call`: the building phase (B8)
    pile H                          after the atom, or a colour with nothing left: pick the pile
    pass                            only with no action at all
    resign                          the kit's, which every game shares (engine/kit/base.py)

The web form, the email reply and the command line all call `parse`; `parse(str(m)) == m`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import NotationError, shown
from .pieces import SIZES, SUITS, parse_card, parse_sizes


@dataclass(frozen=True, slots=True)
class Place:
    size: str
    card: str
    call: bool = False

    def __str__(self) -> str:
        return f"place {self.size} {self.card}" + (" call" if self.call else "")


@dataclass(frozen=True, slots=True)
class Contribute:
    size: str
    card: str
    call: bool = False

    def __str__(self) -> str:
        return f"contribute {self.size} {self.card}" + (" call" if self.call else "")


@dataclass(frozen=True, slots=True)
class Buy:
    card: str
    paid: tuple[str, ...] = ()  # bank pyramids contributed in the act (1a), largest first
    back: tuple[str, ...] = ()  # change: own-colour pyramids from the CRP back to the bank
    returned: tuple[str, ...] = ()  # change: pallet-colour pyramids from the CRP back to the GRP
    call: bool = False

    def __str__(self) -> str:
        words = [f"buy {self.card}"]
        for word, sizes in (("with", self.paid), ("back", self.back), ("return", self.returned)):
            if sizes:
                words.append(f"{word} {''.join(sizes)}")
        if self.call:
            words.append("call")
        return " ".join(words)


@dataclass(frozen=True, slots=True)
class PickPile:
    suit: str

    def __str__(self) -> str:
        return f"pile {self.suit}"


@dataclass(frozen=True, slots=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


Move = Place | Contribute | Buy | PickPile | Pass  # and the kit's `resign` (engine/kit/base.py)
Action = Place | Contribute | Buy
KIND_ORDER = (PickPile, Place, Contribute, Buy, Pass)
_BUY_WORDS = ("with", "back", "return")


def parse(text: str) -> Move:
    """One move in any accepted spelling (any case, sizes as LS or L S); NotationError saying what a
    move looks like."""
    if not isinstance(text, str):
        raise NotationError(f"a move must be text, not {type(text).__name__}")
    words = text.lower().split()
    if not words:
        raise NotationError("an empty move (try: place M 7H, contribute L 7H, buy 7H, pile H, pass)")
    verb, rest = words[0], words[1:]
    if verb == "pass" and not rest:
        return Pass()
    if verb == "pile" and len(rest) == 1:
        suit = rest[0].upper()
        if suit not in SUITS:
            raise NotationError(f"{shown(rest[0])} is not a suit (S, H, D, C or T)")
        return PickPile(suit)
    call = bool(rest) and rest[-1] == "call"
    if call:
        rest = rest[:-1]
    if verb in ("place", "contribute") and len(rest) == 2:
        size = rest[0].upper()
        if size not in SIZES:
            raise NotationError(f"{shown(rest[0])} is not a size (S, M or L)")
        card = parse_card(rest[1])
        return Place(size, card, call) if verb == "place" else Contribute(size, card, call)
    if verb == "buy" and rest:
        return _buy(text, rest, call)
    raise NotationError(
        f"{shown(text)} is not a move (write place M 7H, contribute L 7H, buy 7H [with LS] [back S]"
        " [return S] [call], pile H, pass or resign)"
    )


def _buy(text: str, rest: list[str], call: bool) -> Buy:
    card = parse_card(rest[0])
    groups: dict[str, tuple[str, ...]] = {}
    word = ""
    letters: dict[str, str] = {}
    for token in rest[1:]:
        if token in _BUY_WORDS:
            if token in letters:
                raise NotationError(f"{shown(text)}: {token!r} twice")
            word = token
            letters[word] = ""
        elif word:
            letters[word] += token
        else:
            raise NotationError(f"{shown(text)}: after the card come with, back, return (each with sizes) and call")
    order = [w for w in _BUY_WORDS if w in letters]
    if order != list(letters):
        raise NotationError(f"{shown(text)}: write with, back and return in that order")
    for word, sizes in letters.items():
        groups[word] = parse_sizes(sizes)
    return Buy(card, groups.get("with", ()), groups.get("back", ()), groups.get("return", ()), call)

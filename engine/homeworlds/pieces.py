"""The 36 pyramids: 3 of each colour x size, written colour then size (`g1`, `b3`), and the bank.

A piece is its two-letter text everywhere (states, steps, files): cheap to compare, hash and print.
"""

from __future__ import annotations

from collections.abc import Iterable

COLOURS = ("r", "y", "g", "b")  # the spec's order for listing pieces: red, yellow, green, blue
COLOUR_WORDS = {"r": "red", "y": "yellow", "g": "green", "b": "blue"}
COLOUR_LETTERS = {word: letter for letter, word in COLOUR_WORDS.items()}
SIZES = ("1", "2", "3")
PIECES = tuple(colour + size for colour in COLOURS for size in SIZES)  # already in canonical order
COPIES = 3  # REC-H1: three of each piece
ORDER = {piece: index for index, piece in enumerate(PIECES)}
BUILD_COLOUR, TRADE_COLOUR, MOVE_COLOUR, ATTACK_COLOUR = "g", "b", "y", "r"


def is_piece(text: str) -> bool:
    return text in ORDER


def colour(piece: str) -> str:
    return piece[0]


def size(piece: str) -> int:
    return int(piece[1])


def ordered(pieces: Iterable[str]) -> tuple[str, ...]:
    """Colour order r y g b, then size (the spec's order in files and homeworld steps)."""
    return tuple(sorted(pieces, key=ORDER.__getitem__))


def bank_of(table: Iterable[str]) -> dict[str, int]:
    """What is left in the bank when `table` (every star and ship in play) is out of it."""
    counts = dict.fromkeys(PIECES, COPIES)
    for piece in table:
        counts[piece] -= 1
    return counts


def smallest_in_bank(bank: dict[str, int], colour_letter: str) -> str | None:
    """REC-H6: the piece a build of this colour takes, if any is left."""
    return next((colour_letter + s for s in SIZES if bank[colour_letter + s] > 0), None)

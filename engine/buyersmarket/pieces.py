"""The pieces of Buyer's Market: the five suit piles, the colour die, resources and banks.

A pyramid is (owner, size): the owner is a suit letter for a resource (S H D C T, drawn in the
die's colour for that suit, rules.md 2.2 and B1) or a seat colour for a bank pyramid.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import NotationError, shown

GAME_ID = "buyersmarket"
RULES_VERSION = "buyersmarket/1"
PLAYER_COUNTS = (2, 3, 4)

SUITS = ("S", "H", "D", "C", "T")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "T": "stars"}
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663", "T": "\u2605"}
# The Arcade colour die (B1, rules.md 2.2): purple spades, red hearts, blue diamonds, green clubs,
# yellow stars, and the wild atom.
SUIT_COLOURS = {"S": "purple", "H": "red", "D": "blue", "C": "green", "T": "yellow"}
ATOM = "atom"
DIE_FACES = (*SUITS, ATOM)
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")  # no face cards (15.1)

SIZES = ("S", "M", "L")
PIPS = {"S": 1, "M": 2, "L": 3}
SIZE_NAMES = {"S": "Small", "M": "Medium", "L": "Large"}
BANK_TRIOS = 2  # each player's bank: two trios of their own colour
PURCHASE_CAP = 4  # pips of bank pyramids one purchase may add (15.3, B4)

Piece = tuple[str, str]  # (owner, size): owner a suit letter or a seat colour


def card_value(card: str) -> int:
    """The pallet's value: its number; an Ace needs 11."""
    rank = card[:-1]
    return 11 if rank == "A" else int(rank)


def card_suit(card: str) -> str:
    return card[-1]


def pile_cards(suit: str) -> tuple[str, ...]:
    """One suit pile in rank order (A, 2 .. 10) before it is shuffled."""
    return tuple(rank + suit for rank in RANKS)


ALL_CARDS = tuple(card for suit in SUITS for card in pile_cards(suit))


def parse_card(text: str) -> str:
    """ "7H", "10t", "ah" -> the canonical code; NotationError when it is no card of the five piles."""
    code = text.strip().upper()
    if code not in ALL_CARDS:
        raise NotationError(f"{shown(text)} is not a card of the piles (A, 2-10 of S H D C T, like 7H or 10T)")
    return code


def parse_sizes(text: str) -> tuple[str, ...]:
    """ "LS", "L S", "sl" -> ("L", "S"): sizes, largest first (the canonical order)."""
    letters = "".join(text.split()).upper()
    if not letters or any(letter not in SIZES for letter in letters):
        raise NotationError(f"{shown(text)} is not a list of sizes (letters S, M, L, like LS)")
    return sort_sizes(letters)


def sort_sizes(sizes: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(sizes, key=lambda s: -PIPS[s]))


def pips(sizes: Iterable[str]) -> int:
    return sum(PIPS[s] for s in sizes)


def piece_pips(pieces: Iterable[Piece]) -> int:
    return sum(PIPS[size] for _, size in pieces)


def sort_pieces(pieces: Iterable[Piece], players: tuple[str, ...] = ()) -> tuple[Piece, ...]:
    """Resources in suit order, then bank pyramids in seat order; largest first within an owner."""
    order = {owner: i for i, owner in enumerate((*SUITS, *players))}
    return tuple(sorted(pieces, key=lambda p: (order.get(p[0], 99), p[0], -PIPS[p[1]])))


def piece_text(piece: Piece) -> str:
    """ "H:L" (a hearts Large) or "red:S" (a Small of red's bank): the files' spelling."""
    return f"{piece[0]}:{piece[1]}"


def piece_words(piece: Piece) -> str:
    owner, size = piece
    if owner in SUITS:
        return f"a {SUIT_NAMES[owner]} {SIZE_NAMES[size]}"
    return f"a {SIZE_NAMES[size]} of {owner}'s bank"

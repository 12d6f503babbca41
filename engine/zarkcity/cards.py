"""Playing cards as canonical strings ("7H", "10S", "QT", "JK") and the two Zark City decks."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import NotationError, shown

STANDARD_SUITS = ("S", "H", "D", "C")
ARCADE_SUITS = ("S", "H", "D", "C", "T")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER = "JK"
DECK_TYPES = ("standard", "arcade")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "T": "stars"}

# Pip values of attack cards (rules.md section 7). Number cards have no pips.
ATTACK_PIPS = {"J": 1, "A": 1, "JK": 1, "Q": 2, "K": 3}


@dataclass(frozen=True, slots=True)
class CardInfo:
    """What the rules need to know about one card, looked up once per card string."""

    code: str
    rank: str  # "2".."10", "J", "Q", "K", "A" or "JK"
    suit: str | None  # None for a joker
    number: int  # 2..10 for number cards, 0 otherwise
    pips: int  # attack value, 0 for number cards
    order: int  # position in canonical deck order (suits S H D C T, A..K, jokers last)
    suits: tuple[str, ...] = ()  # every suit the card shows (a Decktet card has up to three)
    name: str = ""  # the printed name, where the card has one (Deck Town's "Lunatic")

    @property
    def is_number(self) -> bool:
        return self.number > 0

    @property
    def is_attack(self) -> bool:
        return self.pips > 0

    @property
    def is_ace(self) -> bool:
        return self.rank == "A"


def _build_table() -> dict[str, CardInfo]:
    table: dict[str, CardInfo] = {}
    for s_index, suit in enumerate(ARCADE_SUITS):
        for r_index, rank in enumerate(RANKS):
            code = rank + suit
            number = int(rank) if rank.isdigit() else 0
            table[code] = CardInfo(code, rank, suit, number, ATTACK_PIPS.get(rank, 0), s_index * 13 + r_index, (suit,))
    table[JOKER] = CardInfo(JOKER, JOKER, None, 0, 1, 1000)
    return table


CARDS: dict[str, CardInfo] = _build_table()


def info(card: str) -> CardInfo:
    return CARDS[card]


def parse_card(text: str) -> str:
    """Return the canonical form of a typed card ("10h" -> "10H"); raise NotationError if it is none."""
    code = text.strip().upper()
    if code not in CARDS:
        raise NotationError(f"{shown(text)} is not a card (write rank then suit, like 7H, 10S, QT, or JK for a joker)")
    return code


def deck_cards(deck_type: str) -> tuple[str, ...]:
    """Every card of a deck in canonical deck order: the order the first shuffle starts from."""
    suits: tuple[str, ...]
    if deck_type == "standard":
        suits, jokers = STANDARD_SUITS, 2
    elif deck_type == "arcade":
        suits, jokers = ARCADE_SUITS, 0
    else:
        raise NotationError(f"unknown deck {deck_type!r} (use standard or arcade)")
    return tuple(r + s for s in suits for r in RANKS) + (JOKER,) * jokers


def in_deck(card: str, deck_type: str) -> bool:
    suit = CARDS[card].suit
    if suit is None:
        return deck_type == "standard"
    return suit in (ARCADE_SUITS if deck_type == "arcade" else STANDARD_SUITS)


def sort_cards(cards: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Cards in canonical deck order, the order `pay` and `discard` lists are printed in."""
    return tuple(sorted(cards, key=lambda c: CARDS[c].order))

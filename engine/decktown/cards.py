"""The Myrmex deck of Deck Town (rules.md 14.1, D1): 72 Decktet cards, each with a short typed code.

Codes: suit letters in the Decktet's natural order, Moons M, Suns S, Waves W, Leaves L, Wyrms Y,
Knots K. An Ace is `A` + suit (AM), a number card its rank + suits (Lunatic 6MW), a Pawn `P` +
suits (Watchman PMYK), a Court `C` + suits (Consul CMWK), a Crown `K` + suit (Huntress KM). The
two copies of a number card share one code, as Zark City's two jokers share JK.
"""

from __future__ import annotations

from itertools import permutations

from ..errors import NotationError, shown
from ..zarkcity.cards import CardInfo

SUITS = ("M", "S", "W", "L", "Y", "K")  # natural order, Moons highest (D2)
SUIT_NAMES = {"M": "Moons", "S": "Suns", "W": "Waves", "L": "Leaves", "Y": "Wyrms", "K": "Knots"}
PIPS = {"Crown": 3, "Court": 2, "Pawn": 1}  # attack values (14.2); Aces only fly

# (name, rank, suits) of every distinct card, in canonical deck order.
NUMBER_CARDS = (
    ("Author", 2, "MK"),
    ("Desert", 2, "SY"),
    ("Origin", 2, "WL"),
    ("Journey", 3, "MW"),
    ("Painter", 3, "SK"),
    ("Savage", 3, "LY"),
    ("Mountain", 4, "MS"),
    ("Sailor", 4, "WL"),
    ("Battle", 4, "YK"),
    ("Forest", 5, "ML"),
    ("Discovery", 5, "SW"),
    ("Soldier", 5, "YK"),
    ("Lunatic", 6, "MW"),
    ("Penitent", 6, "SY"),
    ("Market", 6, "LK"),
    ("Chance Meeting", 7, "ML"),
    ("Castle", 7, "SK"),
    ("Cave", 7, "WY"),
    ("Diplomat", 8, "MS"),
    ("Mill", 8, "WL"),
    ("Betrayal", 8, "YK"),
    ("Pact", 9, "MS"),
    ("Darkness", 9, "WY"),
    ("Merchant", 9, "LK"),
)
CROWNS = (("Huntress", "M"), ("Bard", "S"), ("Sea", "W"), ("End", "L"), ("Calamity", "Y"), ("Windfall", "K"))
PAWNS = (("Watchman", "MYK"), ("Harvest", "MSL"), ("Borderland", "WLY"))  # Light Keeper dropped (D1)
COURTS = (("Consul", "MWK"), ("Window", "SLK"), ("Island", "SWY"))  # Rite dropped (D1)


def _info(code: str, rank: str, suits: str, number: int, name: str, order: int) -> CardInfo:
    return CardInfo(code, rank, suits[0], number, PIPS.get(rank, 0), order, tuple(suits), name)


def _build_table() -> dict[str, CardInfo]:
    rows = [(f"A{s}", "A", s, 0, f"Ace of {SUIT_NAMES[s]}") for s in SUITS]
    rows += [(f"{n}{s}", str(n), s, n, name) for name, n, s in NUMBER_CARDS]
    rows += [(f"P{s}", "Pawn", s, 0, name) for name, s in PAWNS]
    rows += [(f"C{s}", "Court", s, 0, name) for name, s in COURTS]
    rows += [(f"K{s}", "Crown", s, 0, name) for name, s in CROWNS]
    return {code: _info(code, rank, s, n, name, i) for i, (code, rank, s, n, name) in enumerate(rows)}


CARDS: dict[str, CardInfo] = _build_table()


def myrmex_deck() -> tuple[str, ...]:
    """The 72 cards in canonical order: the Aces, each number card twice, two of each Pawn and Court, the Crowns."""
    deck: list[str] = []
    for code, info in CARDS.items():
        deck.extend([code] * (2 if info.rank in ("Pawn", "Court") or info.number else 1))
    return tuple(deck)


def _squashed(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


def _aliases() -> dict[str, str]:
    """Every accepted spelling: the code with its suits in any order, and the name without spaces."""
    found: dict[str, str] = {}
    for code, info in CARDS.items():
        head, suits = code[: len(code) - len(info.suits)], code[len(code) - len(info.suits) :]
        for order in permutations(suits):
            found[head + "".join(order)] = code
        found[_squashed(info.name).upper()] = code
    return found


_ALIASES = _aliases()


def parse_card(text: str) -> str:
    """The code of a typed card ("6wm", "lunatic", "Chance-Meeting"); NotationError if it is none."""
    code = _ALIASES.get(_squashed(text).upper())
    if code is None:
        raise NotationError(
            f"{shown(text)} is not a Deck Town card"
            " (write a code like 6MW, AM, KS, PMYK or CMWK, or a name like lunatic)"
        )
    return code

"""The scripted middle game of the click-through test: one position, written after the real starter
choice and placement, in which the next five turns bring a build, a move, an attack with change and
the discard it forces, a fly, and a win by a power block (8S 8H 8D in an L).

    y\\x   0         1         2
    -1             (build)
     0   8S rS rM  8H rS      5D yS      <- red attacks yellow's small on 2,0 (K: 2 cards change)
     1   8D yS                           <- yellow moves away; red moves its small here and wins
     2   3C yM                           <- yellow flies this card away with an ace
"""

from __future__ import annotations

RED_HAND = ["7H", "KS", "2C", "3D", "4S", "9C"]  # six: red's turn-start draw is already in
YELLOW_HAND = ["AH", "5S", "6D"]
# Drawn in this order: yellow's turn start, red's turn start, red's two cards of change, yellow, red.
DECK = ["10S", "10H", "10D", "10C", "9S", "9H", "2H", "2D"]

TURNS = [
    ("red", "build 7H 1,-1"),
    ("yellow", "move S 0,1 0,2"),
    ("red", "demolish yellow S 2,0 pay KS"),
    ("red", "discard 2C"),
    ("yellow", "fly 0,2 3,0 pay AH"),
    ("red", "move S 0,0 0,1"),
]


def middle_game(seed: str) -> dict:
    """The position (zarkcity-position/1) with red to move at the start of turn 1."""
    return {
        "format": "zarkcity-position/1",
        "deck_type": "standard",
        "players": ["red", "yellow"],
        "phase": "act",
        "to_move": "red",
        "turn": 1,
        "first_player": "red",
        "board": [
            {"at": [0, 0], "card": "8S", "pieces": {"red": "SM"}},
            {"at": [1, 0], "card": "8H", "pieces": {"red": "S"}},
            {"at": [2, 0], "card": "5D", "pieces": {"yellow": "S"}},
            {"at": [0, 1], "card": "8D", "pieces": {"yellow": "S"}},
            {"at": [0, 2], "card": "3C", "pieces": {"yellow": "M"}},
        ],
        "hands": {"red": RED_HAND, "yellow": YELLOW_HAND},
        "deck": DECK,
        "discard": [],
        "seed": seed,
        "starters": [["red", "8S"], ["yellow", "3C"]],
    }

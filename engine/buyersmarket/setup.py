"""Setup and the die (15.2): every random event from the seed by engine/shuffle.py's method.

Shuffle number 0 orders the players (the first one starts); 1-5 shuffle the piles of S, H, D, C, T;
die roll k (0, 1, 2, ...) is the first face of DIE_FACES shuffled with number 100 + k. The four
setup rolls are rolls 0-3, made by the first player.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import PositionError
from ..interface import COLOURS
from ..shuffle import shuffled
from .pieces import BANK_TRIOS, DIE_FACES, PLAYER_COUNTS, SIZES, SUITS, pile_cards
from .state import State

ROLL_BASE = 100  # die roll k uses shuffle number ROLL_BASE + k
SETUP_PALLETS = 4


def seating(players: Sequence[str]) -> tuple[str, ...]:
    seats = tuple(players)
    if len(seats) not in PLAYER_COUNTS:
        raise PositionError(f"Buyer's Market seats 2 to 4 players, not {len(seats)}")
    for colour in seats:
        if colour not in COLOURS:
            raise PositionError(f"{colour!r} is not a player colour (red, yellow, green, blue or black)")
    if len(set(seats)) != len(seats):
        raise PositionError("each player needs a different colour")
    return seats


def roll(seed: str, number: int) -> str:
    """Die roll `number` of the game: a suit letter or "atom"."""
    return shuffled(DIE_FACES, seed, ROLL_BASE + number)[0]


def trios_per_colour(players: int) -> int:
    return 4 if players == 4 else 3


def fresh(players: Sequence[str], seed: str) -> State:
    """Everything before the first roll: shuffled face-up piles, the GRP, the banks."""
    seats = seating(players)
    trios = trios_per_colour(len(seats))
    return State(
        players=seats,
        seed=seed,
        first_player=shuffled(seats, seed, 0)[0],
        piles={suit: shuffled(pile_cards(suit), seed, 1 + i) for i, suit in enumerate(SUITS)},
        pallets=(),
        grp={suit: {size: trios for size in SIZES} for suit in SUITS},
        banks={colour: {size: BANK_TRIOS for size in SIZES} for colour in seats},
        crp={colour: () for colour in seats},
        collected={colour: () for colour in seats},
        to_move=None,
        owed=SETUP_PALLETS,
    )

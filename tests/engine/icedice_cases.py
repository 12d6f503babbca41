"""Positions and seeds for the IceDice tests: a position from a few fields, a seed that throws what a case needs."""

from __future__ import annotations

from itertools import count
from typing import Any

from engine.icedice.game import GAME
from engine.icedice.rules import die
from engine.icedice.state import COLOUR_FACES, SIZE_FACES, State

DICE = 10  # dice already thrown in the cases' positions: the next throw is dice 10 and 11


def seed_for(*throws: tuple[str, str], dice: int = DICE) -> str:
    """The first seed `t0`, `t1`, ... whose next throws, from die number `dice`, are `throws` in order."""
    for n in count():
        seed = f"t{n}"
        if all(
            die(seed, dice + 2 * i, SIZE_FACES) == size and die(seed, dice + 2 * i + 1, COLOUR_FACES) == colour
            for i, (size, colour) in enumerate(throws)
        ):
            return seed
    raise AssertionError("unreachable")


def pos(*throws: tuple[str, str], **fields: Any) -> State:
    """A two-player position, red to move in phase decide, whose next throws are `throws`."""
    data: dict[str, Any] = {
        "format": "icedice-position/1",
        "game": "icedice",
        "players": ["red", "blue"],
        "first_player": "red",
        "to_move": "red",
        "phase": "decide",
        "throw": {"size": "S", "colour": "atom"},
        "counter": [],
        "vaults": {},
        "dice": DICE,
        "resigned": [],
        "winner": None,
        "reason": None,
        "seed": seed_for(*throws) if throws else "demo",
    }
    data.update(fields)
    return GAME.from_position(data)


def moves(state: State, seat: str = "red") -> list[str]:
    return [str(m) for m in GAME.legal_moves(state, seat)]


def bank(state: State, kind: str) -> int:
    colour, _, size = kind.partition(":")
    return state.bank()[(colour, size)]

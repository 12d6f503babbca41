"""Black ICE's state and its draws from the seed (../shared/spec/blackice.md, "Random events").

The State is immutable and holds the whole truth, Codes and Box included: the views
(engine/blackice/views.py) cut it down to what each seat may know.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..interface import Result
from ..shuffle import shuffled

GAME_ID = "blackice"
RULES_VERSION = "blackice-rules/1"
COLOURS = ("red", "yellow", "green", "blue")  # Keys and Codes come in these four only, in this order
BOX = tuple(colour for colour in COLOURS for _ in range(3))  # the 12 Codes, 3 of each colour
FACES = ("tip", "swap", "hop", "dig", "aim", "wild")  # the Treehouse die
PLACES = (1, 2, 3)  # Locks and Nodes, Node i lined up with Lock i (REC-B2)
FIRST_DRAW = 100  # draw k is shuffle number 100 + k (0 and 1 are who starts and the starting Codes)

Keys = tuple[str | None, str | None, str | None]  # a seat's Nodes 1, 2, 3; None an empty Node


@dataclass(frozen=True)
class Lock:
    code: str  # the Code hidden under it
    peeked_by: tuple[str, ...] = ()  # the seats whose mark is on it (public), in seating order


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    seed: str
    first_player: str
    to_move: str
    locks: tuple[Lock, ...]
    box: tuple[str, ...]  # the Codes in the Black Box, kept in colour order (draws read it sorted)
    keys: tuple[Keys, ...]  # by seat, in `players` order
    throw: tuple[str, ...] = ()  # the dice as thrown
    actions: tuple[str, ...] = ()  # the faces after duplicates and nulls became `wild`
    used: tuple[bool, ...] = (False, False, False)
    draws: int = 0  # draws made so far: the next is number `draws`
    turn: int = 0  # grows by one with each throw
    resigned: tuple[str, ...] = ()
    outcome: Result | None = None

    def evolve(self, **changes: Any) -> State:
        return replace(self, **changes)

    def opponent(self, seat: str) -> str:
        return self.players[1 - self.players.index(seat)]

    def keys_of(self, seat: str) -> Keys:
        return self.keys[self.players.index(seat)]

    def with_keys(self, seat: str, keys: Keys) -> State:
        index = self.players.index(seat)
        return self.evolve(keys=(*self.keys[:index], keys, *self.keys[index + 1 :]))

    def peeked(self, place: int, seat: str) -> bool:
        return seat in self.locks[place - 1].peeked_by

    def supply(self, seat: str, colour: str) -> int:
        """Keys of `colour` left in `seat`'s supply: 3 of each minus those on its Nodes."""
        return 3 - self.keys_of(seat).count(colour)


def sorted_codes(codes: Any) -> tuple[str, ...]:
    return tuple(sorted(codes, key=COLOURS.index))


def first_player(players: tuple[str, ...], seed: str) -> str:
    return shuffled(players, seed, 0)[0]


def starting_codes(seed: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The Codes under Locks 1, 2, 3 and the 9 left in the Box (sorted)."""
    dealt = shuffled(BOX, seed, 1)
    return dealt[:3], sorted_codes(dealt[3:])


def die(seed: str, draw: int) -> str:
    return shuffled(FACES, seed, FIRST_DRAW + draw)[0]


def new_code(box: tuple[str, ...], seed: str, draw: int) -> str:
    return shuffled(sorted_codes(box), seed, FIRST_DRAW + draw)[0]

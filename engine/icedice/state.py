"""The whole truth of an IceDice game at one moment, as an immutable value (../shared/spec/icedice.md).

Pieces are `(colour, size)` kinds. There are n of each kind with n players (REC-I1); the Bank is not
stored: it is whatever is neither on the Counter nor in a Vault.
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from ..interface import COLOURS

GAME_ID = "icedice"
RULES_VERSION = "icedice/1"
PLAYER_COUNTS = (2, 3, 4, 5)
REASONS = ("trios", "resignation", "timeout", "draw")
SIZES = ("S", "M", "L")
SIZE_FACES = ("S", "M", "L", "S/M", "S/L", "M/L")  # the pyramid die
COLOUR_FACES = (*COLOURS, "atom")  # the colour die: the atom is wild
ATOM = "atom"
TRIOS_TO_WIN = 3

Piece = tuple[str, str]  # (colour, size)
KINDS: tuple[Piece, ...] = tuple((colour, size) for colour in COLOURS for size in SIZES)


@dataclass(frozen=True)
class Throw:
    """What the two dice show: a pyramid-die face (`S/M` offers either size) and a colour or the atom."""

    size: str
    colour: str

    def sizes(self) -> tuple[str, ...]:
        return tuple(self.size.split("/"))

    def __str__(self) -> str:
        return f"{self.size} + {self.colour}"


def sort_pieces(pieces: Iterable[Piece]) -> tuple[Piece, ...]:
    """Colour order (red, yellow, green, blue, black), then S, M, L: the position file's order."""
    return tuple(sorted(pieces, key=KINDS.index))


def piece_text(piece: Piece) -> str:
    return f"{piece[0]}:{piece[1]}"


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]  # seat colours in turn order
    first_player: str  # who held the dice first (REC-I8)
    to_move: str | None  # None once the game is over
    phase: str  # take (a choice of takes is pending), decide (roll or stop), over
    throw: Throw | None  # the latest throw
    counter: tuple[Piece, ...]  # the mover's pieces won this turn, sorted
    vaults: tuple[tuple[Piece, ...], ...]  # one per seat, in `players` order, sorted
    dice: int  # dice thrown so far: the next die is number `dice`
    seed: str
    resigned: tuple[str, ...] = ()
    winner: str | None = None
    reason: str | None = None  # trios | resignation | timeout | draw; None while the game is on

    def evolve(self, **changes: Any) -> State:
        return replace(self, **changes)

    def vault(self, seat: str) -> tuple[Piece, ...]:
        return self.vaults[self.players.index(seat)]

    def with_vault(self, seat: str, pieces: Iterable[Piece]) -> State:
        vaults = list(self.vaults)
        vaults[self.players.index(seat)] = sort_pieces(pieces)
        return self.evolve(vaults=tuple(vaults))

    def bank(self) -> Tally[Piece]:
        """How many of each kind the Bank holds: n of each, less the Counter and the Vaults."""
        held = Tally(self.counter) + Tally(piece for vault in self.vaults for piece in vault)
        return Tally({kind: len(self.players) - held[kind] for kind in KINDS if len(self.players) > held[kind]})

    def counter_colours(self) -> frozenset[str]:
        return frozenset(colour for colour, _ in self.counter)

    def seated(self) -> tuple[str, ...]:
        return tuple(seat for seat in self.players if seat not in self.resigned)

    def opponents(self, seat: str) -> tuple[str, ...]:
        """The other seated players, in turn order starting after `seat` (the order steals are offered in)."""
        start = self.players.index(seat)
        ring = self.players[start + 1 :] + self.players[:start]
        return tuple(other for other in ring if other not in self.resigned)


def trios(pieces: Iterable[Piece]) -> int:
    """REC-I6: per colour, the fewest of its S, M and L; the sum over colours."""
    count = Tally(pieces)
    return sum(min(count[(colour, size)] for size in SIZES) for colour in COLOURS)

"""Homeworlds' immutable State: the systems in play, whose turn and how far into it, the result.

Systems are small frozen values; a step rebuilds only the systems it touches, and the bank is
derived from the table once per state (cached), so replaying and listing steps stay cheap.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .pieces import bank_of, size

GAME_ID = "homeworlds"
RULES_VERSION = "homeworlds/1"
HOMEWORLD_NAMES = ("North", "South")  # REC-H3: the first player's, then the other's
STAGES = ("setup", "start", "sacrifice", "acted", "over")


@dataclass(frozen=True)
class System:
    """Stars (upright) and ships (lying down) per seat index (0: players[0], 1: players[1])."""

    name: str
    home: str | None  # the seat whose homeworld this is
    stars: tuple[str, ...]
    ships: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())

    @cached_property
    def key(self) -> str:
        return self.name.lower()

    def pieces(self) -> tuple[str, ...]:
        return (*self.stars, *self.ships[0], *self.ships[1])

    @cached_property
    def star_sizes(self) -> frozenset[int]:
        return frozenset(size(star) for star in self.stars)

    def connected(self, other: System) -> bool:
        """Connected when no star of one has the size of a star of the other; ships never matter."""
        return self.star_sizes.isdisjoint(other.star_sizes)

    def empty(self) -> bool:
        return not self.ships[0] and not self.ships[1]

    def with_ships(self, seat: int, ships: tuple[str, ...]) -> System:
        both = (ships, self.ships[1]) if seat == 0 else (self.ships[0], ships)
        return System(self.name, self.home, self.stars, both)

    @cached_property
    def overpopulated(self) -> tuple[str, ...]:
        """REC-H9: the colours with 4 or more pieces here (stars and both players' ships)."""
        counts: dict[str, int] = {}
        for piece in self.pieces():
            counts[piece[0]] = counts.get(piece[0], 0) + 1
        return tuple(c for c in "rygb" if counts.get(c, 0) >= 4)


@dataclass(frozen=True)
class Options:
    catastrophes: str = "anytime"  # REC-H10: anytime | end
    suicide: str = "legal"  # REC-H12: legal | illegal
    setup: str = "standard"  # REC-H4: standard | free

    def as_dict(self) -> dict[str, str]:
        return {"catastrophes": self.catastrophes, "suicide": self.suicide, "setup": self.setup}


@dataclass(frozen=True)
class Sacrifice:
    colour: str  # the piece colour letter whose actions the sacrifice gives
    left: int


@dataclass(frozen=True)
class LastTurn:
    by: str
    steps: tuple[str, ...]


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    first_player: str
    seed: str
    options: Options = field(default_factory=Options)
    to_move: str | None = None
    turn: int = 1
    stage: str = "setup"
    sacrifice: Sacrifice | None = None
    this_turn: tuple[str, ...] = ()
    systems: tuple[System, ...] = ()  # homeworlds first, then in order of discovery
    last_turn: LastTurn | None = None
    winner: str | None = None
    reason: str | None = None
    resigned: tuple[str, ...] = ()

    def evolve(self, **changes: Any) -> State:
        """`dataclasses.replace` without its per-field __init__ (the hot path of replay and listing);
        the cached bank is dropped, as `changes` may move pieces."""
        new = object.__new__(State)
        fields = new.__dict__
        fields.update(self.__dict__)
        fields.pop("bank", None)
        fields.update(changes)
        return new

    @cached_property
    def bank(self) -> dict[str, int]:
        return bank_of(piece for system in self.systems for piece in system.pieces())

    def seat(self, colour: str) -> int:
        return self.players.index(colour)

    def other(self, colour: str) -> str:
        return self.players[1 - self.players.index(colour)]

    def system(self, name: str) -> System | None:
        key = name.lower()
        return next((s for s in self.systems if s.key == key), None)

    def home_of(self, colour: str) -> System | None:
        return next((s for s in self.systems if s.home == colour), None)

    def has_ship_at_home(self, colour: str) -> bool:
        home = self.home_of(colour)
        return home is not None and bool(home.ships[self.seat(colour)])

    def overpopulated(self) -> bool:
        return any(system.overpopulated for system in self.systems)

    def with_system(self, old: System, new: System | None) -> State:
        """`old` replaced by `new`; REC-H2: a system that is not a homeworld and has no ships leaves
        play at once (None: it left play, e.g. a catastrophe took its last star)."""
        if new is None or (new.home is None and new.empty()):
            return self.evolve(systems=tuple(s for s in self.systems if s is not old))
        return self.evolve(systems=tuple(new if s is old else s for s in self.systems))

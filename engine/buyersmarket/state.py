"""The whole truth of a Buyer's Market game at one moment, as an immutable value.

`apply(state, move, by)` returns a new State and never changes the one it was given. The mappings
are plain dicts for speed; by contract nobody mutates them after construction.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from .pieces import PIPS, Piece, card_suit, card_value, piece_pips

REASONS = ("score", "resignation", "timeout", "draw")
PICK_REASONS = ("atom", "nothing left")  # why a roller picks the pile: the wild atom, or B6


@dataclass(frozen=True)
class Pallet:
    card: str
    pieces: tuple[Piece, ...] = ()  # in the order they were put on

    @property
    def suit(self) -> str:
        return card_suit(self.card)

    @property
    def value(self) -> int:
        return card_value(self.card)

    @property
    def total(self) -> int:
        """Pips of every pyramid on the card: a purchase needs at least the value."""
        return piece_pips(self.pieces)

    @property
    def resource_pips(self) -> int:
        """Pips of the GRP pyramids on the card: at most the value (B2)."""
        return sum(PIPS[size] for owner, size in self.pieces if owner == self.suit)

    @property
    def resources(self) -> int:
        return sum(1 for owner, _ in self.pieces if owner == self.suit)

    @property
    def complete(self) -> bool:
        return self.total >= self.value


@dataclass(frozen=True)
class Pick:
    """A roller must choose the pile the next pallet comes from (the atom, or B6)."""

    roller: str
    reason: str  # one of PICK_REASONS
    rolled: str  # the die face: "atom" or the suit whose colour had nothing left


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    seed: str
    first_player: str
    piles: Mapping[str, tuple[str, ...]]  # suit -> cards, top first, face up
    pallets: tuple[Pallet, ...]  # in play, in the order they were dealt
    grp: Mapping[str, Mapping[str, int]]  # suit -> size -> pyramids left in the global resource pile
    banks: Mapping[str, Mapping[str, int]]  # colour -> size -> own-colour pyramids in the bank
    crp: Mapping[str, tuple[Piece, ...]]  # colour -> collected resource pile
    collected: Mapping[str, tuple[str, ...]]  # colour -> cards bought, in order
    to_move: str | None
    turn: int = 0  # 0 while the first pallets are dealt; then the number of the turn being played
    rolls: int = 0  # die rolls so far: roll k is derived from the seed (docs/notation.md)
    owed: int = 0  # pallets still to deal in this roll sequence (4 at setup, 1 after a purchase)
    pending: Pick | None = None
    called_by: str | None = None  # who called the building phase (B8)
    last_round: tuple[str, ...] = ()  # who still has their one more turn, in turn order
    passes: int = 0  # consecutive passes (a player with no action); a full round ends the game (B7)
    last_roll: tuple[str, str] | None = None  # (roller, face) of the latest roll, for the picture
    resigned: tuple[str, ...] = ()
    winners: tuple[str, ...] = ()
    reason: str | None = None  # None while the game is on

    @property
    def phase(self) -> str:
        if self.reason is not None:
            return "over"
        if self.pending is not None:
            return "setup" if self.turn == 0 else "pick"
        return "last" if self.called_by is not None else "play"

    def active_players(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p not in self.resigned)

    def pallet(self, card: str) -> Pallet | None:
        return next((p for p in self.pallets if p.card == card), None)

    def grp_count(self, suit: str) -> int:
        return sum(self.grp[suit].values())

    def evolve(self, **changes: Any) -> State:
        return replace(self, **changes)

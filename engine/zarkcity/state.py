"""The whole truth of a Zark City game at one moment, as an immutable value.

`apply(state, move, by)` returns a new State and never changes the one it was given. Mappings
(board, hands) are plain dicts for speed; by contract nobody mutates them after construction.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .notation import SIZES, Cell
from .ruleset import ZARK_CITY, Ruleset
from .square import Square as Square  # re-exported: a State is read together with its Squares

RULES_VERSION = ZARK_CITY.version
HAND_LIMIT = ZARK_CITY.hand_limit  # Zark City's; a State's own is `state.ruleset.hand_limit`
PIECES_PER_SIZE = 3
PHASES = ("choose", "place", "act", "discard", "over")
REASONS = ("power block", "poker block", "resignation", "timeout", "draw", "tie")  # poker block, tie: Deck Town's


@dataclass(frozen=True)
class State:
    deck_type: str
    players: tuple[str, ...]  # seated colours in turn order (clockwise = increasing index)
    phase: str  # choose | place | act | discard | over
    to_move: str | None  # None in `choose` (simultaneous) and `over`
    board: Mapping[Cell, Square]
    hands: Mapping[str, tuple[str, ...]]
    deck: tuple[str, ...]  # deck[0] is drawn next
    discard: tuple[str, ...]  # discard[-1] is the top
    seed: str = ""  # drives every reshuffle (engine/shuffle.py)
    shuffles: int = 0  # the number of the last shuffle made: 0 the deal, then 1, 2, ... reshuffles
    starters: tuple[tuple[str, str], ...] = ()  # (colour, card) in commit order; hidden until all chose
    first_player: str | None = None
    resigned: tuple[str, ...] = ()
    revealed: tuple[tuple[int, str, tuple[str, ...]], ...] = ()  # re-deal round, colour, the hand shown
    pending: tuple[str, ...] = ()  # in `place`/`discard` setup steps: who still follows to_move, in order
    turn: int = 0  # 0 during setup (choose, place, the hand-limit discards); 1 is the first player's first turn
    winner: str | None = None
    reason: str | None = None  # power block | resignation | timeout | draw
    extra: Mapping[str, Any] = field(default_factory=dict)  # reserved for variants; empty in Zark City
    ruleset: Ruleset = ZARK_CITY  # the game this is: its cards, limits and winning blocks
    tied: tuple[str, ...] = ()  # the winners of a shared win (reason "tie"; Deck Town only), in seat order

    def stash(self, colour: str) -> Counter[str]:
        """Pieces of `colour` not on the board (rules.md 1.2): 3 of each size minus those placed."""
        stash = Counter({size: PIECES_PER_SIZE for size in SIZES})
        for square in self.board.values():
            for owner, size in square.pieces:
                if owner == colour:
                    stash[size] -= 1
        return stash

    def occupied(self, colour: str) -> list[Cell]:
        return [cell for cell, square in self.board.items() if any(o == colour for o, _ in square.pieces)]

    def active_players(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p not in self.resigned)

    def starters_revealed(self) -> bool:
        """Whether the chosen starters are public: once every remaining player has chosen."""
        return self.phase != "choose"

    @property
    def game(self) -> str:
        return self.ruleset.game

    def evolve(self, **changes: Any) -> State:
        return replace(self, **changes)

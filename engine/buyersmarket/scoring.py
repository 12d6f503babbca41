"""The building code (15.6) and the score (15.7): the best-scoring legal building of a CRP (B9, B10).

A building is a list of levels, bottom first: level 1 Larges, level 2 Mediums, levels 3 and up
Smalls. Each level carries at most one pyramid fewer than the level under it (some piece must stay
uncovered), so the bottom of a building of n Larges carries at most n - 1 Mediums. A level short
of its minimum (4 Larges, 3 Mediums, 1 Small) is still laid as a half-built top: its pyramids are
bricks, but it earns no Levels or Cohesiveness points and nothing goes on it.

The best building comes from building.py, an exact search (its docstring says why it is exact). Unused
pyramids cost a point each, so a piece stays out only when a bonus pays for it (B9: a piece left over
by choice is still Unused).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from .building import MINIMUM, Level, best_levels
from .pieces import SUITS, Piece


@dataclass(frozen=True)
class Breakdown:
    """One player's building and its score, line by line (15.7)."""

    levels: tuple[Level, ...]
    bricks: int
    levels_points: int
    cohesiveness: int
    diversity: int
    regality: int
    unused: int  # negative: one point off per CRP pyramid not in the building
    unspent: int  # pyramids left in the bank

    @property
    def total(self) -> int:
        return (
            self.bricks + self.levels_points + self.cohesiveness + self.diversity + self.regality + self.unused
        ) + self.unspent

    def lines(self) -> tuple[tuple[str, int], ...]:
        return (
            ("bricks", self.bricks),
            ("levels", self.levels_points),
            ("cohesiveness", self.cohesiveness),
            ("diversity", self.diversity),
            ("regality", self.regality),
            ("unused", self.unused),
            ("unspent", self.unspent),
        )


def completed(levels: tuple[Level, ...]) -> int:
    """How many levels, from the bottom, are built to code."""
    count = 0
    for index, level in enumerate(levels):
        if len(level) < (MINIMUM[index] if index < len(MINIMUM) else 1):
            break
        count += 1
    return count


def check_building(levels: tuple[Level, ...]) -> str | None:
    """Why `levels` breaks the building code (None: it keeps it)."""
    for index, level in enumerate(levels):
        size = "LM"[index] if index < 2 else "S"
        if not level or any(s != size for _, s in level):
            return f"level {index + 1} must be {size} pyramids only, at least one"
        if index and len(level) > len(levels[index - 1]) - 1:
            return f"level {index + 1} has {len(level)} pyramids on {len(levels[index - 1])}: one must stay uncovered"
        if index + 1 < len(levels) and index < 2 and len(level) < MINIMUM[index]:
            return f"level {index + 1} is short of {MINIMUM[index]}: nothing may be built on it"
    return None


def score(levels: tuple[Level, ...], crp_size: int, bank: int) -> Breakdown:
    """The score of one building (15.7) from a CRP of `crp_size` pyramids with `bank` left in the bank."""
    done = levels[: completed(levels)]
    bricks = sum(len(level) for level in levels)
    owners = {owner for level in levels for owner, _ in level}
    top_spires = len(levels[-1]) if len(levels) >= 3 else 0
    return Breakdown(
        levels=levels,
        bricks=bricks,
        levels_points=2 * len(done),
        cohesiveness=3 * sum(1 for level in done if len({o for o, _ in level}) == 1),
        diversity=3 if set(SUITS) <= owners else 0,
        regality=4 * max(0, top_spires - 1),
        unused=-(crp_size - bricks),
        unspent=bank,
    )


def best_building(crp: Iterable[Piece], bank: int) -> Breakdown:
    """The best-scoring legal building of a CRP (B9, B10), found by the exact search of building.py."""
    pieces = tuple(sorted(crp))  # the order of the pile does not matter: one search per pile
    return score(_best_levels(pieces), len(pieces), bank)


@lru_cache(maxsize=256)
def _best_levels(pieces: tuple[Piece, ...]) -> tuple[Level, ...]:
    """Views of a finished game ask for the same buildings again and again."""
    return best_levels(pieces)

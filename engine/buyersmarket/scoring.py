"""The building code (15.6) and the score (15.7): the best-scoring legal building of a CRP (B9, B10).

A building is a list of levels, bottom first: level 1 Larges, level 2 Mediums, levels 3 and up
Smalls. Each level carries at most one pyramid fewer than the level under it (some piece must stay
uncovered), so the bottom of a building of n Larges carries at most n - 1 Mediums. A level short
of its minimum (4 Larges, 3 Mediums, 1 Small) is still laid as a half-built top: its pyramids are
bricks, but it earns no Levels or Cohesiveness points and nothing goes on it.

The search tries every number of pyramids on every level (every split of the Smalls into levels);
for each level it tries one colour (Cohesiveness) or as many GRP colours as the level has room for
(Diversity). Unused pyramids cost a point each, so the search keeps a piece out only when a bonus
pays for it (B9: a piece left over by choice is still Unused).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from .pieces import SUITS, Piece

MINIMUM = (4, 3)  # Larges for level 1, Mediums for level 2; every Small level needs 1
ALL_SUITS = (1 << len(SUITS)) - 1
Level = tuple[Piece, ...]
Options = dict[int, tuple[int, tuple[Level, ...]]]  # GRP colour mask -> (value, levels)


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
    """The best-scoring legal building of a CRP; ties go to the first found (fewest pyramids, then suit order)."""
    pieces = tuple(crp)
    pools = {size: _pool(pieces, size) for size in "LMS"}
    best: tuple[int, tuple[Level, ...]] = (0, ())
    for n1 in range(1, sum(c for _, c in pools["L"]) + 1):
        for mask1, (v1, levels1) in _single(pools["L"], n1, MINIMUM[0]).items():
            for mask, value, levels in _upper(pools, n1, mask1, v1, levels1):
                total = value + (3 if mask == ALL_SUITS else 0)
                if total > best[0]:
                    best = (total, levels)
    return score(best[1], len(pieces), bank)


def _upper(
    pools: dict[str, tuple[tuple[str, int], ...]], n1: int, mask1: int, v1: int, levels1: tuple[Level, ...]
) -> Iterable[tuple[int, int, tuple[Level, ...]]]:
    """Every way on from a level 1 of n1 pyramids: stop there, or lay Mediums (and Smalls on them)."""
    yield mask1, v1, levels1
    if n1 < MINIMUM[0]:
        return
    for n2 in range(1, min(n1 - 1, sum(c for _, c in pools["M"])) + 1):
        for mask2, (v2, levels2) in _single(pools["M"], n2, MINIMUM[1]).items():
            yield mask1 | mask2, v1 + v2, levels1 + levels2
            if n2 < MINIMUM[1]:
                continue
            for mask3, (v3, levels3) in _smalls(pools["S"], n2 - 1).items():
                yield mask1 | mask2 | mask3, v1 + v2 + v3, levels1 + levels2 + levels3


def _pool(pieces: tuple[Piece, ...], size: str) -> tuple[tuple[str, int], ...]:
    counts = Counter(owner for owner, s in pieces if s == size)
    order = {owner: i for i, owner in enumerate(SUITS)}
    return tuple(sorted(counts.items(), key=lambda kv: (order.get(kv[0], 9), kv[0])))


def _mask(level: Level) -> int:
    return sum(1 << SUITS.index(o) for o in {o for o, _ in level} if o in SUITS)


def _value(level: Level, minimum: int) -> int:
    """A level's worth before Diversity, Regality and Unused: 2 a brick (it is not Unused), and Levels
    and Cohesiveness once built to code."""
    value = 2 * len(level)
    if len(level) >= minimum:
        value += 2 + (3 if len({o for o, _ in level}) == 1 else 0)
    return value


@lru_cache(maxsize=4096)
def _candidates(pool: tuple[tuple[str, int], ...], n: int) -> tuple[Level, ...]:
    """Levels of n pyramids from `pool`: all one colour, or as many GRP colours as fit, the rest filled."""
    size_of = "S"  # the size is put back by the caller's pool: only owners matter here
    found: list[Level] = []
    counts = dict(pool)
    if sum(counts.values()) < n:
        return ()
    for owner, count in pool:
        if count >= n:
            found.append(tuple((owner, size_of) for _ in range(n)))
    suits = [o for o, c in pool if o in SUITS and c > 0]
    for chosen in combinations(suits, min(n, len(suits))):
        left = dict(counts)
        level = list(chosen)
        for owner in chosen:
            left[owner] -= 1
        for owner, _ in sorted(pool, key=lambda kv: -left[kv[0]]):
            while len(level) < n and left[owner] > 0:
                level.append(owner)
                left[owner] -= 1
        found.append(tuple((owner, size_of) for owner in level))
    return tuple(found)


def _sized(level: Level, size: str) -> Level:
    return tuple((owner, size) for owner, _ in level)


def _keep(options: Options, mask: int, value: int, levels: tuple[Level, ...]) -> None:
    if mask not in options or value > options[mask][0]:
        options[mask] = (value, levels)


def _prune(options: Options) -> Options:
    """Drop colour sets that cannot matter: worse than another set they are part of, or 3 (the Diversity
    bonus) or more below the best."""
    top = max((v for v, _ in options.values()), default=0)
    kept = {}
    for mask, (value, levels) in options.items():
        if value <= top - 3 and value != top:
            continue
        if any(m != mask and m & mask == mask and v >= value for m, (v, _) in options.items()):
            continue
        kept[mask] = (value, levels)
    return kept


def _single(pool: tuple[tuple[str, int], ...], n: int, minimum: int) -> Options:
    size = "L" if minimum == MINIMUM[0] else "M"
    options: Options = {}
    for level in _candidates(pool, n):
        sized = _sized(level, size)
        _keep(options, _mask(sized), _value(sized, minimum), (sized,))
    return _prune(options)


def _minus(pool: tuple[tuple[str, int], ...], level: Level) -> tuple[tuple[str, int], ...]:
    used = Counter(owner for owner, _ in level)
    return tuple((owner, count - used[owner]) for owner, count in pool if count - used[owner] > 0)


@lru_cache(maxsize=4096)
def _smalls(pool: tuple[tuple[str, int], ...], bound: int) -> Options:
    """Levels 3 and up from a pool of Smalls, the first of at most `bound`: each level one fewer at most.
    The top level's Smalls are Spires: 4 points each beyond the first (Regality)."""
    options: Options = {}
    for n in range(1, min(bound, sum(c for _, c in pool)) + 1):
        for level in _candidates(pool, n):
            sized = _sized(level, "S")
            value, mask = _value(sized, 1), _mask(sized)
            _keep(options, mask, value + 4 * (n - 1), (sized,))
            for above_mask, (above, levels) in _smalls(_minus(pool, sized), n - 1).items():
                _keep(options, mask | above_mask, value + above, (sized, *levels))
    return _prune(options)

"""Buyer's Market scoring (rules.md 15.6, 15.7, B9-B11): buildings worked out by hand, and the search
checked against a brute-force enumerator of every building on random and Hypothesis-made collected piles.

Each hand-worked row gives the collected pile, the pyramids left in the bank, the pyramids on each
level the best building has (bottom first) and its score line by line: bricks, levels,
cohesiveness, diversity, regality, unused, unspent.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.buyersmarket.building import best_plan
from engine.buyersmarket.scoring import best_building, check_building, score
from tests.engine.test_buyersmarket_rules import pieces

HAND_WORKED = [
    # 4 mixed Larges, 3 mixed Mediums, 1 Small (a level of one is monochrome): every GRP colour, one Spire.
    ("the smallest complete building", "H:L D:L C:L T:L H:M D:M S:M C:S", 0, [4, 3, 1], (8, 6, 3, 3, 0, 0, 0)),
    # The seed: "if a third level contains 2 Smalls, a single Small may be placed on 1 of those".
    # Two Smalls carrying a third (4 levels, all hearts) beats a top of three... which 3 Mediums cannot carry.
    (
        "the seed's two Smalls carrying a third",
        "H:L H:L H:L H:L H:M H:M H:M H:S H:S H:S",
        0,
        [4, 3, 2, 1],
        (10, 8, 12, 0, 0, 0, 0),
    ),
    # Wide Mediums carry three Spires: +8 Regality beats a fourth level (+2 Levels +3 Cohesiveness).
    (
        "regality beats a fourth level",
        "D:L D:L D:L D:L D:L D:M D:M D:M D:M D:S D:S D:S",
        0,
        [5, 4, 3],
        (12, 6, 9, 0, 8, 0, 0),
    ),
    # The odd diamonds Large stays out: Cohesiveness (+3) is worth more than its brick and Unused (2). (B9)
    ("a monochrome level beats a brick", "H:L H:L H:L H:L D:L H:M H:M H:M H:S", 0, [4, 3, 1], (8, 6, 9, 0, 0, -1, 0)),
    # Three Larges: level 1 is half-built and nothing goes on it; the rest is Unused; the bank counts.
    ("a half-built bottom", "H:L H:L D:L H:M H:M H:S", 2, [3], (3, 0, 0, 0, 0, -3, 2)),
    # B14: a half-built level of one colour earns no Cohesiveness: its pyramids are only bricks.
    ("B14: a monochrome half-built bottom", "H:L H:L H:L H:M", 0, [3], (3, 0, 0, 0, 0, -1, 0)),
    # B14: a half-built level 2 of one Medium (a level of one pyramid) is still not complete: no points.
    ("B14: one Medium on four Larges", "H:L H:L H:L H:L H:M H:S", 0, [4, 1], (5, 2, 3, 0, 0, -1, 0)),
    # Two Mediums on four Larges: a half-built level 2 (its bricks count), the Smalls cannot go up.
    ("a half-built second level", "H:L H:L H:L H:L D:M D:M C:S C:S", 0, [4, 2], (6, 2, 3, 0, 0, -2, 0)),
    # Colours spread over the levels for Diversity, with monochrome Mediums and Smalls.
    ("diversity across levels", "S:L H:L D:L C:L T:M T:M T:M H:S", 0, [4, 3, 1], (8, 6, 6, 3, 0, 0, 0)),
    # Diversity needs the spades Large, which spoils level 1's Cohesiveness: 28 against 26 without it.
    (
        "diversity against cohesiveness",
        "H:L H:L H:L H:L S:L H:M H:M H:M D:S C:S T:S",
        0,
        [5, 3, 2, 1],
        (11, 8, 6, 3, 0, 0, 0),
    ),
    # B11: the player's own bank pyramids in the collected pile build and count for Cohesiveness, not Diversity.
    ("bank pyramids build (B11)", "red:L red:L red:L red:L red:M red:M H:M red:S", 0, [4, 3, 1], (8, 6, 6, 0, 0, 0, 0)),
    # 16 of the 17 pyramids: 6 + 4 + 3 + 2 + 1 bricks, 5 levels; the 2 Smalls (two spades) and the 1 (a
    # diamond) are monochrome, so +6; the 3 under them is mixed (diamond, clubs, clubs). No stars: no
    # Diversity; no monochrome Larges or Mediums. The earlier heuristic search found 28 here, not 31.
    (
        "two monochrome small levels",
        "H:L H:L S:L S:L S:L red:L C:M H:M S:M S:M C:S C:S D:S D:S S:S S:S red:S",
        0,
        [6, 4, 3, 2, 1],
        (16, 10, 6, 0, 0, -1, 0),
    ),
    # Four hearts Larges make level 1 monochrome and bring hearts to Diversity (no other hearts): 22. Laying
    # the spades Large too would make 5 mixed Larges: +1 brick, no longer Unused, but -3 Cohesiveness: 21.
    (
        "a monochrome level brings its colour",
        "H:L H:L H:L H:L S:L S:M D:M C:M T:S",
        0,
        [4, 3, 1],
        (8, 6, 6, 3, 0, -1, 0),
    ),
    # Nothing collected: only the bank scores.
    ("nothing collected", "", 6, [], (0, 0, 0, 0, 0, 0, 6)),
]


@pytest.mark.parametrize(("name", "crp", "bank", "levels", "lines"), HAND_WORKED, ids=[r[0] for r in HAND_WORKED])
def test_hand_worked_buildings(name, crp, bank, levels, lines) -> None:
    building = best_building(pieces(crp), bank)
    assert [len(level) for level in building.levels] == levels
    assert tuple(points for _, points in building.lines()) == lines
    assert building.total == sum(lines)
    assert check_building(building.levels) is None


def test_the_breakdown_names_every_line_of_the_score_sheet() -> None:
    names = [name for name, _ in best_building(pieces("H:L"), 0).lines()]
    assert names == ["bricks", "levels", "cohesiveness", "diversity", "regality", "unused", "unspent"]


@pytest.mark.parametrize(
    ("levels", "error"),
    [
        ("H:L H:L H:L H:L|H:M H:M H:M H:M", "one must stay uncovered"),
        ("H:L H:L H:L|H:M", "short of 4"),
        ("H:L H:L H:L H:L|H:S", "level 2 must be M"),
        ("H:L H:L H:L H:L|H:M H:M H:M|H:S H:S|H:S H:S", "one must stay uncovered"),
    ],
)
def test_the_building_code_refuses(levels: str, error: str) -> None:
    built = tuple(pieces(level) for level in levels.split("|"))
    assert error in (check_building(built) or "")


# --- brute force ---------------------------------------------------------------------------------------
# The search is checked against an enumerator simple enough to trust: every way to take pyramids out of
# the pile level by level (Larges, then Mediums, then Smalls; pyramids of one owner and size are alike,
# so a level is a sub-multiset of what is left), scored straight from 15.7 without the engine's code.


def sub_multisets(pool: Counter, most: int) -> list[tuple[str, ...]]:
    """Every non-empty choice of at most `most` pyramids from `pool` (owner -> count)."""
    owners = sorted(pool)
    choices = []
    for counts in itertools.product(*(range(pool[o] + 1) for o in owners)):
        if 0 < sum(counts) <= most:
            choices.append(tuple(o for o, k in zip(owners, counts, strict=True) for _ in range(k)))
    return choices


def every_building(pile: tuple) -> list[tuple[tuple[str, ...], ...]]:
    """Every legal building (levels of owners, bottom first), the empty one included."""
    pools = {size: Counter(o for o, s in pile if s == size) for size in "LMS"}
    found: list[tuple[tuple[str, ...], ...]] = [()]

    def smalls(levels: tuple, left: Counter) -> None:
        for level in sub_multisets(left, len(levels[-1]) - 1):
            found.append((*levels, level))
            smalls((*levels, level), left - Counter(level))

    for level1 in sub_multisets(pools["L"], len(pile)):
        found.append((level1,))
        if len(level1) < 4:
            continue  # a half-built level carries nothing
        for level2 in sub_multisets(pools["M"], len(level1) - 1):
            found.append((level1, level2))
            if len(level2) >= 3:
                smalls((level1, level2), pools["S"])
    return found


def score_sheet(levels: tuple, pile_size: int, bank: int) -> int:
    """15.7 line by line, with the rulings of docs/rules.md (a short level earns no Levels or Cohesiveness)."""
    built = 0
    for level, minimum in zip(levels, (4, 3, *[1] * len(levels)), strict=False):
        if len(level) < minimum:
            break
        built += 1
    bricks = sum(len(level) for level in levels)
    monochrome = sum(1 for level in levels[:built] if len(set(level)) == 1)
    every_suit = {"S", "H", "D", "C", "T"} <= {o for level in levels for o in level}
    spires = len(levels[-1]) if len(levels) >= 3 else 0
    return bricks + 2 * built + 3 * monochrome + 3 * every_suit + 4 * max(0, spires - 1) - (pile_size - bricks) + bank


def brute_force(pile: tuple, bank: int) -> int:
    return max(score_sheet(levels, len(pile), bank) for levels in every_building(pile))


def assert_search_is_best(pile: tuple, bank: int) -> None:
    building = best_building(pile, bank)
    assert building.total == brute_force(pile, bank), pile
    # The search's own count agrees: no level it left mixed turned out monochrome by luck.
    assert best_plan(pile)[0] - len(pile) + bank == building.total
    assert check_building(building.levels) is None
    assert building == score(building.levels, len(pile), bank)
    used = Counter(p for level in building.levels for p in level)
    assert not used - Counter(pile), "the building uses pyramids the pile does not have"


OWNERS = ["S", "H", "D", "C", "T", "red"]


def random_pile(rng: random.Random, larges: int, mediums: int, smalls: int) -> tuple:
    """A collected pile whose sizes each come from a few owners (so monochrome levels happen) or from all six."""
    pile = []
    for size, count in (("L", larges), ("M", mediums), ("S", smalls)):
        owners = rng.sample(OWNERS, rng.randint(1, 6))
        pile += [(rng.choice(owners), size) for _ in range(count)]
    return tuple(pile)


def test_the_enumerator_counts_the_buildings_of_a_small_pile() -> None:
    # 4 Larges of one owner: 1, 2, 3 or 4 of them; on the 4, 1-3 of the 3 Mediums; on the 3, one Small.
    pile = pieces("H:L H:L H:L H:L H:M H:M H:M H:S")
    assert len(every_building(pile)) == 1 + 4 + 3 + 1


@pytest.mark.parametrize("seed", range(160))
def test_the_search_finds_the_brute_force_best_on_random_piles(seed: int) -> None:
    rng = random.Random(seed)
    # Half the piles are wide enough for Small levels of 4, 3, 2 and 1 (up to 7 Larges, 6 Mediums and
    # 4 to 7 Smalls); the others are piles of every shape, half-built ones and empty ones included.
    if seed % 2 == 0:
        pile = random_pile(rng, rng.randint(4, 7), rng.randint(3, 6), rng.randint(4, 7))
    else:
        pile = random_pile(rng, rng.randint(0, 6), rng.randint(0, 5), rng.randint(0, 7))
    assert_search_is_best(pile, rng.randint(0, 6))


def pile_of(size: str, most: int) -> st.SearchStrategy[list]:
    return st.lists(st.tuples(st.sampled_from(OWNERS), st.just(size)), max_size=most)


@settings(max_examples=120, deadline=None)
@given(pile_of("L", 6), pile_of("M", 5), pile_of("S", 6), st.integers(0, 12))
def test_the_search_finds_the_brute_force_best_on_any_small_pile(larges, mediums, smalls, bank: int) -> None:
    assert_search_is_best(tuple(larges + mediums + smalls), bank)

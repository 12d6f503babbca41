"""Buyer's Market scoring (rules.md 15.6, 15.7, B9-B11): buildings worked out by hand, and the search
checked against brute force on small collected piles.

Each hand-worked row gives the collected pile, the pyramids left in the bank, the pyramids on each
level the best building has (bottom first) and its score line by line: bricks, levels,
cohesiveness, diversity, regality, unused, unspent.
"""

from __future__ import annotations

import itertools
import random

import pytest

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


def brute_force(crp: tuple, bank: int) -> int:
    """Every assignment of every pyramid to a level it may go on, or to nothing: the best legal score."""
    larges = [p for p in crp if p[1] == "L"]
    mediums = [p for p in crp if p[1] == "M"]
    smalls = [p for p in crp if p[1] == "S"]
    best = None
    for l_in in itertools.product((0, 1), repeat=len(larges)):
        level1 = tuple(p for p, k in zip(larges, l_in, strict=True) if k)
        for m_in in itertools.product((0, 1), repeat=len(mediums)):
            level2 = tuple(p for p, k in zip(mediums, m_in, strict=True) if k)
            for s_at in itertools.product(range(len(smalls) + 1), repeat=len(smalls)):
                placed = list(zip(smalls, s_at, strict=True))
                upper = [tuple(p for p, k in placed if k == j) for j in range(1, len(smalls) + 1)]
                levels = (level1, level2, *upper)
                while levels and not levels[-1]:
                    levels = levels[:-1]
                if check_building(levels) is not None:
                    continue
                total = score(levels, len(crp), bank).total
                best = total if best is None else max(best, total)
    assert best is not None
    return best


@pytest.mark.parametrize("seed", range(12))
def test_the_search_finds_the_brute_force_best(seed: int) -> None:
    rng = random.Random(seed)
    owners = ["S", "H", "D", "C", "T", "red"]
    crp = tuple(
        [(rng.choice(owners), "L") for _ in range(rng.randint(3, 5))]
        + [(rng.choice(owners), "M") for _ in range(rng.randint(2, 4))]
        + [(rng.choice(owners), "S") for _ in range(rng.randint(1, 3))]
    )
    assert best_building(crp, 1).total == brute_force(crp, 1)

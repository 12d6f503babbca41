"""Fixtures for the archive tests: stored games (the named users come from tests/conftest.py).

A stored game is played by the engine with a seeded random policy, then written as the Game,
Seat and Move rows the games app would have written, so these tests do not depend on the play
pages; one test (test_archive_hook.py) drives the real services end to end.
"""

from __future__ import annotations

import pytest

from tests.archive.archive_helpers import GOLDEN_PLIES, GOLDEN_RNG, GOLDEN_SEED, play_random, store_game


@pytest.fixture(scope="session")
def golden_play():
    """The golden game: two players, a fixed seed and policy, played to its end (or resigned at the cap)."""
    return play_random(["red", "yellow"], GOLDEN_SEED, rng_seed=GOLDEN_RNG, max_plies=GOLDEN_PLIES, finish=True)


@pytest.fixture
def golden_game(alice, bob, golden_play):
    return store_game([alice, bob], golden_play)

"""Fixtures for the archive tests: the named users (as in tests/service) and stored games.

A stored game is played by the engine with a seeded random policy, then written as the Game,
Seat and Move rows the games app would have written, so these tests do not depend on the play
pages; one test (test_archive_hook.py) drives the real services end to end.
"""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from archive_helpers import GOLDEN_PLIES, GOLDEN_RNG, GOLDEN_SEED, play_random, store_game
from django.contrib.auth import get_user_model

NAMES = ("alice", "bob", "charlie", "dave", "erin")
PASSWORD = "correct horse battery staple"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def make_user(name: str):
    user = get_user_model().objects.create_user(username=name, email=f"{name}@example.com", password=PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


@pytest.fixture
def alice(db):
    return make_user("alice")


@pytest.fixture
def bob(db):
    return make_user("bob")


@pytest.fixture
def charlie(db):
    return make_user("charlie")


@pytest.fixture
def users(db):
    return [make_user(name) for name in NAMES]


@pytest.fixture(scope="session")
def golden_play():
    """The golden game: two players, a fixed seed and policy, played to its end (or resigned at the cap)."""
    return play_random(["red", "yellow"], GOLDEN_SEED, rng_seed=GOLDEN_RNG, max_plies=GOLDEN_PLIES, finish=True)


@pytest.fixture
def golden_game(alice, bob, golden_play):
    return store_game([alice, bob], golden_play)

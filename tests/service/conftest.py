"""Shared fixtures for the service tests: the named users alice, bob, charlie, dave and erin.

Each has a verified primary address <name>@example.com (allauth's EmailAddress) and the password
"correct horse battery staple", so tests can log in with the client or match invitations by email.
"""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model

NAMES = ("alice", "bob", "charlie", "dave", "erin")
PASSWORD = "correct horse battery staple"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """PBKDF2 is slow by design; tests log in often and need no protection."""
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
def dave(db):
    return make_user("dave")


@pytest.fixture
def erin(db):
    return make_user("erin")


@pytest.fixture
def users(alice, bob, charlie, dave, erin):
    """All five, in seat order."""
    return [alice, bob, charlie, dave, erin]


def pytest_collection_modifyitems(config, items):
    """Tests marked postgres run only when the test database is PostgreSQL (DATABASE_URL)."""
    from django.conf import settings

    if settings.DATABASES["default"]["ENGINE"].endswith("postgresql"):
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL: set DATABASE_URL=postgres://...")
    for item in items:
        if "postgres" in item.keywords:
            item.add_marker(skip)

"""Fixtures for the notification tests: the named users, Celery run eagerly, the Redis marker's skip."""

from __future__ import annotations

import os

import pytest

from tests.service.conftest import (  # noqa: F401  (fixtures shared with the service tests)
    alice,
    bob,
    charlie,
    dave,
    erin,
    fast_password_hashing,
    users,
)
from zarkcity_site.celery import app as celery_app


def pytest_collection_modifyitems(config, items):
    if os.environ.get("REDIS_URL"):
        return
    skip = pytest.mark.skip(reason="needs a real Redis: set REDIS_URL=redis://127.0.0.1:6379/0")
    for item in items:
        if "redis" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def eager():
    """Tasks run at once in this process, as if a worker had taken them off the queue."""
    conf = celery_app.conf
    saved = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager, conf.task_eager_propagates = True, True
    yield
    conf.task_always_eager, conf.task_eager_propagates = saved

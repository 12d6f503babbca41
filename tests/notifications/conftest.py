"""Fixtures for the notification tests: Celery run eagerly (the named users come from tests/conftest.py)."""

from __future__ import annotations

import pytest

from zarkcity_site.celery import app as celery_app


@pytest.fixture
def eager():
    """Tasks run at once in this process, as if a worker had taken them off the queue."""
    conf = celery_app.conf
    saved = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager, conf.task_eager_propagates = True, True
    yield
    conf.task_always_eager, conf.task_eager_propagates = saved

"""The worker keeps its database connection from one task to the next (left alone, Celery's Django fixup
closes it around every task: a new PostgreSQL connection per email), and still drops one that is too
old or broken, as Django does around each request."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest
from celery.fixups.django import DjangoWorkerFixup
from django.db import connection

from zarkcity_site.celery import app as celery_app
from zarkcity_site.celery import tidy_connections

pytestmark = pytest.mark.django_db(transaction=True)  # autocommit, as in the worker: no test transaction open
TASK = SimpleNamespace(request=SimpleNamespace(is_eager=False))


def run_tasks(count: int) -> None:
    """What the worker does around each task: Celery's fixup and ours, before and after."""
    fixup = DjangoWorkerFixup(celery_app)
    for _ in range(count):
        fixup.on_task_prerun(TASK)
        tidy_connections(sender=TASK)
        connection.ensure_connection()  # the task uses the database
        fixup.on_task_postrun(TASK)
        tidy_connections(sender=TASK)


def test_the_same_connection_serves_task_after_task():
    connection.ensure_connection()
    before = connection.connection
    run_tasks(20)
    assert connection.connection is before


def test_a_connection_older_than_conn_max_age_is_closed(monkeypatch):
    # Watched through close(): SQLite's in-memory test database never really closes (it would vanish).
    closed = []
    monkeypatch.setattr(connection, "close", lambda: closed.append(True))
    connection.ensure_connection()
    # As if opened a moment ago: SQLite's in-memory test connection outlives the tests before this one.
    connection.close_at = time.monotonic() + 60
    run_tasks(3)
    assert closed == []
    connection.close_at = time.monotonic() - 1  # its CONN_MAX_AGE is up
    run_tasks(1)
    assert closed


def test_a_task_run_eagerly_leaves_its_callers_connection_alone(monkeypatch):
    closed = []
    monkeypatch.setattr(connection, "close", lambda: closed.append(True))
    connection.ensure_connection()
    connection.close_at = time.monotonic() - 1
    tidy_connections(sender=SimpleNamespace(request=SimpleNamespace(is_eager=True)))
    assert closed == []

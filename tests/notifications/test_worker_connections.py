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


def test_the_queries_debug_logs_are_forgotten_around_each_task(settings):
    # DEBUG on, as the embedded default's worker runs: Django logs every query, and only a request
    # (which a worker never sees) clears the log; left, it held up to 9,000 SQL texts a connection.
    settings.DEBUG = True
    connection.ensure_connection()
    for _ in range(3):
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    assert len(connection.queries_log) >= 3
    run_tasks(1)
    assert len(connection.queries_log) == 0
    with connection.cursor() as cursor:  # a task's own queries are logged as it runs
        cursor.execute("SELECT 1")
    assert len(connection.queries_log) == 1


def test_a_task_run_eagerly_leaves_its_callers_query_log_alone(settings):
    settings.DEBUG = True
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    logged = len(connection.queries_log)
    tidy_connections(sender=SimpleNamespace(request=SimpleNamespace(is_eager=True)))
    assert len(connection.queries_log) == logged > 0

"""A database connection that broke while kept (a PostgreSQL restart or failover terminates every
backend) is noticed before it is used: the next request of a web worker, and the next task of the
Celery worker, open a new one instead of failing. Django's connection health checks
(settings: conn_health_checks) and zarkcity_site/celery.py's tidy_connections."""

from __future__ import annotations

from io import BytesIO
from types import SimpleNamespace
from wsgiref.util import setup_testing_defaults

import pytest
from celery.fixups.django import DjangoWorkerFixup
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection, connections

from tests.api.conftest import secret_for
from tests.conftest import make_user
from zarkcity_site.celery import app as celery_app
from zarkcity_site.celery import tidy_connections

# Autocommit, as in gunicorn and the worker: no test transaction holds the connection open.
pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def terminate_kept_connection() -> None:
    """What a restart does to the connection this thread keeps: its server process is gone."""
    backend = connection.connection.info.backend_pid
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("select pg_terminate_backend(%s)", [backend])
    finally:
        other.close()


def wsgi_get(handler: WSGIHandler, path: str, token: str) -> int:
    """One request as gunicorn hands it to Django (the test client skips the request_started checks)."""
    environ = {"PATH_INFO": path, "HTTP_AUTHORIZATION": f"Bearer {token}", "wsgi.input": BytesIO()}
    setup_testing_defaults(environ)
    statuses = []
    body = handler(environ, lambda status, headers, exc_info=None: statuses.append(status))
    b"".join(body)
    body.close()  # request_finished: Django's end-of-request connection care
    return int(statuses[0].split()[0])


def test_a_web_worker_answers_the_request_after_its_connection_was_terminated(settings):
    settings.ALLOWED_HOSTS = ["*"]
    token = secret_for(make_user("player"))
    handler = WSGIHandler()
    assert wsgi_get(handler, "/api/games", token) == 200
    kept = connection.connection
    assert kept is not None  # CONN_MAX_AGE keeps it for the next request
    terminate_kept_connection()
    assert wsgi_get(handler, "/api/games", token) == 200
    assert connection.connection is not kept


def test_the_celery_worker_runs_the_task_after_its_connection_was_terminated():
    task = SimpleNamespace(request=SimpleNamespace(is_eager=False))
    fixup = DjangoWorkerFixup(celery_app)
    connection.ensure_connection()
    terminate_kept_connection()
    # The next task: Celery's fixup (CELERY_DB_REUSE_MAX keeps the connection), then ours.
    fixup.on_task_prerun(task)
    tidy_connections(sender=task)
    with connection.cursor() as cursor:
        cursor.execute("select 1")
        assert cursor.fetchone() == (1,)

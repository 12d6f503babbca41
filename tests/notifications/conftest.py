"""Fixtures for the notification tests: an SMTP server that refuses (`eager` and the named users come
from tests/conftest.py)."""

from __future__ import annotations

import pytest
from django.core.mail.backends.locmem import EmailBackend

from zarkcity_site.celery import app as celery_app


@pytest.fixture
def eager_retries():
    """Eager Celery runs a retry at once, inside the failing call, then raises celery.exceptions.Retry
    as its signal; outside a worker that signal must not propagate to the test."""
    celery_app.conf.task_eager_propagates = False
    yield
    celery_app.conf.task_eager_propagates = True


@pytest.fixture
def refusing(monkeypatch, eager_retries):
    """An SMTP server that refuses the first `n` messages with the given error, then accepts."""
    original = EmailBackend.send_messages

    def install(n: int, error: Exception):
        calls = {"refused": 0}

        def send_messages(self, messages):
            if calls["refused"] < n:
                calls["refused"] += 1
                raise error
            return original(self, messages)

        monkeypatch.setattr(EmailBackend, "send_messages", send_messages)
        return calls

    return install

"""Fixtures of the email-moves tests: deliver a message to the service with Celery eager and every
after-commit callback run (the move's outbox emails and our answer both land in mail.outbox)."""

from __future__ import annotations

import pytest

from replies import inbox


@pytest.fixture
def deliver(eager, django_capture_on_commit_callbacks, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

    def send(raw: bytes, *, to: str = "", source: str = "pipe"):
        with django_capture_on_commit_callbacks(execute=True):
            return inbox.inbound_accept(raw=raw, source=source, envelope_to=[to] if to else [])

    return send

"""bench/notifications.py leaves nothing on a shared Redis: the remote-control binding deadline its
worker leaves behind goes, unless another worker is still bound to that exchange."""

from __future__ import annotations

import time
import uuid

import pytest

from bench import notifications
from zarkcity_site.celery import app

pytestmark = pytest.mark.redis


@pytest.fixture
def channel():
    with app.connection_for_write() as connection:
        yield connection.default_channel


@pytest.fixture
def exchange(channel):
    """An exchange of this test's own, with a deadline an hour away as kombu writes one."""
    name = f"zarkcity-test-{uuid.uuid4().hex[:8]}.pidbox"
    deadlines = channel.keyprefix_binding_deadlines
    channel.client.zadd(deadlines, {name: int(time.time() * 1000) + 3_600_000})
    yield name
    channel.client.zrem(deadlines, name)
    channel.client.delete(channel.keyprefix_queue % name)


def test_an_unbound_exchange_loses_its_deadline(channel, exchange):
    assert notifications.forget_unbound(channel, exchange) is True
    assert channel.client.zscore(channel.keyprefix_binding_deadlines, exchange) is None


def test_an_exchange_another_worker_is_bound_to_keeps_its_deadline(channel, exchange):
    channel.client.sadd(channel.keyprefix_queue % exchange, "\x06\x16\x06\x16other-worker.celery.pidbox")
    assert notifications.forget_unbound(channel, exchange) is False
    assert channel.client.zscore(channel.keyprefix_binding_deadlines, exchange) is not None

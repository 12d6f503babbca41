"""Celery's configuration as a plain dict of the CELERY_ settings (zarkcity_site/celery_settings.py), and
production's Redis broker keeping its publishing client (zarkcity_site/redis_broker.py)."""

from __future__ import annotations

import pytest
from celery import Celery
from django.conf import settings

from zarkcity_site.celery import app
from zarkcity_site.celery_settings import CELERY, PLAIN_NAMES


def test_celery_is_configured_with_every_celery_setting():
    names = {name for name in dir(settings) if name.startswith("CELERY_")}
    assert {PLAIN_NAMES.get(name, name) for name in names} == set(CELERY) and "CELERY_BEAT_SCHEDULE" in names
    assert app.conf.beat_schedule == settings.CELERY_BEAT_SCHEDULE
    assert app.conf.broker_transport_options == settings.CELERY_BROKER_TRANSPORT_OPTIONS
    assert app.conf.task_acks_late is settings.CELERY_TASK_ACKS_LATE is True
    assert app.conf.worker_prefetch_multiplier == settings.CELERY_WORKER_PREFETCH_MULTIPLIER
    assert app.conf.task_default_queue == "celery"  # not set here: Celery's default, as before


def test_the_worker_reads_its_configuration_with_no_deprecation_warning():
    """CELERY_TIMEZONE and CELERY_IMPORTS, spelt with the namespace, are also Celery 3's names: the worker
    and beat warned at every start that they were deprecated, though they read them as the new ones."""
    # Configured as zarkcity_site/celery.py configures its app, apart from the tests' overrides of that one.
    fresh = Celery("configuration-check")
    fresh.config_from_object("zarkcity_site.celery_settings:CELERY", namespace="CELERY")
    fresh.conf.finalize()
    assert fresh.conf.maybe_warn_deprecated_settings() is False
    assert fresh.conf.timezone == settings.CELERY_TIMEZONE == "UTC"
    assert tuple(fresh.conf.imports) == settings.CELERY_IMPORTS
    assert fresh.conf.task_acks_late is settings.CELERY_TASK_ACKS_LATE is True  # the namespace's spelling still read


@pytest.mark.redis
def test_the_redis_channel_keeps_its_publishing_client_per_pool():
    with app.connection_for_write() as connection:
        channel = connection.default_channel
        assert type(channel).__module__ == "zarkcity_site.redis_broker"
        with channel.conn_or_acquire() as first, channel.conn_or_acquire() as second:
            assert first is second and first.connection_pool is channel.pool
        assert first.ping()
        channel._pool = None  # as kombu drops its pool (a closed channel): the next client is the new pool's
        with channel.conn_or_acquire() as third:
            assert third is not first and third.connection_pool is channel.pool

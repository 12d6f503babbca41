"""/health: 200 with every check when all is well; 503 naming what is not (the database, the broker,
an email due too long, a sweep not seen lately). And an email held by a worker that died goes out
again within a minute."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace
from unittest import mock

import pytest
from django.core.cache import cache
from django.utils import timezone

from notifications import sweep
from notifications.models import Notification
from zarkcity_site import health
from zarkcity_site.celery import LAST_SWEEP_KEY, SWEEP_TASK, app, record_sweep

Kind, Status = Notification.Kind, Notification.Status


@pytest.fixture
def swept_now():
    cache.set(LAST_SWEEP_KEY, timezone.now().isoformat(), timeout=None)


@pytest.fixture
def broker_up():
    with mock.patch.object(health, "broker", return_value={"ok": True, "waiting": 0}):
        yield


def test_all_well_is_200_with_every_check(client, db, swept_now):
    response = client.get("/health")
    body = response.json()
    assert response.status_code == 200, body
    assert body["ok"] and body["database"]["ok"] and body["broker"]["ok"] and body["sweep"]["ok"]
    assert body["outbox"] == {"ok": True, "oldest_unsent_seconds": 0}
    assert "no-cache" in response["Cache-Control"]


def test_an_email_due_for_too_long_is_503(client, alice, swept_now, broker_up, settings):
    created = timezone.now() - timedelta(seconds=settings.HEALTH_OUTBOX_MAX_AGE_SECONDS + 60)
    Notification.objects.create(recipient=alice, kind=Kind.YOUR_TURN, created_at=created)
    response = client.get("/health")
    assert response.status_code == 503
    assert response.json()["outbox"]["oldest_unsent_seconds"] >= settings.HEALTH_OUTBOX_MAX_AGE_SECONDS + 60


def test_an_email_held_for_quiet_hours_is_not_late(client, alice, swept_now, broker_up):
    long_ago = timezone.now() - timedelta(days=1)
    Notification.objects.create(
        recipient=alice, kind=Kind.YOUR_TURN, created_at=long_ago, send_after=timezone.now() + timedelta(hours=6)
    )
    Notification.objects.create(recipient=alice, kind=Kind.YOUR_TURN, created_at=long_ago, status=Status.SENT)
    assert client.get("/health").status_code == 200


def test_no_sweep_for_minutes_is_503(client, db, broker_up, settings):
    cache.set(
        LAST_SWEEP_KEY, (timezone.now() - timedelta(seconds=settings.HEALTH_SWEEP_MAX_AGE_SECONDS + 1)).isoformat()
    )
    response = client.get("/health")
    assert response.status_code == 503 and not response.json()["sweep"]["ok"]


def test_a_finished_sweep_is_recorded_for_health(db):
    cache.delete(LAST_SWEEP_KEY)
    record_sweep(sender=SimpleNamespace(name=SWEEP_TASK))
    assert health.last_sweep(timezone.now())["age_seconds"] <= 1
    record_sweep(sender=SimpleNamespace(name="notifications.tasks.deliver"))  # other tasks are not the sweep
    assert health.last_sweep(timezone.now())["ok"]


def test_a_dead_broker_is_503(client, db, swept_now):
    with mock.patch.object(app, "connection_for_write", side_effect=ConnectionRefusedError("broker down")):
        response = client.get("/health")
    assert response.status_code == 503
    assert response.json()["broker"] == {"ok": False, "error": "ConnectionRefusedError: broker down"}


def test_a_dead_database_is_503(client, db, swept_now, broker_up):
    with mock.patch.object(health, "connection") as conn:
        conn.cursor.side_effect = RuntimeError("no database")
        response = client.get("/health")
    assert response.status_code == 503 and not response.json()["database"]["ok"]


def test_an_email_held_by_a_dead_worker_goes_out_again_within_a_minute(alice, settings):
    """Claimed, then the worker died: the claim goes stale and the quick re-queue hands it out again
    before 60 s have passed (it waited 10 minutes and more)."""
    claimed = timezone.now()
    row = Notification.objects.create(
        recipient=alice, kind=Kind.YOUR_TURN, status=Status.SENDING, claimed_at=claimed, queued_at=claimed
    )
    requeue_every = settings.CELERY_BEAT_SCHEDULE["notifications-requeue"]["schedule"]
    worst = settings.NOTIFICATIONS_STALE_CLAIM_SECONDS + requeue_every
    assert worst < 60
    with mock.patch("notifications.services.enqueue", return_value=True) as enqueue:
        assert sweep.requeue(claimed + timedelta(seconds=settings.NOTIFICATIONS_STALE_CLAIM_SECONDS + 1)) == 1
    enqueue.assert_called_once_with(row.pk)
    assert settings.EMAIL_TIMEOUT * 2 < settings.NOTIFICATIONS_STALE_CLAIM_SECONDS  # a live send is not taken over

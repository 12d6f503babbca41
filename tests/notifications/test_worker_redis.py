"""A real Celery worker against the real Redis on this machine (REDIS_URL): the email goes out once.

The worker runs in a thread of the test process (celery.contrib.testing.worker), on a queue of its
own so nothing else on this Redis takes our tasks; the database is committed for real
(transaction=True) so the worker's connection sees what the test wrote.
"""

from __future__ import annotations

import smtplib
import time
import uuid

import pytest
from celery.contrib.testing.worker import start_worker
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.db.utils import OperationalError
from kombu.exceptions import OperationalError as BrokerError

from engine.zarkcity.notation import Discard, Draw
from notifications import sweep
from notifications.models import Notification
from notifications.tasks import deliver
from tests.notifications.helpers import mail_to, play, start_game, state
from zarkcity_site import heap
from zarkcity_site.celery import app as celery_app

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]
Status = Notification.Status


@pytest.fixture
def worker(settings, monkeypatch):
    # The worker's tasks run in this process: its first would freeze the test session's objects (heap.Freezer).
    monkeypatch.setattr(heap, "COLLECTOR", heap.Freezer(collect=lambda: 0, freeze=lambda: None))
    queue = f"zarkcity-test-{uuid.uuid4().hex[:8]}"
    settings.NOTIFICATIONS_QUEUE = queue
    settings.NOTIFICATIONS_RETRY_BASE_SECONDS = 1
    assert celery_app.conf.broker_url.startswith("redis://")
    with start_worker(celery_app, pool="solo", perform_ping_check=False, queues=[queue], shutdown_timeout=20) as w:
        yield w
    with celery_app.connection_for_write() as connection:
        # Leave nothing behind on the shared Redis: the queue's exchange bindings outlive the worker.
        client = connection.default_channel.client
        client.delete(queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}")


def wait_for(condition, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if condition():
                return
        except OperationalError:  # the in-memory SQLite test database locks a table while the worker writes
            pass
        time.sleep(0.1)
    raise AssertionError(f"gave up waiting after {timeout}s")


def calmly(action):
    """Act, then wait for the worker to finish: SQLite's shared in-memory test database refuses a
    read while another thread writes the same table (PostgreSQL would not need this)."""
    result = action()
    wait_for(settled)
    return result


def settled() -> bool:
    return not Notification.objects.filter(status__in=[Status.PENDING, Status.SENDING]).exists()


def test_a_move_is_emailed_once_by_a_real_worker(alice, bob, worker):
    game = calmly(lambda: start_game(alice, bob))
    while state(game).turn == 0:
        calmly(lambda: play(game))
    mail.outbox.clear()
    mover = state(game).to_move
    calmly(lambda: play(game, mover, prefer=Draw))
    while state(game).to_move == mover:
        calmly(lambda: play(game, mover, prefer=Discard))
    game.refresh_from_db()
    recipient = game.seats.get(colour=game.to_move).user
    wait_for(lambda: Notification.objects.filter(recipient=recipient, ply=game.ply, status=Status.SENT).exists())
    time.sleep(1)  # anything else on its way would have arrived by now
    [email] = mail.outbox
    assert email.to == [f"{recipient.username} <{recipient.email}>"]
    assert email.subject == f"Zark City #{game.pk}: {mover} drew 3 cards, your turn"


def test_a_task_delivered_twice_sends_once(alice, bob, worker):
    """What a broker redelivery looks like (the worker died before acking): the claim refuses the second."""
    calmly(lambda: start_game(alice, bob))
    row = Notification.objects.get(recipient=alice)
    deliver.apply_async((row.pk,), queue=worker.consumer.task_consumer.queues[0].name)
    time.sleep(1.5)
    assert len(mail_to(alice)) == 1


def test_the_broker_down_when_the_move_is_made_then_recovery_sends_once(alice, bob, worker, monkeypatch, settings):
    def broker_down(*args, **kwargs):
        raise BrokerError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(deliver, "apply_async", broker_down)
    game = start_game(alice, bob)
    assert game.status == "active"
    time.sleep(1)
    assert mail.outbox == [] and Notification.objects.filter(status=Status.PENDING).count() == 2
    monkeypatch.undo()  # Redis is back; the next sweep re-queues what never reached it
    settings.NOTIFICATIONS_REQUEUE_AFTER_SECONDS = 0
    assert sweep.requeue(sweep.timezone.now()) == 2
    wait_for(settled)
    time.sleep(1)
    assert sweep.requeue(sweep.timezone.now()) == 0
    assert sorted(len(mail_to(u)) for u in (alice, bob)) == [1, 1]


def test_smtp_refusing_twice_then_accepting_sends_one_email(alice, bob, worker, monkeypatch):
    original, calls = EmailBackend.send_messages, {"n": 0}

    def flaky(self, messages):
        calls["n"] += 1
        if calls["n"] <= 2:
            raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")
        return original(self, messages)

    monkeypatch.setattr(EmailBackend, "send_messages", flaky)
    start_game(alice, bob)
    wait_for(settled, timeout=60)
    rows = list(Notification.objects.order_by("attempts"))
    assert [r.status for r in rows] == [Status.SENT, Status.SENT]
    assert sum(r.attempts for r in rows) == 4  # two refusals, each retried after a countdown, then both go
    assert len(mail.outbox) == 2 and {m.to[0] for m in mail.outbox} == {
        "alice <alice@example.com>",
        "bob <bob@example.com>",
    }


def test_a_worker_killed_after_claiming_is_recovered_by_the_sweep(alice, bob, worker, settings):
    calmly(lambda: start_game(alice, bob))
    mail.outbox.clear()
    row = Notification.objects.get(recipient=alice)
    # Make it look like a worker claimed the row and died before sending.
    Notification.objects.filter(pk=row.pk).update(status=Status.SENDING, claimed_at=sweep.timezone.now())
    settings.NOTIFICATIONS_STALE_CLAIM_SECONDS = 1
    settings.NOTIFICATIONS_REQUEUE_AFTER_SECONDS = 0
    time.sleep(1.2)
    assert sweep.requeue(sweep.timezone.now()) == 1
    wait_for(settled)
    assert len(mail_to(alice)) == 1

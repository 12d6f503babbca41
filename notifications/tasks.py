"""Celery tasks the outbox queues: thin wrappers that take ids and call delivery (the logic lives there).

The sweep's entry point, which Celery beat runs, is in notifications.beat: the sweep writes outbox rows
through the services, which queue `deliver` from here, so this module must not import the sweep."""

from __future__ import annotations

from typing import Any

from celery import Task, shared_task
from celery.signals import worker_process_shutdown, worker_shutdown
from django.db import DatabaseError

from . import delivery, outgoing

DATABASE_RETRIES = 5  # a database that stays down longer is the sweep's to recover from


@shared_task(bind=True, name="notifications.tasks.deliver", acks_late=True, max_retries=None)  # type: ignore[untyped-decorator]  # celery is untyped
def deliver(self: Task, notification_id: int, sent: dict[str, str] | None = None) -> str:
    """Send one outbox row. Transient errors come back here as a retry with backoff and jitter;
    the row itself counts attempts and turns "failed" after NOTIFICATIONS_MAX_ATTEMPTS. `sent`: the
    mail server took it but the row could not be marked (delivery.SentNotRecorded): record only."""
    try:
        if sent:
            return delivery.record_sent_later(notification_id, sent).value
        return delivery.deliver(notification_id).value
    except delivery.TryAgain as again:
        raise self.retry(countdown=again.countdown, exc=again.error) from None
    except delivery.SentNotRecorded as unrecorded:
        # Soon: well before the claim goes stale and the sweep hands the row to a worker that would send
        # it again. A database still down then retries with backoff (below), keeping `sent`.
        raise self.retry(countdown=1, kwargs={"sent": unrecorded.facts}, exc=unrecorded) from None
    except DatabaseError as error:
        if self.request.retries >= DATABASE_RETRIES:
            raise  # the row is still pending: the sweep hands it out again later
        raise self.retry(countdown=delivery.backoff(self.request.retries + 1), exc=error) from None


@worker_process_shutdown.connect  # type: ignore[untyped-decorator]  # celery is untyped
@worker_shutdown.connect  # type: ignore[untyped-decorator]  # celery is untyped
def hang_up(**kwargs: Any) -> None:
    """Close the mail server sessions the worker kept open (notifications.outgoing) with a QUIT."""
    outgoing.hang_up_all()

"""Celery tasks: thin wrappers taking ids (the logic is in handling and services).

The sweep's entry point, which Celery beat runs, is in replies.beat: the sweep queues these tasks, so
this module must not import it. Likewise a handled message's answer is queued here, not by handling."""

from __future__ import annotations

from functools import partial

from celery import Task, shared_task
from django.db import transaction

from . import handling, services


@shared_task(name="replies.tasks.handle", acks_late=True)  # type: ignore[untyped-decorator]  # celery is untyped
def handle(inbound_id: int) -> str:
    """Decide one message that came in (once: handling claims the row in its transaction); the answer it
    owes goes to the `answer` task once that transaction has committed."""
    decision = handling.handle(inbound_id)
    if decision is None:
        return "not claimed"
    if decision.answer:
        transaction.on_commit(partial(services.queue, answer, inbound_id))
    return decision.outcome.value


@shared_task(bind=True, name="replies.tasks.answer", acks_late=True, max_retries=5)  # type: ignore[untyped-decorator]  # celery is untyped
def answer(self: Task, inbound_id: int) -> str:
    """Send the answer a handled message is owed; SMTP trouble retries with a growing delay."""
    try:
        return services.answer_send(inbound_id=inbound_id)
    except Exception as error:
        raise self.retry(countdown=30 * 2**self.request.retries, exc=error) from None

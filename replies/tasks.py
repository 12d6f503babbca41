"""Celery tasks: thin wrappers taking ids (the logic is in handling and services)."""

from __future__ import annotations

from celery import Task, shared_task

from . import handling, services
from . import sweep as sweeping


@shared_task(name="replies.tasks.handle", acks_late=True)  # type: ignore[untyped-decorator]  # celery is untyped
def handle(inbound_id: int) -> str:
    """Decide one message that came in (once: handling claims the row in its transaction)."""
    outcome = handling.handle(inbound_id)
    return outcome.value if outcome else "not claimed"


@shared_task(bind=True, name="replies.tasks.answer", acks_late=True, max_retries=5)  # type: ignore[untyped-decorator]  # celery is untyped
def answer(self: Task, inbound_id: int) -> str:
    """Send the answer a handled message is owed; SMTP trouble retries with a growing delay."""
    try:
        return services.answer_send(inbound_id=inbound_id)
    except Exception as error:
        raise self.retry(countdown=30 * 2**self.request.retries, exc=error) from None


@shared_task(name="replies.tasks.sweep", acks_late=True)  # type: ignore[untyped-decorator]  # celery is untyped
def sweep() -> dict[str, int]:
    """Every few minutes (CELERY_BEAT_SCHEDULE): re-queue what the broker lost, forget old raw messages."""
    return sweeping.sweep()

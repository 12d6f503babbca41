"""The notifications entry point Celery beat runs (CELERY_BEAT_SCHEDULE; loaded through CELERY_IMPORTS).

Apart from notifications.tasks: the sweep writes outbox rows, and the services queue each one to the
`deliver` task there, so the module holding `deliver` cannot also import the sweep.
"""

from __future__ import annotations

from celery import shared_task

from . import sweep as sweeping


@shared_task(name="notifications.tasks.sweep", acks_late=True)  # type: ignore[untyped-decorator]  # the name beat and /health have always used; celery is untyped
def sweep() -> dict[str, int]:
    """Every minute (CELERY_BEAT_SCHEDULE): re-queue the outbox, reminders, timeouts, digests."""
    return sweeping.sweep()

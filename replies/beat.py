"""The email-moves entry point Celery beat runs (CELERY_BEAT_SCHEDULE; loaded through CELERY_IMPORTS).

Apart from replies.tasks: the sweep queues the `handle` and `answer` tasks there again, so the module
holding them cannot also import the sweep.
"""

from __future__ import annotations

from celery import shared_task

from . import sweep as sweeping


@shared_task(name="replies.tasks.sweep", acks_late=True)  # type: ignore[untyped-decorator]  # the name the beat schedule has always used; celery is untyped
def sweep() -> dict[str, int]:
    """Every few minutes (CELERY_BEAT_SCHEDULE): re-queue what the broker lost, forget old raw messages."""
    return sweeping.sweep()

"""The periodic sweep of the email-moves app: messages and answers nobody picked up (the broker was down
when they were queued) go back to the broker, and raw messages past REPLIES_KEEP_DAYS are deleted."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from . import services, tasks
from .models import InboundMessage

REQUEUE_AFTER = timedelta(minutes=2)
# An answer still "sending" this long after a worker took it belongs to a worker that died mid-send:
# send it again (at least once, like the outbox: docs/notifications.md), never lose it.
STALE_SENDING = timedelta(minutes=15)


def sweep(now: datetime | None = None) -> dict[str, int]:
    now = now or timezone.now()
    InboundMessage.objects.filter(
        answer_status=InboundMessage.Answer.SENDING, answer_claimed_at__lt=now - STALE_SENDING
    ).update(answer_status=InboundMessage.Answer.PENDING)
    waiting = InboundMessage.objects.filter(status=InboundMessage.Status.QUEUED, received_at__lt=now - REQUEUE_AFTER)
    unsent = InboundMessage.objects.filter(
        answer_status=InboundMessage.Answer.PENDING, handled_at__lt=now - REQUEUE_AFTER
    )
    handled = sum(services.queue(tasks.handle, pk) for pk in waiting.values_list("pk", flat=True)[:500])
    answered = sum(services.queue(tasks.answer, pk) for pk in unsent.values_list("pk", flat=True)[:500])
    return {"requeued": handled, "answers_requeued": answered, "purged": services.purge_old(now=now)}

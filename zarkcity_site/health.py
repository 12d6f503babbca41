"""/health: is the site doing its job? JSON for a monitor or a load balancer, 503 when anything is
wrong: the database, the broker, an email due and not sent for too long, or a sweep not seen lately
(when the sweep dies, timeouts, reminders and digests stop without a sound)."""

from __future__ import annotations

from datetime import datetime
from typing import NotRequired, TypedDict

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache

from notifications.models import Notification
from zarkcity_site.celery import LAST_SWEEP_KEY
from zarkcity_site.celery import app as celery_app

Status = Notification.Status


class Check(TypedDict):
    """One part's answer in /health: ok, and what it measured or why it failed."""

    ok: bool
    error: NotRequired[str]
    waiting: NotRequired[int]  # the broker: messages on the deliveries' queue
    oldest_unsent_seconds: NotRequired[int]
    last: NotRequired[str | None]  # the sweep: when it last finished
    age_seconds: NotRequired[int]


@never_cache
def health(request: HttpRequest) -> JsonResponse:
    now = timezone.now()
    checks: dict[str, Check] = {"database": database(), "broker": broker()}
    if checks["database"]["ok"]:  # the outbox is read from the database
        checks["outbox"] = outbox(now)
    checks["sweep"] = last_sweep(now)
    ok = all(check["ok"] for check in checks.values())
    return JsonResponse({"ok": ok, "time": now.isoformat(), **checks}, status=200 if ok else 503)


def failed(error: Exception) -> Check:
    return {"ok": False, "error": f"{type(error).__name__}: {error}"[:300]}


def database() -> Check:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as error:  # any driver's error: the answer is "down", not a 500
        return failed(error)
    return {"ok": True}


def broker() -> Check:
    """Reach the broker and count what waits on the deliveries' queue."""
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1)
            declared = conn.default_channel.queue_declare(queue=settings.NOTIFICATIONS_QUEUE, passive=False)
    except Exception as error:
        return failed(error)
    return {"ok": True, "waiting": declared.message_count}


def outbox(now: datetime) -> Check:
    """The oldest email due (not held for quiet hours or a retry's backoff) and still unsent."""
    due = Notification.objects.filter(status__in=[Status.PENDING, Status.SENDING]).filter(
        Q(send_after__isnull=True) | Q(send_after__lte=now)
    )
    oldest = due.annotate(due_at=Coalesce("send_after", "created_at")).order_by("due_at").first()
    age = round((now - oldest.due_at).total_seconds()) if oldest else 0
    return {"ok": age <= settings.HEALTH_OUTBOX_MAX_AGE_SECONDS, "oldest_unsent_seconds": age}


def last_sweep(now: datetime) -> Check:
    try:
        seen = cache.get(LAST_SWEEP_KEY)
    except Exception as error:  # the cache is Redis in production: it can be down too
        return failed(error)
    if seen is None:
        return {"ok": False, "last": None, "error": "no sweep recorded: is beat running?"}
    age = round((now - datetime.fromisoformat(seen)).total_seconds())
    return {"ok": age <= settings.HEALTH_SWEEP_MAX_AGE_SECONDS, "last": seen, "age_seconds": age}

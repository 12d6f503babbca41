"""The Celery app. Redis when REDIS_URL is set; otherwise the filesystem broker of zarkcity_site/broker.py.

Also what operations watch: the time of the last sweep (read by /health) and the quick re-queue of
emails held by a worker that died (scheduled in settings.CELERY_BEAT_SCHEDULE).
"""

import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun, task_success

from zarkcity_site import heap

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zarkcity_site.settings")

app = Celery("zarkcity")
app.config_from_object("zarkcity_site.celery_settings:CELERY", namespace="CELERY")  # a plain dict: cheaper to ask
app.autodiscover_tasks()

LAST_SWEEP_KEY = "ops:last-sweep"
SWEEP_TASK = "notifications.tasks.sweep"


@task_prerun.connect  # type: ignore[untyped-decorator]  # celery is untyped
@task_postrun.connect  # type: ignore[untyped-decorator]  # celery is untyped
def tidy_connections(sender: Any = None, **kwargs: Any) -> None:
    """Around each task, what Django does around each request: close a database connection that broke
    or outlived CONN_MAX_AGE, keep the others (settings.CELERY_DB_REUSE_MAX: Celery would close them
    all), and have the next query check the kept one first (conn_health_checks in settings): a
    restart of the database may have ended it since the last task. And, as Django does at each
    request, forget the queries DEBUG logs (the embedded default runs with DEBUG on): Celery never
    does, so a worker kept up to 9,000 SQL texts a connection, tens of MB (docs/performance.md,
    "Memory"). A task run eagerly (tests) runs inside its caller's transaction and its caller's
    query count: nothing to close or forget there."""
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    from django.db import close_old_connections, reset_queries

    close_old_connections()
    reset_queries()


@task_postrun.connect  # type: ignore[untyped-decorator]  # celery is untyped
def trim_heap(sender: Any = None, **kwargs: Any) -> None:
    """Every so many tasks, glibc's free heap back to the system (zarkcity_site/heap.py): a pool
    process's resident memory then follows its bytes in use. After the first, what the process keeps
    for good out of the cyclic collector's sight (heap.Freezer). Not for a task run eagerly (tests,
    the web): that is not a worker's process."""
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    heap.COLLECTOR.task_done()
    heap.WORKER.task_done()


@task_success.connect  # type: ignore[untyped-decorator]  # celery is untyped
def record_sweep(sender: Any = None, **kwargs: Any) -> None:
    """The sweep finished: write down when, in the shared cache, for /health (the web process)."""
    if getattr(sender, "name", None) != SWEEP_TASK:
        return
    from django.core.cache import cache
    from django.utils import timezone

    cache.set(LAST_SWEEP_KEY, timezone.now().isoformat(), timeout=None)


@app.task(name="zarkcity_site.requeue_outbox", acks_late=True)  # type: ignore[untyped-decorator]  # celery is untyped
def requeue_outbox() -> int:
    """Every 15 s: the sweep's outbox step alone, so an email whose worker died goes out again
    within a minute (NOTIFICATIONS_STALE_CLAIM_SECONDS) instead of at the next full sweep."""
    from django.utils import timezone

    from notifications.sweep import requeue

    return requeue(timezone.now())

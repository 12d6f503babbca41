"""Every task Celery beat sends is one a worker knows: the sweeps' entry points live in <app>/beat.py
(apart from the tasks their sweeps queue), which autodiscovery does not find; CELERY_IMPORTS loads them."""

from __future__ import annotations


def test_a_worker_registers_every_task_the_beat_schedule_names(settings):
    from zarkcity_site.celery import app

    app.loader.import_default_modules()  # what a worker does at start
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert scheduled == {
        "notifications.tasks.sweep",
        "zarkcity_site.requeue_outbox",
        "replies.tasks.sweep",
        "games.tasks.bot_sweep",
    }
    assert scheduled <= set(app.tasks)

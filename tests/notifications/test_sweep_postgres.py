"""Two sweeps at once, and a sweep meeting a player's move: the game row lock (skip_locked) and the
conditional UPDATE of the due time let each reminder through once, and never make the sweep wait.

select_for_update does nothing on SQLite, so this runs only on PostgreSQL:
DATABASE_URL=postgres://postgres@127.0.0.1:5432/<a database of your own> \
    .venv/bin/pytest -m postgres tests/notifications
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
import time_machine
from django.db import connection, transaction

from games.models import Game
from notifications import sweep
from notifications.models import Notification
from tests.notifications.test_clocks import mid_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager")]
Kind = Notification.Kind


def in_threads(*jobs) -> list[object]:
    """Run each job from its own thread and database connection, all at once; their results or errors."""
    start = threading.Barrier(len(jobs))
    results: list[object] = [None] * len(jobs)

    def run(index: int, job) -> None:
        try:
            start.wait()
            results[index] = job()
        except Exception as error:  # noqa: BLE001 (the test inspects whatever happened)
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


def test_two_sweeps_at_once_remind_once(alice, bob):
    game = mid_game(alice, bob)
    half = game.turn_started_at + timedelta(days=1.6)
    with time_machine.travel(half, tick=False):
        results = in_threads(lambda: sweep.sweep(half), lambda: sweep.sweep(half))
    assert sum(result["reminders"] for result in results) == 1, results
    assert Notification.objects.filter(kind=Kind.REMINDER_50).count() == 1


def test_a_game_a_move_holds_is_left_to_the_next_sweep(alice, bob):
    game = mid_game(alice, bob)
    half = game.turn_started_at + timedelta(days=1.6)
    held, release = threading.Event(), threading.Event()

    def hold_the_game() -> None:
        with transaction.atomic():  # what move_submit does while it validates a move
            Game.objects.select_for_update().get(pk=game.pk)
            held.set()
            release.wait(timeout=10)

    def sweep_meanwhile() -> dict[str, int]:
        held.wait(timeout=10)
        try:
            return sweep.sweep(half)  # does not wait for the lock
        finally:
            release.set()

    with time_machine.travel(half, tick=False):
        _, meanwhile = in_threads(hold_the_game, sweep_meanwhile)
        assert meanwhile["reminders"] == 0, meanwhile
        assert sweep.sweep(half)["reminders"] == 1
    assert Notification.objects.filter(kind=Kind.REMINDER_50).count() == 1

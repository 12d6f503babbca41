"""The sweep reads due times, not every game in progress: what it costs with nothing due, and that each
kind of due work (reminders, timeouts, digests, bot turns) is still done, once, when its time comes."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Profile
from games import clock
from games import tasks as games_tasks
from games.models import Game, Seat
from notifications import services as notify
from notifications import sweep
from notifications.models import Notification, Preference
from tests.notifications.test_clocks import mid_game, mover, run_sweep

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager")]
Kind = Notification.Kind
UTC = ZoneInfo("UTC")
NOW = datetime(2030, 1, 15, 12, tzinfo=UTC)


def games_in_progress(count: int, *, start: int = 0) -> None:
    """`count` two-player games in the middle of a move, none due for a day: every fifth has a bot at
    the table, every third player reads the digest (next at 8:00 tomorrow), each game has a sent email."""
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"p{2 * start + n}", email=f"p{2 * start + n}@example.com") for n in range(2 * count)
    )
    Profile.objects.bulk_create(Profile(user=user, bot="random" if n % 10 == 1 else "") for n, user in enumerate(users))
    tomorrow = NOW.replace(hour=8) + timedelta(days=1)
    Preference.objects.bulk_create(
        Preference(user=user, mode=Preference.Mode.DIGEST, next_digest_at=tomorrow) for user in users[::3]
    )
    games = Game.objects.bulk_create(
        Game(
            created_by=users[2 * n],
            status=Game.Status.ACTIVE,
            seed="s",
            seed_commitment="c",
            rules_version="1",
            ply=20,
            to_move="red",
            started_at=NOW - timedelta(days=5),
            turn_started_at=NOW - timedelta(hours=12),
            deadline=NOW + timedelta(days=2, hours=12),
            clock_due_at=NOW + timedelta(days=1),
            bot_due_at=NOW + timedelta(minutes=1) if n % 5 == 0 else None,
        )
        for n in range(count)
    )
    Seat.objects.bulk_create(
        Seat(game=game, user=users[2 * n + i], colour=colour, order=i)
        for n, game in enumerate(games)
        for i, colour in enumerate(("red", "yellow"))
    )
    Notification.objects.bulk_create(
        Notification(game=game, recipient=game.created_by, kind=Kind.YOUR_TURN, status=Notification.Status.SENT)
        for game in games
    )


def queries_of_every_sweep() -> int:
    """The queries of one round of the periodic tasks (settings.CELERY_BEAT_SCHEDULE) at NOW."""
    with time_machine.travel(NOW, tick=False), CaptureQueriesContext(connection) as queries:
        counts = sweep.sweep(NOW)
        assert games_tasks.requeue_waiting(NOW) == 0 and not any(counts.values()), counts
    return len(queries)


def test_with_nothing_due_the_sweep_costs_the_same_at_10_and_200_games():
    games_in_progress(10)
    at_10 = queries_of_every_sweep()
    games_in_progress(190, start=10)
    assert Game.objects.filter(status=Game.Status.ACTIVE).count() == 200
    assert queries_of_every_sweep() == at_10 <= 4  # the outbox, clocks, digests, bot turns: one read each


def test_each_game_comes_once_in_batches_and_a_failure_leaves_it_due(monkeypatch, caplog):
    games_in_progress(5)
    Game.objects.update(clock_due_at=NOW - timedelta(minutes=1))
    looked: list[int] = []

    def check(game_id: int, now: datetime) -> tuple[int, int]:
        looked.append(game_id)
        raise RuntimeError("a game that cannot be read")

    monkeypatch.setattr(sweep, "check_clocks", check)
    monkeypatch.setattr(clock, "DUE_BATCH", 2)
    assert list(clock.due_games(NOW, batch=2)) == sorted(Game.objects.values_list("pk", flat=True))
    assert sweep.enforce_clocks(NOW) == {"reminders": 0, "timeouts": 0}
    assert sorted(looked) == sorted(Game.objects.values_list("pk", flat=True))  # each once, though all failed
    assert caplog.text.count("skipped") == 5 and Game.objects.filter(clock_due_at__lte=NOW).count() == 5


def test_the_next_look_is_each_reminder_then_the_deadline(alice, bob, django_capture_on_commit_callbacks):
    game = mid_game(alice, bob)
    start, limit = game.turn_started_at, timedelta(days=3)
    assert game.clock_due_at == start + limit / 2  # a fresh clock: the first reminder
    for share, now in ((0.8, start + limit * 0.6), (1, start + limit * 0.9)):
        run_sweep(now, django_capture_on_commit_callbacks)
        game.refresh_from_db()
        assert game.clock_due_at == start + limit * share
    assert run_sweep(game.clock_due_at, django_capture_on_commit_callbacks)["timeouts"] == 1
    game.refresh_from_db()
    assert (game.status, game.clock_due_at) == ("finished", None)


def test_coming_back_early_brings_the_reminder_forward(alice, bob, django_capture_on_commit_callbacks):
    game = mid_game(alice, bob)
    start, user = game.turn_started_at, mover(game)
    first = (start + timedelta(days=1)).date()
    away = notify.away_add(user=user, first_day=first, last_day=first + timedelta(days=9), today=start.date())
    run_sweep(start + timedelta(days=1, hours=12), django_capture_on_commit_callbacks)  # away: nothing yet
    game.refresh_from_db()
    written = game.clock_due_at
    assert written > start + timedelta(days=10)  # the half-time now falls after the days away
    back = datetime.combine(first, datetime.min.time(), UTC) + timedelta(days=1)
    with time_machine.travel(back, tick=False):
        notify.away_end(user=user, away_id=away.pk)
    game.refresh_from_db()
    assert game.clock_due_at == back  # looked at again by the next sweep
    half = clock.mover_clocks(game, back)[0].next_check(back)
    assert half == start + timedelta(days=2.5) and half < written  # a day away counted, not ten
    assert run_sweep(half - timedelta(minutes=1), django_capture_on_commit_callbacks)["reminders"] == 0
    assert run_sweep(half + timedelta(minutes=1), django_capture_on_commit_callbacks)["reminders"] == 1


def test_a_new_time_zone_has_its_games_looked_at_again(alice, bob):
    game = mid_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(clock_due_at=NOW + timedelta(days=9))
    with time_machine.travel(NOW, tick=False):
        notify.preference_update(user=mover(game), mode=Preference.Mode.EVERY_TURN, time_zone="Asia/Tokyo")
    game.refresh_from_db()
    assert game.clock_due_at == NOW


def test_a_digest_reader_is_looked_at_at_their_next_eight(alice):
    with time_machine.travel(datetime(2030, 1, 15, 9, tzinfo=UTC), tick=False):  # 10:00 in Paris
        preference = notify.preference_update(user=alice, mode=Preference.Mode.DIGEST, time_zone="Europe/Paris")
    assert preference.next_digest_at == datetime(2030, 1, 16, 7, tzinfo=UTC)
    notify.preference_update(user=alice, mode=Preference.Mode.EVERY_TURN, time_zone="Europe/Paris")
    assert Preference.objects.get(user=alice).next_digest_at is None
    notify.preference_update(user=alice, mode=Preference.Mode.DIGEST, time_zone="Europe/Paris")
    notify.unsubscribe(user=alice)
    assert Preference.objects.get(user=alice).next_digest_at is None


def test_a_digest_is_written_once_though_two_sweeps_read_the_reader(alice, bob, django_capture_on_commit_callbacks):
    for user in (alice, bob):
        notify.preference_update(user=user, mode=Preference.Mode.DIGEST, time_zone="UTC")
    with time_machine.travel(datetime(2030, 1, 15, 12, tzinfo=UTC)):
        mid_game(alice, bob)
    eight = datetime(2030, 1, 16, 8, 1, tzinfo=UTC)
    stale = list(Preference.objects.select_related("user"))  # what a second sweep read before the first wrote
    assert run_sweep(eight, django_capture_on_commit_callbacks)["digests"] == 1
    with time_machine.travel(eight, tick=False):
        assert sum(sweep.digest_due(preference, eight) for preference in stale) == 0
    assert Notification.objects.filter(kind=Kind.DIGEST).count() == 1
    assert Preference.objects.get(user=alice).next_digest_at == datetime(2030, 1, 17, 8, tzinfo=UTC)


def test_a_bot_turn_no_longer_waited_on_is_not_looked_at_again(alice):
    games_in_progress(1)
    game = Game.objects.get()
    Seat.objects.filter(game=game).update(resigned=False)
    Profile.objects.update(bot="")  # nobody at this table is a bot any more
    assert games_tasks.requeue_waiting(NOW + timedelta(minutes=5)) == 0
    game.refresh_from_db()
    assert game.bot_due_at is None


def test_the_migrations_give_what_is_in_progress_due_times_no_later_than_the_right_ones(alice, bob, charlie, dave):
    from importlib import import_module

    from django.apps import apps

    people, with_bot = mid_game(alice, bob), mid_game(charlie, dave)
    Profile.objects.update_or_create(user=dave, defaults={"bot": "random"})
    notify.preference_update(user=alice, mode=Preference.Mode.DIGEST, time_zone="UTC")
    Game.objects.update(clock_due_at=None, bot_due_at=None)
    Preference.objects.update(next_digest_at=None)
    with time_machine.travel(NOW, tick=False):
        import_module("games.migrations.0006_game_due_times").set_due_times(apps, None)
        import_module("notifications.migrations.0005_preference_next_digest_at").look_at_every_reader(apps, None)
    for game in (people, with_bot):
        game.refresh_from_db()
        assert game.clock_due_at == game.turn_started_at  # the first sweep writes the right time
    assert people.bot_due_at is None and with_bot.bot_due_at == NOW + timedelta(minutes=2)
    assert Preference.objects.get(user=alice).next_digest_at == NOW

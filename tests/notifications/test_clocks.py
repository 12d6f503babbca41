"""Time travel: reminders at 50% and 80% of a move's time, timeouts, days away, daily digests."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail
from django.core.exceptions import ValidationError
from django.utils import timezone

from archive.models import ArchivedPlayer, PlayerRating
from engine.zarkcity.notation import Choose
from games import clock
from games.models import Game
from notifications import services as notify
from notifications import sweep
from notifications.models import Away, Notification, Preference
from tests.notifications.helpers import mail_to, play, play_setup, play_turn, start_game, state

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager")]
Kind = Notification.Kind
UTC = ZoneInfo("UTC")


def at(moment: datetime):
    return time_machine.travel(moment, tick=False)


def mid_game(*players, days: int = 3) -> Game:
    game = start_game(*players, days=days)
    play_setup(game)
    game.refresh_from_db()
    Notification.objects.update(status=Notification.Status.SENT)  # the setup's emails went out long ago
    mail.outbox.clear()
    return game


def mover(game: Game):
    game.refresh_from_db()
    return game.seats.get(colour=game.to_move).user


def run_sweep(moment: datetime, capture) -> dict[str, int]:
    with at(moment), capture(execute=True):
        return sweep.sweep(timezone.now())


# ----------------------------------------------------------------------------- reminders


def test_reminders_at_half_and_80_percent_come_once_each(alice, bob, django_capture_on_commit_callbacks):
    game = mid_game(alice, bob)
    start, user = game.turn_started_at, mover(game)
    assert run_sweep(start + timedelta(days=1.4), django_capture_on_commit_callbacks)["reminders"] == 0
    assert run_sweep(start + timedelta(days=1.6), django_capture_on_commit_callbacks)["reminders"] == 1
    assert run_sweep(start + timedelta(days=1.7), django_capture_on_commit_callbacks)["reminders"] == 0
    assert run_sweep(start + timedelta(days=2.5), django_capture_on_commit_callbacks)["reminders"] == 1
    assert run_sweep(start + timedelta(days=2.9), django_capture_on_commit_callbacks)["reminders"] == 0
    subjects = [m.subject for m in mail_to(user)]
    assert len(subjects) == 2
    assert subjects[0].startswith(f"Zark City #{game.pk}: half of your time used, move by ")
    assert subjects[1].startswith(f"Zark City #{game.pk}: 80% of your time used, move by ")
    assert all(m.to == [mail_to(user)[0].to[0]] for m in mail.outbox)  # nobody else is reminded


def test_a_late_sweep_sends_only_the_80_percent_reminder(alice, bob, django_capture_on_commit_callbacks):
    game = mid_game(alice, bob)
    start = game.turn_started_at
    run_sweep(start + timedelta(days=2.6), django_capture_on_commit_callbacks)
    run_sweep(start + timedelta(days=2.7), django_capture_on_commit_callbacks)
    assert list(Notification.objects.filter(kind__startswith="reminder").values_list("kind", flat=True)) == [
        Kind.REMINDER_80
    ]


def test_the_next_move_gets_its_own_reminders(alice, bob, django_capture_on_commit_callbacks):
    game = mid_game(alice, bob)
    start = game.turn_started_at
    run_sweep(start + timedelta(days=1.6), django_capture_on_commit_callbacks)
    with at(start + timedelta(days=2)):
        play_turn(game)
    game.refresh_from_db()
    second = mover(game)
    run_sweep(game.turn_started_at + timedelta(days=1.6), django_capture_on_commit_callbacks)
    assert Notification.objects.filter(kind=Kind.REMINDER_50).count() == 2
    assert Notification.objects.get(kind=Kind.REMINDER_50, ply=game.ply).recipient == second


# ----------------------------------------------------------------------------- timeouts


def test_running_out_of_time_in_a_two_player_game_ends_it(alice, bob, django_capture_on_commit_callbacks):
    game = mid_game(alice, bob)
    late = mover(game)
    colour = game.to_move
    assert run_sweep(game.deadline - timedelta(minutes=1), django_capture_on_commit_callbacks)["timeouts"] == 0
    assert run_sweep(game.deadline + timedelta(minutes=1), django_capture_on_commit_callbacks)["timeouts"] == 1
    game.refresh_from_db()
    assert (game.status, game.result_reason) == ("finished", "timeout")
    assert game.winner != colour and game.seats.get(colour=colour).resigned
    winner = game.seats.get(colour=game.winner).user
    assert mail_to(winner)[-1].subject == f"Zark City #{game.pk} is over: you win as the last opponent ran out of time"
    assert mail_to(late)[-1].subject.startswith(f"Zark City #{game.pk} is over: {game.winner} wins")
    assert run_sweep(game.deadline or timezone.now() + timedelta(days=9), django_capture_on_commit_callbacks) == {
        "requeued": 0,
        "reminders": 0,
        "timeouts": 0,
        "digests": 0,
    }


def test_running_out_of_time_with_three_players_tells_the_table(
    alice, bob, charlie, django_capture_on_commit_callbacks
):
    game = mid_game(alice, bob, charlie)
    late, colour = mover(game), game.to_move
    run_sweep(game.deadline + timedelta(seconds=1), django_capture_on_commit_callbacks)
    game.refresh_from_db()
    assert game.status == "active" and game.seats.get(colour=colour).resigned
    assert state(game).resigned == (colour,)
    next_user = mover(game)
    third = next(s.user for s in game.seats.all() if s.user not in (late, next_user))
    assert mail_to(late)[-1].subject == f"Zark City #{game.pk}: {colour} ran out of time and leaves the game"
    assert "you ran out of time on your move" in mail_to(late)[-1].body
    assert mail_to(third)[-1].subject == f"Zark City #{game.pk}: {colour} ran out of time and leaves the game"
    assert mail_to(next_user)[-1].subject.endswith(", your turn")  # which lists the timeout among the moves
    assert f"{colour} resigned" in mail_to(next_user)[-1].body or "ran out of time" in mail_to(next_user)[-1].body


def test_a_move_in_time_is_never_timed_out(alice, bob, django_capture_on_commit_callbacks):
    game = mid_game(alice, bob)
    deadline = game.deadline
    with at(deadline - timedelta(minutes=5)):
        play_turn(game)
    run_sweep(deadline + timedelta(minutes=1), django_capture_on_commit_callbacks)
    game.refresh_from_db()
    assert game.status == "active" and not game.seats.filter(resigned=True).exists()


def test_when_every_player_runs_out_of_time_at_once_nobody_wins(
    alice, bob, charlie, django_capture_on_commit_callbacks
):
    game = start_game(alice, bob, charlie)  # nobody chooses a starter
    ratings = {user.pk: PlayerRating.objects.filter(user=user).first() for user in (alice, bob, charlie)}
    assert run_sweep(game.deadline + timedelta(minutes=1), django_capture_on_commit_callbacks)["timeouts"] == 3
    game.refresh_from_db()
    assert (game.status, game.winner, game.result_reason) == ("finished", "", "timeout")
    assert not game.seats.filter(resigned=True).exists() and not game.moves.filter(notation="resign").exists()
    assert (state(game).phase, state(game).winner, state(game).reason) == ("over", None, "timeout")
    for user in (alice, bob, charlie):
        assert (
            mail_to(user)[-1].subject
            == f"Zark City #{game.pk} is over: no winner: every remaining player ran out of time"
        )
    results = ArchivedPlayer.objects.filter(archived_game__game=game)
    assert sorted(results.values_list("outcome", flat=True)) == ["lost"] * 3  # everyone lost...
    assert all(r.mu_after == r.mu_before and r.sigma_after == r.sigma_before for r in results)  # ...unrated
    assert all(ratings[r.user_id] is None or ratings[r.user_id].mu == r.mu_before for r in results)


def test_only_the_players_out_of_time_resign_when_someone_did_move(
    alice, bob, charlie, django_capture_on_commit_callbacks
):
    game = start_game(alice, bob, charlie)
    play(game, "red", prefer=Choose)  # alice chose in time; bob and charlie never do
    game.refresh_from_db()
    assert run_sweep(game.deadline + timedelta(minutes=1), django_capture_on_commit_callbacks)["timeouts"] == 2
    game.refresh_from_db()
    assert (game.status, game.winner, game.result_reason) == ("finished", "red", "timeout")
    assert set(game.seats.filter(resigned=True).values_list("colour", flat=True)) == {"yellow", "green"}


def test_days_away_the_clock_cannot_handle_never_take_the_clock_away(alice, bob, charlie, dave, client, caplog):
    broken = mid_game(alice, bob)
    healthy = mid_game(charlie, dave)
    # Written before days away were checked: a day the clock arithmetic cannot even add one to.
    Away.objects.create(user=mover(broken), first_day=date(9999, 12, 31), last_day=date(9999, 12, 31))
    late = max(broken.deadline, healthy.deadline) + timedelta(minutes=1)
    with at(late - timedelta(minutes=2)):
        (broken_clock,) = clock.mover_clocks(broken)
    assert broken_clock.deadline == broken.deadline  # not away: the clock runs as usual
    with at(late):
        counts = sweep.sweep(timezone.now())
    assert counts["timeouts"] == 2
    for game in (healthy, broken):
        game.refresh_from_db()
        assert (game.status, game.result_reason) == ("finished", "timeout")
    assert f"days away 9999-12-31 to 9999-12-31 of user {mover_user(broken).pk} cannot be turned" in caplog.text
    assert caplog.text.count("9999-12-31 to 9999-12-31") == 1  # logged once, not on every sweep
    client.force_login(alice)
    assert client.get(f"/games/{broken.pk}/").status_code == 200


def test_days_away_that_cannot_be_read_at_all_leave_the_clock_running(alice, bob, monkeypatch, caplog):
    """Not just a bad date: anything unforeseen while reading one player's days away counts them as
    never away. Their clock is still there, so the sweep still times them out."""
    game = mid_game(alice, bob)
    Away.objects.create(user=mover(game), first_day=date(2030, 1, 1), last_day=date(2030, 1, 2))

    def broken(*args, **kwargs):
        raise RuntimeError("a time zone database in pieces")

    monkeypatch.setattr(clock, "away_spans", broken)
    (mover_clock,) = clock.mover_clocks(game)
    assert mover_clock.deadline == game.deadline and mover_clock.spans == ()
    assert "counted as none, their clock runs" in caplog.text
    with at(game.deadline + timedelta(minutes=1)):
        assert sweep.sweep(timezone.now())["timeouts"] == 1


def mover_user(game: Game):
    """The player whose move it was when the game ended (the one who timed out)."""
    return game.seats.get(resigned=True).user


def test_an_unusable_period_is_ignored_and_the_others_still_count():
    spans = clock.away_spans(
        [
            (date(2030, 3, 2), date(2030, 3, 2), None, None),
            (date(9999, 12, 31), date(9999, 12, 31), None, None),
            (date(2030, 3, 9), date(9999, 12, 30), None, None),  # would push the deadline past year 9999
        ],
        ZoneInfo("Pacific/Kiritimati"),
    )
    zone = ZoneInfo("Pacific/Kiritimati")
    assert spans == ((datetime(2030, 3, 2, tzinfo=zone), datetime(2030, 3, 3, tzinfo=zone)),)


def test_the_migration_trims_days_away_beyond_the_clock(alice):
    from importlib import import_module

    from django.apps import apps

    trim = import_module("notifications.migrations.0004_trim_days_away_beyond_the_clock").trim
    gone = Away.objects.create(user=alice, first_day=date(9999, 12, 31), last_day=date(9999, 12, 31))
    cut = Away.objects.create(user=alice, first_day=date(2030, 1, 1), last_day=date(9999, 12, 31))
    kept = Away.objects.create(user=alice, first_day=date(2030, 2, 1), last_day=date(2030, 2, 3))
    trim(apps, None)
    assert not Away.objects.filter(pk=gone.pk).exists()
    assert Away.objects.get(pk=cut.pk).last_day == date(8999, 12, 31)
    assert Away.objects.get(pk=kept.pk).last_day == date(2030, 2, 3)


# ----------------------------------------------------------------------------- days away


def test_days_away_stop_the_clock_and_the_table_sees_it(alice, bob, django_capture_on_commit_callbacks):
    game = mid_game(alice, bob)
    start, user = game.turn_started_at, mover(game)
    first = (start + timedelta(days=1)).date()
    notify.away_add(user=user, first_day=first, last_day=first + timedelta(days=1), today=start.date())
    [mover_clock] = clock.mover_clocks(game)
    assert mover_clock.deadline == game.deadline + timedelta(days=2)  # two whole days (UTC) added

    assert run_sweep(game.deadline + timedelta(hours=1), django_capture_on_commit_callbacks)["timeouts"] == 0
    during = datetime.combine(first, datetime.min.time(), UTC) + timedelta(hours=12)
    assert clock.table_away(game, during) == {game.to_move: first + timedelta(days=1)}
    assert clock.table_away(game, during + timedelta(days=3)) == {}
    assert run_sweep(mover_clock.deadline + timedelta(minutes=1), django_capture_on_commit_callbacks)["timeouts"] == 1


def test_the_clock_does_not_run_back_for_days_away_added_late(alice, bob):
    game = mid_game(alice, bob)
    user = mover(game)
    later = game.turn_started_at + timedelta(days=1, hours=10)
    with at(later):
        notify.away_add(user=user, first_day=later.date(), last_day=later.date(), today=later.date())
        [mover_clock] = clock.mover_clocks(game)
    end_of_day = datetime.combine(later.date() + timedelta(days=1), datetime.min.time(), UTC)
    assert mover_clock.deadline == game.deadline + (end_of_day - later)  # only from the moment it was added


def test_coming_back_early_restarts_the_clock(alice, bob):
    game = mid_game(alice, bob)
    user = mover(game)
    first = (game.turn_started_at + timedelta(days=1)).date()
    away = notify.away_add(user=user, first_day=first, last_day=first + timedelta(days=4), today=first)
    back = datetime.combine(first, datetime.min.time(), UTC) + timedelta(hours=6)
    with at(back):
        notify.away_end(user=user, away_id=away.pk)
    [mover_clock] = clock.mover_clocks(game)
    assert mover_clock.deadline == game.deadline + timedelta(hours=6)


@pytest.mark.parametrize(
    ("first", "last", "message"),
    [
        (date(2030, 1, 9), date(2030, 1, 12), "cannot start in the past"),
        (date(2030, 1, 12), date(2030, 1, 11), "comes before the first"),
        (date(2030, 1, 10), date(2030, 2, 10), "at most 30 days"),
        (date(2030, 3, 10), date(2030, 3, 12), "up to 60 days ahead"),
        (date(9999, 12, 31), date(9999, 12, 31), "up to 60 days ahead"),
    ],
)
def test_days_away_are_checked(alice, first, last, message):
    with pytest.raises(ValidationError, match=message):
        notify.away_add(user=alice, first_day=first, last_day=last, today=date(2030, 1, 10))


def test_days_away_are_at_most_45_in_any_year(alice):
    today = date(2030, 1, 10)
    notify.away_add(user=alice, first_day=today, last_day=date(2030, 2, 8), today=today)  # 30 days
    with pytest.raises(ValidationError, match="at most 45 in any 365 days: these 16 would make 46"):
        notify.away_add(user=alice, first_day=date(2030, 2, 20), last_day=date(2030, 3, 7), today=today)
    notify.away_add(user=alice, first_day=date(2030, 2, 20), last_day=date(2030, 3, 6), today=today)  # 15: 45
    with pytest.raises(ValidationError, match="at most 45"):
        notify.away_add(user=alice, first_day=date(2030, 3, 8), last_day=date(2030, 3, 8), today=today)
    # A year after the first day, that day has left the window: the 365 days up to it hold 29 + 15 + 1.
    later = date(2031, 1, 10)
    notify.away_add(user=alice, first_day=later, last_day=later + timedelta(days=14), today=later)
    assert len(notify.away_days(alice, since=later - timedelta(days=364), until=later)) == 45
    assert Away.objects.filter(user=alice).count() == 3


def test_days_cancelled_early_count_only_until_then(alice):
    today = date(2030, 1, 10)
    with at(datetime(2030, 1, 1, 12, tzinfo=UTC)):
        away = notify.away_add(user=alice, first_day=today, last_day=date(2030, 2, 8), today=today)
        notify.away_end(user=alice, away_id=away.pk)  # cancelled before it began: no day counts
    notify.away_add(user=alice, first_day=date(2030, 2, 10), last_day=date(2030, 3, 11), today=today)  # 30
    notify.away_add(user=alice, first_day=date(2030, 1, 10), last_day=date(2030, 1, 24), today=today)  # 15: 45
    assert len(notify.away_days(alice, since=today, until=date(2030, 12, 31))) == 45
    with pytest.raises(ValidationError, match="these 1 would make 46"):
        notify.away_add(user=alice, first_day=date(2030, 1, 25), last_day=date(2030, 1, 25), today=today)


# ----------------------------------------------------------------------------- digests


def test_a_digest_reader_gets_one_email_a_day_at_eight_their_time(alice, bob, django_capture_on_commit_callbacks):
    for user in (alice, bob):
        notify.preference_update(user=user, mode=Preference.Mode.DIGEST, time_zone="Europe/Paris")
    with at(datetime(2030, 1, 15, 12, tzinfo=UTC)):
        game = mid_game(alice, bob, days=5)
    user = mover(game)
    assert not Notification.objects.filter(kind=Kind.YOUR_TURN).exists()
    assert run_sweep(datetime(2030, 1, 16, 6, 59, tzinfo=UTC), django_capture_on_commit_callbacks)["digests"] == 0
    assert run_sweep(datetime(2030, 1, 16, 7, 1, tzinfo=UTC), django_capture_on_commit_callbacks)["digests"] == 1
    assert run_sweep(datetime(2030, 1, 16, 20, 0, tzinfo=UTC), django_capture_on_commit_callbacks)["digests"] == 0
    [digest] = [m for m in mail_to(user) if "waiting for your move" in m.subject]
    assert digest.subject == "Zark City: 1 game is waiting for your move"
    assert f"Zark City #{game.pk} ({game.to_move})" in digest.body and "/play/" in digest.body
    assert run_sweep(datetime(2030, 1, 17, 7, 1, tzinfo=UTC), django_capture_on_commit_callbacks)["digests"] == 1
    assert Notification.objects.filter(kind=Kind.DIGEST).count() == 2  # nothing for the one who waits on others


# ----------------------------------------------------------------------------- the clock's arithmetic


T0 = datetime(2030, 3, 1, 12, tzinfo=UTC)


@pytest.mark.parametrize(
    ("spans", "expected"),
    [
        ([], T0 + timedelta(days=3)),
        ([(T0 - timedelta(days=5), T0 - timedelta(days=4))], T0 + timedelta(days=3)),  # over before the move
        ([(T0 - timedelta(hours=2), T0 + timedelta(hours=10))], T0 + timedelta(days=3, hours=10)),  # straddles
        ([(T0 + timedelta(days=1), T0 + timedelta(days=2))], T0 + timedelta(days=4)),
        ([(T0 + timedelta(days=4), T0 + timedelta(days=5))], T0 + timedelta(days=3)),  # after the deadline
        (
            [(T0 + timedelta(days=1), T0 + timedelta(days=2)), (T0 + timedelta(days=3), T0 + timedelta(days=4))],
            T0 + timedelta(days=5),
        ),  # the second one falls inside the extended clock
    ],
)
def test_deadline_adds_each_day_away_the_clock_meets(spans, expected):
    assert clock.deadline(T0, timedelta(days=3), spans) == expected


def test_away_days_are_local_whole_days_and_merge():
    paris = ZoneInfo("Europe/Paris")
    spans = clock.away_spans(
        [(date(2030, 3, 2), date(2030, 3, 2), None, None), (date(2030, 3, 3), date(2030, 3, 4), None, None)], paris
    )
    assert spans == ((datetime(2030, 3, 2, tzinfo=paris), datetime(2030, 3, 5, tzinfo=paris)),)
    assert clock.used_time(T0, T0 + timedelta(days=4), spans) == timedelta(days=1)

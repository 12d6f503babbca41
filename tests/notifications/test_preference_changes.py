"""A change of preferences acts on what is already waiting: cleared quiet hours release the email
they held, and switching to the daily digest brings the first one at the next digest hour."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from notifications import delivery, sweep
from notifications import services as notify
from notifications.delivery import Outcome
from notifications.models import Notification, Preference
from tests.notifications.helpers import mail_to, play_setup, start_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager")]
Kind, Status = Notification.Kind, Notification.Status
NIGHT = datetime(2030, 1, 15, 22, 30, tzinfo=UTC)  # 23:30 in Paris


def at(moment: datetime):
    return time_machine.travel(moment, tick=False)


def quiet(user, quiet_from: time | None = time(22), quiet_until: time | None = time(7), mode: str = "every_turn"):
    return notify.preference_update(
        user=user, mode=mode, time_zone="Europe/Paris", quiet_from=quiet_from, quiet_until=quiet_until
    )


def held_for_alice(alice, bob) -> Notification:
    """alice's game-started email, held by her quiet hours at 23:30 Paris time."""
    quiet(alice)
    with at(NIGHT):
        start_game(alice, bob)
        row = Notification.objects.get(recipient=alice)
        assert delivery.deliver(row.pk) == Outcome.DEFERRED
    row.refresh_from_db()
    assert row.status == Status.PENDING and row.send_after > NIGHT
    return row


def test_clearing_quiet_hours_sends_the_email_they_held(alice, bob, django_capture_on_commit_callbacks):
    row = held_for_alice(alice, bob)
    with at(NIGHT + timedelta(minutes=5)), django_capture_on_commit_callbacks(execute=True):
        quiet(alice, None, None)
    row.refresh_from_db()
    assert row.status == Status.SENT and len(mail_to(alice)) == 1


def test_quiet_hours_moved_hold_the_email_until_the_new_end(alice, bob, django_capture_on_commit_callbacks):
    row = held_for_alice(alice, bob)
    with at(NIGHT + timedelta(minutes=5)), django_capture_on_commit_callbacks(execute=True):
        quiet(alice, time(23), time(6))  # still quiet now, but ending an hour earlier
    row.refresh_from_db()
    assert row.status == Status.PENDING and row.send_after == datetime(2030, 1, 16, 5, tzinfo=UTC)
    assert not mail_to(alice)


def test_switching_to_the_digest_brings_the_first_one_at_eight(alice, bob, django_capture_on_commit_callbacks):
    with at(datetime(2030, 1, 15, 9, tzinfo=UTC)):
        game = start_game(alice, bob)
        play_setup(game)
    game.refresh_from_db()
    waiting = game.seats.get(colour=game.to_move).user
    Notification.objects.update(status=Status.SENT)
    mail.outbox.clear()
    with at(datetime(2030, 1, 15, 14, tzinfo=UTC)):  # 15:00 in Paris
        quiet(waiting, None, None, mode=Preference.Mode.DIGEST)

    def digests(moment: datetime) -> int:
        with at(moment), django_capture_on_commit_callbacks(execute=True):
            return sweep.sweep(timezone.now())["digests"]

    assert digests(datetime(2030, 1, 15, 14, 1, tzinfo=UTC)) == 0  # the page promised 8:00
    assert digests(datetime(2030, 1, 15, 22, 0, tzinfo=UTC)) == 0
    assert digests(datetime(2030, 1, 16, 7, 1, tzinfo=UTC)) == 1  # 8:01 in Paris
    assert [m.subject for m in mail_to(waiting)] == ["Zark City: 1 game is waiting for your move"]


def test_a_game_waiting_only_after_eight_is_in_the_next_mornings_digest(alice, bob, django_capture_on_commit_callbacks):
    for user in (alice, bob):
        quiet(user, None, None, mode=Preference.Mode.DIGEST)
    with at(datetime(2030, 1, 15, 12, tzinfo=UTC)):
        game = start_game(alice, bob)
        play_setup(game)
    Notification.objects.update(status=Status.SENT)

    def digests(moment: datetime) -> int:
        with at(moment), django_capture_on_commit_callbacks(execute=True):
            return sweep.sweep(timezone.now())["digests"]

    assert digests(datetime(2030, 1, 15, 12, 1, tzinfo=UTC)) == 0  # 13:01 in Paris: not at eight
    assert digests(datetime(2030, 1, 16, 7, 1, tzinfo=UTC)) == 1

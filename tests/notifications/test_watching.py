"""Quiet while you watch (issue 28): no turn email to a player whose visible page of the game polls;
if they have not moved NOTIFICATIONS_WATCH_GRACE_SECONDS after their turn began it goes as any other;
a hidden tab or a page gone is not watching. Exactly once either way, also when a worker dies."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from notifications import delivery, sweep
from notifications import services as notify
from notifications.delivery import Outcome
from notifications.models import Notification, Watch
from tests.notifications.helpers import mail_to, movers, play, start_game, state

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager")]
Kind, Status = Notification.Kind, Notification.Status


def bobs_turn(alice, bob) -> tuple[Game, Notification]:
    """A game just handed to bob: his "your turn" row written, not yet given to a worker."""
    game = start_game(alice, bob)
    while not Notification.objects.filter(recipient=bob, kind=Kind.YOUR_TURN).exists():
        play(game)
    game.refresh_from_db()
    Notification.objects.exclude(recipient=bob, kind=Kind.YOUR_TURN).delete()  # the sweep hands out only his
    return game, Notification.objects.get()


def finish_turn(game: Game, user) -> None:
    """The player's whole turn (its discard too, when the deal's first move leaves one): the move then
    passes to the other player, whose turn email is written."""
    colour = game.seats.get(user=user).colour
    while colour in movers(state(game)):
        play(game, colour)
        game.refresh_from_db()


def watch(user, game: Game, **query) -> dict:
    """The poll of the player's visible page (game_page.js sends mine=1 only from a visible tab)."""
    client = Client()
    client.force_login(user)
    return client.get(reverse("game_ply", args=[game.pk]), {"since": game.ply, "mine": "1"} | query).json()


def hide(user, game: Game) -> int:
    """The beacon of a tab gone hidden (or closed)."""
    client = Client()
    client.force_login(user)
    return client.post(reverse("notifications:game_unwatched", args=[game.pk])).status_code


def grace(row: Notification, minutes: float = 0) -> timezone.datetime:
    return row.created_at + timedelta(seconds=settings.NOTIFICATIONS_WATCH_GRACE_SECONDS, minutes=minutes)


def test_a_watching_player_who_moves_in_time_gets_no_email(alice, bob):
    game, row = bobs_turn(alice, bob)
    watch(bob, game)
    assert delivery.deliver(row.pk) == Outcome.DEFERRED
    row.refresh_from_db()
    # Held like quiet hours: a due time on the row (send_after), in no broker, for the sweep to hand out.
    assert (row.status, row.send_after, row.queued_at) == (Status.PENDING, grace(row), None)
    with time_machine.travel(grace(row, -2), tick=False):
        assert sweep.requeue(timezone.now()) == 0  # not due yet
        watch(bob, game)
        finish_turn(game, bob)  # bob moves, with his page open
    row.refresh_from_db()  # his move answered it: no worker need hand it out and skip it
    assert (row.status, row.skip_reason) == (Status.SKIPPED, "they already moved")
    with time_machine.travel(grace(row, 1), tick=False):
        assert sweep.requeue(timezone.now()) == 1  # alice's turn after his move
    assert mail_to(bob) == []


def test_a_tab_gone_hidden_gets_the_email_after_the_grace_period_once(alice, bob):
    game, row = bobs_turn(alice, bob)
    watch(bob, game)
    assert delivery.deliver(row.pk) == Outcome.DEFERRED
    assert hide(bob, game) == 204 and not Watch.objects.exists()
    with time_machine.travel(grace(row, -1), tick=False):
        assert sweep.requeue(timezone.now()) == 0 and mail_to(bob) == []
    with time_machine.travel(grace(row, 1), tick=False):
        assert sweep.requeue(timezone.now()) == 1
    with time_machine.travel(grace(row, 10), tick=False):
        assert sweep.requeue(timezone.now()) == 0
        assert delivery.deliver(row.pk) == Outcome.NOT_CLAIMED  # the first task, redelivered late
    row.refresh_from_db()
    assert row.status == Status.SENT and len(mail_to(bob)) == 1


def test_a_page_left_open_without_a_move_still_brings_the_email_after_the_grace(alice, bob):
    game, row = bobs_turn(alice, bob)
    watch(bob, game)
    assert delivery.deliver(row.pk) == Outcome.DEFERRED
    with time_machine.travel(grace(row, 1), tick=False):
        watch(bob, game)  # still polling: nobody may be looking at that screen
        assert sweep.requeue(timezone.now()) == 1
    assert len(mail_to(bob)) == 1


def test_a_player_not_watching_gets_the_email_at_once(alice, bob, settings):
    game, row = bobs_turn(alice, bob)
    with time_machine.travel(timezone.now() - timedelta(seconds=settings.NOTIFICATIONS_WATCH_SECONDS + 5)):
        watch(bob, game)  # the page polled, then the tab was closed without a beacon
    assert delivery.deliver(row.pk) == Outcome.SENT
    assert len(mail_to(bob)) == 1


def test_a_worker_killed_between_the_hold_and_the_send_still_sends_once(alice, bob, settings):
    game, row = bobs_turn(alice, bob)
    watch(bob, game)
    assert delivery.deliver(row.pk) == Outcome.DEFERRED
    with time_machine.travel(grace(row, 1), tick=False):
        assert delivery.claim(row.pk) is not None  # ...and this worker dies before deciding
        assert sweep.requeue(timezone.now()) == 0  # a fresh claim is left alone
    stale = timedelta(seconds=settings.NOTIFICATIONS_STALE_CLAIM_SECONDS + 1)
    with time_machine.travel(grace(row, 1) + stale, tick=False):
        assert sweep.requeue(timezone.now()) == 1
        assert delivery.deliver(row.pk) == Outcome.NOT_CLAIMED  # the dead worker's task, redelivered
    row.refresh_from_db()
    assert row.status == Status.SENT and len(mail_to(bob)) == 1


def test_a_worker_killed_while_holding_the_first_claim_holds_again_if_still_watched(alice, bob, settings):
    game, row = bobs_turn(alice, bob)
    assert delivery.claim(row.pk) is not None  # the first worker dies before the re-check
    later = timezone.now() + timedelta(seconds=settings.NOTIFICATIONS_STALE_CLAIM_SECONDS + 1)
    with time_machine.travel(later, tick=False):
        watch(bob, game)
        assert sweep.requeue(timezone.now()) == 1  # taken over: bob is watching, so it is held
    row.refresh_from_db()
    assert row.status == Status.PENDING and row.send_after == grace(row) and mail_to(bob) == []
    with time_machine.travel(grace(row, 1), tick=False):
        assert sweep.requeue(timezone.now()) == 1
    assert len(mail_to(bob)) == 1


def test_quiet_hours_still_hold_the_email_after_the_grace(alice, bob):
    from notifications import services as notify

    game, row = bobs_turn(alice, bob)
    now = timezone.now()
    start = (now + timedelta(minutes=1)).time().replace(second=0, microsecond=0)
    until = (now + timedelta(hours=2)).time().replace(second=0, microsecond=0)
    notify.preference_update(user=bob, mode="every_turn", time_zone="UTC", quiet_from=start, quiet_until=until)
    watch(bob, game)
    assert delivery.deliver(row.pk) == Outcome.DEFERRED
    with time_machine.travel(grace(row, 1), tick=False):
        assert sweep.requeue(timezone.now()) == 1  # the hold is over, the night is not
    row.refresh_from_db()
    assert row.status == Status.PENDING and row.send_after > grace(row, 60) and mail_to(bob) == []


def turn_handed_to(bob, game: Game, capture, *, polling: bool = True) -> tuple[Notification, list[int]]:
    """Moves until one hands bob his turn, his page polling before each if `polling` (game_page.js, a
    visible tab): his "your turn" row, and the rows the moves gave the broker after commit."""
    queued: list[int] = []
    while True:
        if polling:
            watch(bob, game)
        with capture() as callbacks:
            play(game)
        queued += [c.args[0] for c in callbacks if getattr(c, "func", None) is notify.enqueue]
        row = Notification.objects.filter(recipient=bob, kind=Kind.YOUR_TURN).first()
        if row is not None:
            Notification.objects.exclude(pk=row.pk).delete()  # the sweep hands out only his
            return row, queued


def test_a_turn_handed_to_a_player_watching_is_written_held_and_wakes_no_worker(
    alice, bob, django_capture_on_commit_callbacks
):
    row, queued = turn_handed_to(bob, start_game(alice, bob), django_capture_on_commit_callbacks)
    # As the worker would have held it (test_a_watching_player_who_moves_in_time_gets_no_email), and no
    # task for a worker to claim the row only to put it back: never claimed, no attempt counted.
    assert (row.status, row.send_after, row.queued_at) == (Status.PENDING, grace(row), None)
    assert row.claimed_at is None and row.attempts == 0 and row.pk not in queued
    with time_machine.travel(grace(row, -1), tick=False):
        assert sweep.requeue(timezone.now()) == 0 and mail_to(bob) == []
    with time_machine.travel(grace(row, 1), tick=False):
        assert sweep.requeue(timezone.now()) == 1  # he has not moved: the email goes, once
        assert sweep.requeue(timezone.now()) == 0
    row.refresh_from_db()
    assert row.status == Status.SENT and len(mail_to(bob)) == 1


def test_a_turn_handed_to_a_player_watching_who_moves_in_time_brings_no_email(
    alice, bob, django_capture_on_commit_callbacks
):
    game = start_game(alice, bob)
    row, _ = turn_handed_to(bob, game, django_capture_on_commit_callbacks)
    with time_machine.travel(grace(row, -2), tick=False):
        play(game, game.seats.get(user=bob).colour)  # the first step of his turn answers it
    row.refresh_from_db()
    assert (row.status, row.skip_reason, row.attempts) == (Status.SKIPPED, "they already moved", 0)
    with time_machine.travel(grace(row, 1), tick=False):
        sweep.requeue(timezone.now())
    assert mail_to(bob) == []


def test_a_move_answers_only_its_players_own_turn_emails_still_unsent(alice, bob):
    game, row = bobs_turn(alice, bob)  # bob's "your turn", not yet given to a worker
    assert delivery.claim(row.pk) is not None  # ...then taken by one: its own checks decide
    sent_row = Notification.objects.create(
        game=game, ply=0, recipient=bob, kind=Kind.YOUR_TURN, status=Status.SENT, created_at=timezone.now()
    )
    others = [
        Notification.objects.create(game=game, ply=game.ply, recipient=bob, kind=Kind.DRAW_PROPOSED),
        Notification.objects.create(game=game, ply=game.ply, recipient=alice, kind=Kind.REMINDER_50),
    ]
    waiting = Notification.objects.create(game=game, ply=game.ply, recipient=bob, kind=Kind.REMINDER_50)
    play(game, game.seats.get(user=bob).colour)
    statuses = dict(Notification.objects.values_list("pk", "status"))
    assert statuses[waiting.pk] == Status.SKIPPED
    assert statuses[row.pk] == Status.SENDING and statuses[sent_row.pk] == Status.SENT
    assert [statuses[other.pk] for other in others] == [Status.PENDING, Status.PENDING]
    stale = timedelta(seconds=settings.NOTIFICATIONS_STALE_CLAIM_SECONDS + 1)
    with time_machine.travel(timezone.now() + stale, tick=False):
        assert delivery.deliver(row.pk) == Outcome.SKIPPED  # that claim taken over: the worker's own check
    row.refresh_from_db()
    assert row.skip_reason in ("they already moved", "it is no longer their move") and mail_to(bob) == []


def test_a_turn_handed_to_a_player_whose_page_went_quiet_is_queued_at_once(
    alice, bob, settings, django_capture_on_commit_callbacks
):
    game = start_game(alice, bob)
    with time_machine.travel(timezone.now() - timedelta(seconds=settings.NOTIFICATIONS_WATCH_SECONDS + 5)):
        watch(bob, game)  # his page polled, then its tab was closed without a beacon
    row, queued = turn_handed_to(bob, game, django_capture_on_commit_callbacks, polling=False)
    assert Watch.objects.filter(user=bob).exists()
    assert row.send_after is None and row.queued_at is not None and row.pk in queued


def test_a_turn_handed_to_a_player_whose_tab_went_hidden_is_queued_at_once(
    alice, bob, django_capture_on_commit_callbacks
):
    game = start_game(alice, bob)
    watch(bob, game)
    assert hide(bob, game) == 204
    row, queued = turn_handed_to(bob, game, django_capture_on_commit_callbacks, polling=False)
    assert row.send_after is None and row.queued_at is not None and row.pk in queued


def test_only_a_seated_players_poll_of_a_game_going_on_counts(alice, bob, charlie):
    game, _ = bobs_turn(alice, bob)
    watch(charlie, game)  # a spectator
    Client().get(reverse("game_ply", args=[game.pk]), {"mine": "1"})  # signed out
    client = Client()
    client.force_login(bob)
    client.get(reverse("game_ply", args=[game.pk]))  # without mine=1: a spectator's kind of poll
    assert not Watch.objects.exists()
    watch(bob, game)
    watch(bob, game)
    assert list(Watch.objects.values_list("user__username", flat=True)) == ["bob"]


def test_a_seated_poll_moves_its_watch_on_with_the_update_compiled_once(alice, bob):
    """The UPDATE every seated poll sends (watching._SEEN) is compiled once and writes the poll's time, and
    only that player's row of that game."""
    from unittest import mock

    from django.db.models.sql.compiler import SQLUpdateCompiler

    from notifications.watching import watch_seen

    game, _ = bobs_turn(alice, bob)
    watch(bob, game)  # the row inserted, the statement compiled
    watch(alice, game)
    alices = Watch.objects.get(user=alice).seen_at
    later = timezone.now() + timedelta(minutes=3)
    with mock.patch.object(SQLUpdateCompiler, "as_sql", side_effect=AssertionError("compiled again")):
        watch_seen(user=bob, game=game, now=later)
    assert Watch.objects.get(user=bob).seen_at == later
    assert Watch.objects.get(user=alice).seen_at == alices


def poll_seconds() -> int:
    return settings.ZARKCITY_POLL_SECONDS


def seen_at(user, game: Game):
    return Watch.objects.filter(user=user, game=game).values_list("seen_at", flat=True).first()


def test_a_page_that_keeps_polling_writes_its_row_every_other_poll_and_stays_watched(alice, bob):
    """A row written less than WATCH - POLL - 5 seconds ago answers for this poll too: at every moment of
    two minutes of polls the worker counts bob watching, with half the writes."""
    game, row = bobs_turn(alice, bob)
    start, polls, writes = timezone.now(), 13, 0
    for n in range(polls):
        at = start + timedelta(seconds=n * poll_seconds())
        with time_machine.travel(at, tick=False):
            before = seen_at(bob, game)
            watch(bob, game)
        written = seen_at(bob, game)
        writes += written != before
        just_before_the_next = at + timedelta(seconds=poll_seconds(), milliseconds=-1)
        assert written >= just_before_the_next - timedelta(seconds=settings.NOTIFICATIONS_WATCH_SECONDS)
    assert writes == 7  # the polls at 0, 20, 40 ... 120 seconds


def test_a_late_poll_still_finds_the_row_fresh(alice, bob):
    """The margin: a poll that comes five seconds late (a busy browser) after one that did not write."""
    game, row = bobs_turn(alice, bob)
    start = timezone.now()
    watch(bob, game)
    with time_machine.travel(start + timedelta(seconds=poll_seconds()), tick=False):
        watch(bob, game)  # not written
    late = start + timedelta(seconds=2 * poll_seconds() + 5, milliseconds=-1)
    assert seen_at(bob, game) >= late - timedelta(seconds=settings.NOTIFICATIONS_WATCH_SECONDS)


def test_a_tab_shown_again_is_watching_at_once(alice, bob):
    game, row = bobs_turn(alice, bob)
    watch(bob, game)
    assert hide(bob, game) == 204 and seen_at(bob, game) is None
    watch(bob, game)  # within the time a written row answers for: the beacon forgot it
    assert seen_at(bob, game) is not None
    assert delivery.deliver(row.pk) == Outcome.DEFERRED


def test_with_the_cache_down_every_poll_writes_the_row(alice, bob, settings):
    from tests.ops.test_sessions import RAISING

    game, row = bobs_turn(alice, bob)
    settings.CACHES = RAISING
    start = timezone.now()
    for n in range(3):
        at = start + timedelta(seconds=n * poll_seconds())
        with time_machine.travel(at, tick=False):
            watch(bob, game)
        assert seen_at(bob, game) == at

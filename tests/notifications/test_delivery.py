"""The worker's side: the claim, retries with backoff, failures operators can see, crashes and recovery.

"Exactly once" rests on the claim (a conditional UPDATE only one worker wins) and the re-check
before sending; a database connection lost between the SMTP server's "250 OK" and the UPDATE to
"sent" is recorded by the retried task, not sent again; the one window left (a worker killed there)
is at-least-once, and the test for it says so.
"""

from __future__ import annotations

import smtplib
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.db import OperationalError as DjangoOperationalError
from django.db.models import QuerySet
from django.utils import timezone
from kombu.exceptions import OperationalError

from games import services
from notifications import delivery, sweep
from notifications import services as notify
from notifications.delivery import Outcome
from notifications.models import Notification
from notifications.tasks import deliver
from tests.notifications.helpers import start_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager")]
Kind, Status = Notification.Kind, Notification.Status


def one_row(alice, bob) -> Notification:
    """A game-started row for alice, written but not yet handed to a worker."""
    start_game(alice, bob)
    Notification.objects.exclude(recipient=alice).delete()
    return Notification.objects.get(recipient=alice)


def test_smtp_refuses_twice_then_accepts_one_email(alice, bob, refusing, settings):
    settings.NOTIFICATIONS_RETRY_BASE_SECONDS = 1
    row = one_row(alice, bob)
    calls = refusing(2, smtplib.SMTPDataError(451, b"4.3.0 try again later"))
    deliver.delay(row.pk)  # eager: Celery runs each retry at once; the claim still guards every attempt
    row.refresh_from_db()
    assert calls["refused"] == 2
    assert len(mail.outbox) == 1 and (row.status, row.attempts) == (Status.SENT, 3)
    assert "451" in row.last_error  # the last failure stays on the row for operators


def test_a_permanent_refusal_fails_at_once_and_shows_why(alice, bob, refusing):
    row = one_row(alice, bob)
    refusing(1, smtplib.SMTPRecipientsRefused({"alice@example.com": (550, b"5.1.1 no such user")}))
    deliver.delay(row.pk)
    row.refresh_from_db()
    assert (row.status, row.attempts) == (Status.FAILED, 1) and "550" in row.last_error
    assert mail.outbox == []


def test_after_the_last_attempt_the_row_fails(alice, bob, refusing, settings):
    settings.NOTIFICATIONS_MAX_ATTEMPTS = 4
    row = one_row(alice, bob)
    refusing(99, ConnectionRefusedError(111, "Connection refused"))
    deliver.delay(row.pk)
    row.refresh_from_db()
    assert (row.status, row.attempts) == (Status.FAILED, 4) and "Connection refused" in row.last_error


def test_a_bug_deciding_whether_to_send_fails_the_row_instead_of_leaving_it_claimed(
    alice, bob, monkeypatch, eager_retries, settings
):
    """An exception before the send (here in the is-it-still-wanted check) counts as an attempt: the row
    is retried, then failed with the error shown, not left "sending" for the sweep to take over forever."""
    settings.NOTIFICATIONS_MAX_ATTEMPTS = 2
    row = one_row(alice, bob)

    def broken(row):
        raise AttributeError("'NoneType' object has no attribute 'colour'")

    monkeypatch.setattr(delivery, "why_not", broken)
    deliver.delay(row.pk)
    row.refresh_from_db()
    assert (row.status, row.attempts) == (Status.FAILED, 2) and "AttributeError" in row.last_error
    assert mail.outbox == []


def test_backoff_doubles_with_jitter_and_is_capped(settings):
    settings.NOTIFICATIONS_RETRY_BASE_SECONDS = 30
    for attempts, base in [(1, 30), (2, 60), (3, 120), (4, 240)]:
        waits = {delivery.backoff(attempts) for _ in range(50)}
        assert all(base * 0.5 <= wait <= base * 1.5 for wait in waits) and len(waits) > 1
    assert delivery.backoff(30) <= delivery.MAX_BACKOFF_SECONDS


def test_a_redelivered_task_after_sending_does_nothing(alice, bob):
    """The worker died after marking the row sent but before acknowledging the task: the broker hands
    the task out again and the claim refuses it."""
    row = one_row(alice, bob)
    assert delivery.deliver(row.pk) == Outcome.SENT
    assert delivery.deliver(row.pk) == Outcome.NOT_CLAIMED
    assert len(mail.outbox) == 1


def test_two_workers_racing_for_one_row_send_it_once(alice, bob):
    row = one_row(alice, bob)
    first = delivery.claim(row.pk)
    assert first is not None and delivery.claim(row.pk) is None  # the second worker loses the UPDATE


def test_a_worker_that_died_holding_a_claim_is_taken_over_after_the_stale_limit(alice, bob, settings):
    row = one_row(alice, bob)
    delivery.claim(row.pk)  # ...and the worker process dies here, before sending
    assert sweep.requeue(timezone.now()) == 0  # a fresh claim is left alone
    later = timezone.now() + timedelta(seconds=settings.NOTIFICATIONS_STALE_CLAIM_SECONDS + 1)
    with time_machine.travel(later, tick=False):
        assert sweep.requeue(timezone.now()) == 1
    row.refresh_from_db()
    assert row.status == Status.SENT and len(mail.outbox) == 1


def test_a_crash_between_sending_and_marking_sent_is_the_at_least_once_window(alice, bob, monkeypatch, settings):
    """Honest about the one gap: the SMTP server accepted the message, then the worker died before
    the UPDATE. After the stale limit the row is sent again, with the same Message-ID, so mail
    programs that de-duplicate show it once. No scheme without a transactional mail server closes it."""
    row = one_row(alice, bob)
    real_record = delivery.record_sent

    def crash(*args, **kwargs):
        raise SystemExit("worker killed")  # after send(), before the row is marked

    monkeypatch.setattr(delivery, "record_sent", crash)
    with pytest.raises(SystemExit):
        delivery.deliver(row.pk)
    monkeypatch.setattr(delivery, "record_sent", real_record)
    later = timezone.now() + timedelta(seconds=settings.NOTIFICATIONS_STALE_CLAIM_SECONDS + 1)
    with time_machine.travel(later, tick=False):
        sweep.requeue(timezone.now())
    row.refresh_from_db()
    assert row.status == Status.SENT
    assert len(mail.outbox) == 2
    assert mail.outbox[0].extra_headers["Message-ID"] == mail.outbox[1].extra_headers["Message-ID"]


def test_the_broker_down_when_the_move_is_made_costs_a_delay_not_an_email(
    alice, bob, monkeypatch, settings, django_capture_on_commit_callbacks
):
    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(deliver, "apply_async", broker_down)
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(alice, bob)  # the deal commits; nothing reaches the queue
    assert game.status == "active" and mail.outbox == []
    assert set(Notification.objects.values_list("status", flat=True)) == {Status.PENDING}
    monkeypatch.undo()  # the broker is back
    assert sweep.requeue(timezone.now()) == 0  # not yet: a queued row gets time to be picked up
    later = timezone.now() + timedelta(seconds=settings.NOTIFICATIONS_REQUEUE_AFTER_SECONDS + 1)
    with time_machine.travel(later, tick=False):
        assert sweep.requeue(timezone.now()) == 2
        assert sweep.requeue(timezone.now()) == 0  # sent: never again
    assert len(mail.outbox) == 2


def test_quiet_hours_hold_the_email_until_they_end(alice, bob):
    notify.preference_update(
        user=alice,
        mode="every_turn",
        time_zone="Europe/Paris",
        quiet_from=timezone.datetime(2000, 1, 1, 22).time(),
        quiet_until=timezone.datetime(2000, 1, 1, 7).time(),
    )
    night = timezone.datetime(2030, 1, 15, 23, 30, tzinfo=timezone.get_fixed_timezone(60))  # 23:30 in Paris
    with time_machine.travel(night, tick=False):
        start_game(alice, bob)
        row, other = Notification.objects.get(recipient=alice), Notification.objects.get(recipient=bob)
        assert delivery.deliver(row.pk) == Outcome.DEFERRED
        assert delivery.deliver(other.pk) == Outcome.SENT  # bob keeps no quiet hours
        row.refresh_from_db()
        assert row.status == Status.PENDING and row.send_after.isoformat() == "2030-01-16T06:00:00+00:00"
    with time_machine.travel(night + timedelta(hours=2), tick=False):
        assert sweep.requeue(timezone.now()) == 0  # still night in Paris
    assert [m.to for m in mail.outbox] == [["bob <bob@example.com>"]]
    with time_machine.travel(row.send_after + timedelta(minutes=1), tick=False):
        assert sweep.requeue(timezone.now()) == 1
    row.refresh_from_db()
    assert row.status == Status.SENT and len(mail.outbox) == 2


def test_operators_see_failed_rows_and_can_send_them_again(
    alice, bob, admin_client, refusing, django_capture_on_commit_callbacks
):
    row = one_row(alice, bob)
    refusing(1, smtplib.SMTPRecipientsRefused({"alice@example.com": (550, b"no such user")}))
    deliver.delay(row.pk)
    page = admin_client.get("/admin/notifications/notification/?status__exact=failed")
    assert page.status_code == 200 and f"/admin/notifications/notification/{row.pk}/change/" in page.text
    detail = admin_client.get(f"/admin/notifications/notification/{row.pk}/change/")
    assert "no such user" in detail.text
    with django_capture_on_commit_callbacks(execute=True):
        admin_client.post("/admin/notifications/notification/", {"action": "send_again", "_selected_action": [row.pk]})
    row.refresh_from_db()
    assert row.status == Status.SENT and len(mail.outbox) == 1


def fail_the_sent_update_once(monkeypatch, then=lambda: None):
    """The worker's database connection dies just after the mail server said 250: the UPDATE to
    "sent" raises, once (the one compiled once, delivery.RECORD_SENT, or the ORM's for a claim with
    no time); `then` is what the world does meanwhile."""
    real_record, real_update = delivery.RECORD_SENT, QuerySet.update
    failed = []

    def fail_once():
        if not failed:
            failed.append(True)
            then()
            raise DjangoOperationalError("terminating connection due to administrator command")

    def record(**values):
        fail_once()
        return real_record(**values)

    def update(queryset, **fields):
        if queryset.model is Notification and fields.get("status") == Status.SENT:
            fail_once()
        return real_update(queryset, **fields)

    monkeypatch.setattr(delivery, "RECORD_SENT", record)
    monkeypatch.setattr(QuerySet, "update", update)
    return failed


def test_a_connection_lost_after_the_250_is_recorded_sent_and_not_sent_again(alice, bob, monkeypatch):
    row = one_row(alice, bob)
    failed = fail_the_sent_update_once(monkeypatch)
    deliver.apply(args=(row.pk,), throw=False)  # the task, and its retry (run at once: eager)
    row.refresh_from_db()
    assert failed and row.status == Status.SENT and row.sent_at is not None
    assert len(mail.outbox) == 1 and row.message_id == mail.outbox[0].extra_headers["Message-ID"]
    assert delivery.deliver(row.pk) == Outcome.NOT_CLAIMED and len(mail.outbox) == 1


def test_an_email_delivered_before_the_turn_passed_is_not_recorded_skipped(alice, bob, monkeypatch):
    """Notification 1077 of the fault run: delivered, then the connection died, then the game moved on;
    the retry re-checked, found it unwanted and wrote "skipped" over an email the player had."""
    row = one_row(alice, bob)
    game = row.game
    failed = fail_the_sent_update_once(monkeypatch, then=lambda: services.player_resign(game=game, user=bob))
    deliver.apply(args=(row.pk,), throw=False)
    row.refresh_from_db()
    assert failed
    assert (row.status, row.skip_reason, len(mail.outbox)) == (Status.SENT, "", 1)

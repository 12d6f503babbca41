"""Invitation emails go through the outbox like every other email: a row written with the invitation,
sent by a worker after commit, retried, re-checked before sending, and never sent by the web request."""

from __future__ import annotations

import smtplib
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.urls import reverse
from django.utils import timezone
from kombu.exceptions import OperationalError

from games import services
from games.emails import invitation_token
from games.models import Invitation
from notifications import delivery, sweep
from notifications import services as notify
from notifications.delivery import Outcome
from notifications.models import Notification
from notifications.tasks import deliver

pytestmark = pytest.mark.django_db
Kind, Status = Notification.Kind, Notification.Status


def new_game(creator, seats: int = 2):
    return services.game_create(
        creator=creator, seats=seats, game="zarkcity", options={"deck": "standard"}, time_limit_days=3, is_private=False
    )


@pytest.fixture
def game(alice):
    return new_game(alice)


def invite(client, game, who, capture):
    """alice invites `who` from the waiting room, and the request's on-commit callbacks run."""
    client.force_login(game.seats.get().user)
    with capture(execute=True):
        return client.post(reverse("game_invite", args=[game.pk]), {"who": who}, follow=True)


def returned_normally(response, who: str) -> bool:
    messages = [str(m) for m in response.context["messages"]]
    return response.status_code == 200 and f"Invitation sent to {who}." in messages


def later(seconds: int):
    return time_machine.travel(timezone.now() + timedelta(seconds=seconds + 1), tick=False)


def test_smtp_refuses_twice_then_accepts_one_invitation_email(
    client, game, eager, refusing, settings, django_capture_on_commit_callbacks
):
    settings.NOTIFICATIONS_RETRY_BASE_SECONDS = 1
    calls = refusing(2, smtplib.SMTPDataError(451, b"4.3.0 try again later"))
    response = invite(client, game, "pal@example.org", django_capture_on_commit_callbacks)
    assert returned_normally(response, "pal@example.org")
    row = Notification.objects.get()
    assert (row.kind, row.recipient, row.invitation) == (Kind.INVITATION, None, Invitation.objects.get())
    assert calls["refused"] == 2 and (row.status, row.attempts) == (Status.SENT, 3)
    (message,) = mail.outbox
    assert message.to == ["pal@example.org"] and message.subject == "alice invites you to a game of Zark City"
    assert invitation_token(row.invitation_id) in message.body


def test_the_invite_page_returns_normally_while_smtp_is_down(
    client, bob, game, monkeypatch, django_capture_on_commit_callbacks
):
    """The request writes a row and hands its id to the broker; only a worker ever talks to SMTP."""
    queued, tried = [], []
    monkeypatch.setattr(deliver, "apply_async", lambda args, **options: queued.append(args[0]))
    monkeypatch.setattr(EmailBackend, "send_messages", lambda self, messages: tried.append(messages) or 1 / 0)
    response = invite(client, game, "bob", django_capture_on_commit_callbacks)
    assert returned_normally(response, "bob")
    row = Notification.objects.get()
    assert queued == [row.pk] and (row.status, row.attempts) == (Status.PENDING, 0) and tried == []


def test_a_worker_in_the_same_process_cannot_break_the_page_either(
    client, game, eager, refusing, settings, django_capture_on_commit_callbacks
):
    """Eager Celery runs every retry inside the request: the page still answers, the row fails visibly."""
    settings.NOTIFICATIONS_MAX_ATTEMPTS = 3
    refusing(99, ConnectionRefusedError(111, "Connection refused"))
    response = invite(client, game, "pal@example.org", django_capture_on_commit_callbacks)
    assert returned_normally(response, "pal@example.org")
    row = Notification.objects.get()
    assert (row.status, row.attempts) == (Status.FAILED, 3) and "Connection refused" in row.last_error


def test_the_broker_down_at_invite_time_costs_a_delay_and_a_second_sweep_sends_nothing(
    client, game, eager, monkeypatch, settings, django_capture_on_commit_callbacks
):
    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(deliver, "apply_async", broker_down)
    response = invite(client, game, "pal@example.org", django_capture_on_commit_callbacks)
    assert returned_normally(response, "pal@example.org") and mail.outbox == []
    row = Notification.objects.get()
    assert row.status == Status.PENDING
    monkeypatch.undo()  # the broker is back
    assert sweep.sweep(timezone.now())["requeued"] == 0  # not yet: a queued row gets time to be picked up
    with later(settings.NOTIFICATIONS_REQUEUE_AFTER_SECONDS):
        assert sweep.sweep(timezone.now())["requeued"] == 1
        assert sweep.sweep(timezone.now())["requeued"] == 0
    with later(10 * settings.NOTIFICATIONS_REQUEUE_AFTER_SECONDS):
        assert sweep.sweep(timezone.now())["requeued"] == 0  # sent: never again
    assert delivery.deliver(row.pk) == Outcome.NOT_CLAIMED  # the first task, redelivered late, sends nothing
    assert len(mail.outbox) == 1


def fill_the_game(game, alice, bob, charlie) -> None:
    services.game_join(game=game, user=bob)  # the last seat: the game starts


def charlie_accepts(game, alice, bob, charlie) -> None:
    services.invitation_accept(invitation=Invitation.objects.get(user=charlie), user=charlie)


def charlie_declines(game, alice, bob, charlie) -> None:
    services.invitation_decline(invitation=Invitation.objects.get(user=charlie), user=charlie)


@pytest.mark.parametrize(
    ("seats", "meanwhile", "reason"),
    [
        (2, fill_the_game, "the game filled up or ended: nothing to join any more"),
        (3, charlie_accepts, "the invitation was already answered"),
        (3, charlie_declines, "the invitation was already answered"),
    ],
)
def test_the_worker_re_checks_the_invitation_before_sending(alice, bob, charlie, seats, meanwhile, reason):
    """The re-check send_invitation did after commit, now the worker's: the world moved on meanwhile."""
    game = new_game(alice, seats)
    services.invitation_create(game=game, invited_by=alice, username="charlie")  # the worker is slow today
    meanwhile(game, alice, bob, charlie)
    row = Notification.objects.get(kind=Kind.INVITATION)
    assert delivery.deliver(row.pk) == Outcome.SKIPPED
    row.refresh_from_db()
    assert row.skip_reason == reason and mail.outbox == []


@pytest.mark.parametrize(("mode", "written"), [("every_turn", True), ("digest", True), ("none", False)])
def test_an_invitee_who_is_a_user_is_asked_like_any_player(alice, bob, game, mode, written):
    """A digest reader gets an invitation at once (it is news, not a turn); "no email at all" means none,
    and the invitation still waits on their dashboard."""
    notify.preference_update(user=bob, mode=mode, time_zone="UTC")
    services.invitation_create(game=game, invited_by=alice, username="bob")
    assert Notification.objects.filter(kind=Kind.INVITATION).exists() == written


def test_an_invitee_who_turns_email_off_before_the_worker_comes_gets_nothing(alice, bob, game):
    services.invitation_create(game=game, invited_by=alice, username="bob")
    notify.unsubscribe(user=bob)
    row = Notification.objects.get()
    assert delivery.deliver(row.pk) == Outcome.SKIPPED and mail.outbox == []


def test_only_an_invitee_with_an_account_gets_an_unsubscribe_link(alice, bob, game, settings):
    """An address that is nobody's account gets a one-off: nothing to unsubscribe from. Both carry one
    Message-ID per row, so a second copy after a crash reads as the same message."""
    for who in ({"username": "bob"}, {"email": "pal@example.org"}):
        services.invitation_create(game=game, invited_by=alice, **who)
    for row in Notification.objects.order_by("pk"):
        assert delivery.deliver(row.pk) == Outcome.SENT
    to_bob, to_pal = mail.outbox
    assert to_bob.to == ["bob@example.com"] and to_pal.to == ["pal@example.org"]
    assert "List-Unsubscribe" in to_bob.extra_headers and "List-Unsubscribe" not in to_pal.extra_headers
    assert to_pal.extra_headers["Message-ID"].startswith("<notification.")


def test_operators_see_a_failed_invitation_and_can_send_it_again(
    alice, game, admin_client, eager, refusing, django_capture_on_commit_callbacks
):
    services.invitation_create(game=game, invited_by=alice, email="pal@example.org")
    row = Notification.objects.get()
    refusing(1, smtplib.SMTPRecipientsRefused({"pal@example.org": (550, b"5.1.1 no such user")}))
    deliver.delay(row.pk)
    page = admin_client.get("/admin/notifications/notification/?status__exact=failed&q=pal@example.org")
    assert page.status_code == 200 and f"/admin/notifications/notification/{row.pk}/change/" in page.text
    assert "no such user" in admin_client.get(f"/admin/notifications/notification/{row.pk}/change/").text
    with django_capture_on_commit_callbacks(execute=True):
        admin_client.post("/admin/notifications/notification/", {"action": "send_again", "_selected_action": [row.pk]})
    row.refresh_from_db()
    assert row.status == Status.SENT and [m.to for m in mail.outbox] == [["pal@example.org"]]

"""The three ways mail comes in, end to end: replies built with the email package and sent with smtplib
to the running SMTP receiver (loopback), a message piped to `manage.py receive_email`, and a provider's
webhook through django-anymail. Zark City and Deck Town games."""

from __future__ import annotations

import base64
import io
import json
import smtplib
import socket
import sys
import time

import pytest
from django.core import mail
from django.core.management import call_command
from django.core.management.base import CommandError

from engine import registry
from engine.kit.core import Sealed
from games.models import Game
from replies.models import InboundMessage
from replies.receiver import controller
from tests.replies import mails
from tests.replies.helpers import answers_to, legal, mover, play_until, reply_address, start


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def receiver(eager, settings):
    """The SMTP receiver on a free loopback port; handling runs eagerly in its thread."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    port = _free_port()
    running = controller("127.0.0.1", port)
    running.start()
    yield port
    running.stop()


def _send(port: int, raw: bytes, sender: str, to: str) -> None:
    with smtplib.SMTP("127.0.0.1", port, timeout=20) as smtp:
        smtp.sendmail(sender, [to], raw)


def _wait_for(predicate, seconds: float = 10.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError("timed out")


def _ready(game_id: str, alice, bob) -> Game:
    return play_until(start(game_id, alice, bob), "act")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("client", sorted(mails.CLIENTS))
def test_a_reply_over_smtp_makes_the_move_in_zark_city(receiver, alice, bob, client):
    game = _ready("zarkcity", alice, bob)
    user = game.seats.get(colour=mover(game)).user
    to = reply_address(game, user)
    raw = mails.CLIENTS[client]("draw", sender=user.email, to=to)
    ply = game.ply
    _send(receiver, raw, user.email, to)
    _wait_for(lambda: answers_to(raw))
    game.refresh_from_db()
    assert game.moves.get(ply=ply).notation == "draw"
    assert InboundMessage.objects.get().source == "smtp"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("client", ["gmail", "outlook"])
def test_a_reply_over_smtp_makes_the_move_in_deck_town(receiver, alice, bob, client):
    game = start("decktown", alice, bob)
    to = reply_address(game, bob)
    choice = legal(game, "yellow")[0]
    raw = mails.CLIENTS[client](choice.lower(), sender=bob.email, to=to, subject="Deck Town #1: your turn")
    _send(receiver, raw, bob.email, to)
    _wait_for(lambda: answers_to(raw))
    assert game.commitments.get().notation == choice  # a sealed starter, until red chooses too
    (answer,) = answers_to(raw)
    assert "Played" in answer.body and "Deck Town" in answer.body


@pytest.mark.django_db(transaction=True)
def test_a_refusal_over_smtp_leaves_the_deck_town_game_alone(receiver, alice, bob):
    game = _ready("decktown", alice, bob)
    user = game.seats.get(colour=mover(game)).user
    to = reply_address(game, user)
    raw = mails.apple("fly 9,9 8,8 pay KK", sender=user.email, to=to)
    ply = game.ply
    _send(receiver, raw, user.email, to)
    _wait_for(lambda: answers_to(raw))
    game.refresh_from_db()
    assert game.ply == ply and "was not played" in answers_to(raw)[0].body


@pytest.mark.django_db(transaction=True)
def test_the_receiver_refuses_other_addresses_and_big_messages(receiver, alice, bob, settings):
    game = start("zarkcity", alice, bob)
    to = reply_address(game, bob)
    with pytest.raises(smtplib.SMTPRecipientsRefused):
        _send(receiver, mails.gmail("draw", sender=bob.email, to="alice@example.com"), bob.email, "alice@example.com")
    big = mails.gmail("draw\n" + "x" * (settings.REPLIES_MAX_MESSAGE_BYTES + 10), sender=bob.email, to=to)
    with pytest.raises((smtplib.SMTPDataError, smtplib.SMTPSenderRefused, smtplib.SMTPServerDisconnected)):
        _send(receiver, big, bob.email, to)
    assert not InboundMessage.objects.exists() and game.moves.count() == 0


@pytest.mark.django_db(transaction=True)
def test_an_auto_reply_over_smtp_gets_nothing(receiver, alice, bob):
    game = start("zarkcity", alice, bob)
    to = reply_address(game, bob)
    raw = mails.auto_reply(sender=bob.email, to=to, headers={"Auto-Submitted": "auto-replied"})
    sent = len(mail.outbox)
    _send(receiver, raw, bob.email, to)
    _wait_for(lambda: InboundMessage.objects.filter(outcome="auto-reply").exists())
    assert len(mail.outbox) == sent and game.moves.count() == 0


def test_receive_email_reads_one_message_on_stdin(
    alice, bob, eager, settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    game = start("zarkcity", alice, bob)
    to = reply_address(game, bob)
    choice = legal(game, "yellow")[0]
    raw = mails.thunderbird(choice, sender=bob.email, to=to)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    out = io.StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("receive_email", "--recipient", to, stdout=out)
    assert out.getvalue().startswith("queued")
    assert game.commitments.get().notation == choice and len(answers_to(raw)) == 1
    assert InboundMessage.objects.get().source == "pipe"


def test_receive_email_refuses_a_message_over_the_limit(db, settings, monkeypatch):
    settings.REPLIES_MAX_MESSAGE_BYTES = 100
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"Subject: x\n\n" + b"y" * 200)))
    with pytest.raises(CommandError) as refused:
        call_command("receive_email", stdout=io.StringIO(), stderr=io.StringIO())
    assert refused.value.returncode == 69 and not InboundMessage.objects.exists()


def test_a_provider_webhook_delivers_the_reply(client, alice, bob, eager, settings, django_capture_on_commit_callbacks):
    """Postmark's inbound JSON with the raw message, checked by anymail's basic auth."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.ANYMAIL = {"WEBHOOK_SECRET": "hook:secret"}
    game = start("zarkcity", alice, bob)
    to = reply_address(game, bob)
    choice = legal(game, "yellow")[0]
    raw = mails.gmail(choice, sender=bob.email, to=to)
    payload = {"RawEmail": raw.decode(), "OriginalRecipient": to, "From": bob.email, "MessageStream": "inbound"}
    url = "/email/inbound/postmark/inbound/"
    denied = client.post(url, json.dumps(payload), content_type="application/json")
    assert denied.status_code == 400 and not InboundMessage.objects.exists()
    auth = "Basic " + base64.b64encode(b"hook:secret").decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, json.dumps(payload), content_type="application/json", HTTP_AUTHORIZATION=auth)
    assert response.status_code == 200
    assert game.commitments.get().notation == choice and len(answers_to(raw)) == 1
    assert InboundMessage.objects.get().source == "webhook:postmark"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game_id", registry.ids())
def test_every_game_takes_its_first_move_by_reply_over_smtp(receiver, alice, bob, game_id):
    """Whatever the registry holds (Zark City, Deck Town, Martian Chess...): the mover's first legal
    move, typed in upper case in an Outlook reply, is played."""
    game = start(game_id, alice, bob)
    colour = mover(game)
    user = game.seats.get(colour=colour).user
    to = reply_address(game, user)
    move = legal(game, colour)[0]
    raw = mails.outlook(move.upper(), sender=user.email, to=to, subject=f"{game.rules.info.name} #1: your turn")
    _send(receiver, raw, user.email, to)
    _wait_for(lambda: answers_to(raw))
    # A starter is held as a commitment until the other seat chooses too (a sealed step).
    sealed = isinstance(game.rules, Sealed) and bool(game.rules.sealed_seats(game.rules.from_position(game.snapshot)))
    assert [row.notation for row in (game.commitments.all() if sealed else game.moves.all())] == [move]
    assert game.rules.info.name in answers_to(raw)[0].body

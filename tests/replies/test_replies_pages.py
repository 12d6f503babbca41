"""The pages and the turn emails: the Reply-To a turn email carries, the reply-to-play switch on the
notification settings page, and the dev mailbox's reply form (the whole loop on a laptop)."""

from __future__ import annotations

from email import message_from_bytes
from pathlib import Path

import pytest
from django.core import mail

from replies import addresses
from replies.models import ReplySetting, ReplyToken
from tests.conftest import PASSWORD
from tests.replies.helpers import legal, start


@pytest.fixture
def outbox(eager, settings, django_capture_on_commit_callbacks):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    return django_capture_on_commit_callbacks


def test_a_turn_email_carries_a_reply_address_for_that_player_and_turn(outbox, alice, bob):
    with outbox(execute=True):
        game = start("zarkcity", alice, bob)
    started = {m.to[0].split("<")[-1].rstrip(">"): m for m in mail.outbox}
    to_bob = started[bob.email].reply_to
    assert len(to_bob) == 1 and addresses.token_in(to_bob) and to_bob != started[alice.email].reply_to
    token = ReplyToken.objects.get(token=addresses.token_in(to_bob))
    assert (token.seat.user, token.ply, token.game) == (bob, game.ply, game)
    assert "Reply to this email" in started[bob.email].body


def test_no_reply_address_when_turned_off(outbox, alice, bob):
    ReplySetting.objects.create(user=bob, enabled=False)
    with outbox(execute=True):
        start("zarkcity", alice, bob)
    to_bob = next(m for m in mail.outbox if bob.email in m.to[0])
    assert to_bob.reply_to == []


def test_the_switch_on_the_settings_page(client, bob):
    client.login(username="bob", password=PASSWORD)
    page = client.get("/notifications/settings/")
    assert b"Moves by email" in page.content
    client.post("/notifications/email-moves/", {})
    assert ReplySetting.objects.get(user=bob).enabled is False
    client.post("/notifications/email-moves/", {"enabled": "on"})
    assert ReplySetting.objects.get(user=bob).enabled is True


def test_the_switch_needs_a_login(client, db):
    assert client.post("/notifications/email-moves/", {}).status_code == 302
    assert not ReplySetting.objects.exists()


def test_the_dev_mailbox_replies_to_a_turn_email(client, alice, bob, eager, settings, tmp_path):
    """A developer answers bob's "game started" email from the browser; the move is played and the
    answer lands in the same mailbox."""
    settings.DEBUG = True
    settings.EMAIL_BACKEND = "notifications.backends.DevMailboxBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    alice.is_staff = True
    alice.save()

    game = _started_with_mail(alice, bob)
    letter = next(p for p in sorted(Path(tmp_path).glob("*.eml")) if bob.email in _header(p, "To"))
    choice = legal(game, "yellow")[0]
    client.login(username="alice", password=PASSWORD)
    page = client.get(f"/dev/mail/{letter.name}/")
    assert b"Reply as the recipient" in page.content
    from django.test import TestCase

    with TestCase.captureOnCommitCallbacks(execute=True):  # the worker's part: handle, then answer
        response = client.post(f"/dev/mail/{letter.name}/reply/", {"text": choice})
    assert response.status_code == 302
    assert game.commitments.get().notation == choice  # a sealed starter, until the other seat chooses
    answers = [p for p in Path(tmp_path).glob("*.eml") if _header(p, "Auto-Submitted") == "auto-replied"]
    assert len(answers) == 1 and "Played" in answers[0].read_text()


def test_the_dev_reply_form_is_for_staff_in_development_only(client, alice, settings):
    settings.DEBUG = True
    client.login(username="alice", password=PASSWORD)
    assert client.post("/dev/mail/x.eml/reply/", {"text": "draw"}).status_code == 404


def _started_with_mail(alice, bob):
    from django.test import TestCase

    with TestCase.captureOnCommitCallbacks(execute=True):
        return start("zarkcity", alice, bob)


def _header(path: Path, name: str) -> str:
    return str(message_from_bytes(path.read_bytes()).get(name, ""))

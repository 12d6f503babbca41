"""Replies no mail program writes, each answered rather than lost: a NUL in a header (PostgreSQL's
text columns refuse it: it could not even be stored), a NUL in the text, a MIME tree nested thousands
of levels deep (the parser recurses). Through `manage.py receive_email` and the SMTP receiver; on
PostgreSQL too (CI runs the suite there)."""

from __future__ import annotations

import io
import smtplib
import sys

import pytest
from django.core import mail
from django.core.management import call_command

from replies.models import InboundMessage
from replies.reading import NUL_HEADER, NUL_TEXT, TOO_DEEP
from replies.receiver import controller
from tests.replies import mails
from tests.replies.helpers import legal, reply_address, snapshot, start
from tests.replies.test_replies_transports import _free_port, _wait_for


def nul_in_headers(raw: bytes) -> bytes:
    return raw.replace(b"Subject: Re:", b"Subject: Re:\x00", 1).replace(b"Message-ID: <", b"Message-ID: <\x00", 1)


def nested(depth: int, *, sender: str, to: str, move: str) -> bytes:
    """A reply whose text part sits inside `depth` multipart containers."""
    part = f"Content-Type: text/plain\r\n\r\n{move}\r\n".encode()
    for level in range(depth):
        boundary = f"b{level}".encode()
        part = (
            b'Content-Type: multipart/mixed; boundary="' + boundary + b'"\r\n\r\n--' + boundary + b"\r\n"
            + part + b"\r\n--" + boundary + b"--\r\n"
        )  # fmt: skip
    head = f"From: {sender}\r\nTo: {to}\r\nSubject: Re: your turn\r\nMessage-ID: <deep@mail.example.com>\r\n"
    return head.encode() + b"MIME-Version: 1.0\r\n" + part


def pipe(raw: bytes, to: str, monkeypatch) -> str:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    out = io.StringIO()
    call_command("receive_email", "--recipient", to, stdout=out)
    return out.getvalue()


@pytest.fixture
def game(alice, bob, eager, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    return start("zarkcity", alice, bob)


@pytest.mark.parametrize(
    "build, why",
    [
        (lambda move, bob, to: nul_in_headers(mails.gmail(move, sender=bob.email, to=to)), NUL_HEADER),
        (lambda move, bob, to: mails.gmail(move + "\x00", sender=bob.email, to=to), NUL_TEXT),
        (lambda move, bob, to: mails.gmail(move + "\n-- \n\x00", sender=bob.email, to=to), NUL_TEXT),
        (lambda move, bob, to: nested(3000, sender=bob.email, to=to, move=move), TOO_DEEP),
    ],
    ids=["nul in subject and message-id", "nul in the text", "nul under the signature", "nested 3000 deep"],
)
def test_an_unreadable_reply_is_stored_and_answered_and_plays_nothing(
    game, bob, monkeypatch, django_capture_on_commit_callbacks, build, why
):
    to = reply_address(game, bob)
    raw = build(legal(game, "yellow")[0], bob, to)
    before = snapshot(game)
    with django_capture_on_commit_callbacks(execute=True):
        assert pipe(raw, to, monkeypatch).startswith("queued")
    row = InboundMessage.objects.get()
    assert (row.outcome, row.note) == ("unreadable", why)
    answer = mail.outbox[-1]
    assert answer.to == [bob.email] and "Nothing was played" in answer.body and why in answer.body
    assert "\x00" not in answer.subject + answer.extra_headers.get("In-Reply-To", "")
    assert snapshot(game) == before


@pytest.mark.django_db(transaction=True)
def test_the_smtp_receiver_takes_a_reply_with_a_nul_in_its_headers(alice, bob, eager, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    game = start("zarkcity", alice, bob)
    to = reply_address(game, bob)
    raw = nul_in_headers(mails.gmail(legal(game, "yellow")[0], sender=bob.email, to=to))
    port = _free_port()
    running = controller("127.0.0.1", port)
    running.start()
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=20) as smtp:
            smtp.sendmail(bob.email, [to], raw)  # a 451 would raise SMTPDataError
        _wait_for(lambda: InboundMessage.objects.filter(outcome="unreadable").exists())
    finally:
        running.stop()
    assert "\x00" not in InboundMessage.objects.get().subject

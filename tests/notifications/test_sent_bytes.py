"""What the worker sends for a turn email (envelope and DATA, through outgoing.QuickDataBackend, emails.Message's
one-pass writer and quick folding) is, to the byte, what Django's stock SMTP backend on smtplib's own session
sends for the same email built Django's stock way: the MIME boundaries and the Date aside, which are new
for every email."""

from __future__ import annotations

import copy
import re
import smtplib

import pytest
from django.core.mail import EmailMultiAlternatives
from django.core.mail.backends import smtp

from accounts.services import profile_update
from notifications import delivery, emails, outgoing
from notifications.models import Notification
from tests.notifications.helpers import play_setup, play_turn, start_game

pytestmark = pytest.mark.django_db


class Wire:
    """A session that sends nowhere: it notes every command with its arguments and every byte of DATA."""

    def __init__(self) -> None:
        super().__init__()  # smtplib's, with no host: not connected
        self.ehlo_resp = b"ok"  # greeted already: sendmail goes straight to MAIL FROM
        self.wire: list[bytes] = []

    def putcmd(self, cmd, args=""):
        self.wire.append(f"{cmd} {args}\r\n".encode())

    def send(self, s):
        self.wire.append(s)

    def getreply(self):
        return (354, b"go ahead") if self.wire[-1] == b"data \r\n" else (250, b"OK")


class StockWire(Wire, smtplib.SMTP):
    pass


class QuickWire(Wire, outgoing._QuickData):
    pass


def sent(backend, session: Wire, message) -> bytes:
    backend.connection = session  # open already: send_messages sends on it and leaves it open
    assert backend.send_messages([message]) == 1
    return b"".join(session.wire)


def stock_way(message: emails.Message) -> EmailMultiAlternatives:
    """The same email as Django builds and writes it: its own MIME classes, Python's writer and folding."""
    stock = copy.copy(message)
    stock.__class__ = EmailMultiAlternatives
    return stock


def steady(wire: bytes) -> bytes:
    """The bytes without what is new for every email: each boundary (in order of first use), the Date."""
    wire = re.sub(rb"\r\nDate: [^\r]*", b"\r\nDate: -", wire)
    for number, boundary in enumerate(dict.fromkeys(re.findall(rb'boundary="([^"]+)"', wire))):
        wire = wire.replace(boundary, b"BOUNDARY%d" % number)
    return wire


SUBJECTS = [
    None,  # the turn email's own
    "Zark City #7: Zoë built 7H at 1,2 and took the last medium pyramid, Ångström's turn — place your starter",
    "Zark City #7: " + "a long subject in plain words that Python folds at its spaces " * 3,
]


@pytest.fixture
def turn_emails(alice, bob, charlie):
    profile_update(user=alice, display_name="Zoë Ångström")
    profile_update(user=bob, display_name="Łukasz")
    profile_update(user=charlie, display_name="Chloé")
    built = []
    for players in ((alice, bob), (bob, charlie), (charlie, alice, bob)):
        game = start_game(*players)
        play_setup(game)
        for _ in range(2):
            play_turn(game)
            row = Notification.objects.filter(kind=Notification.Kind.YOUR_TURN).latest("pk")
            built.append(emails.build_message(delivery.CLAIMED_READ.get(pk=row.pk)))
    return built


@pytest.mark.parametrize("subject", SUBJECTS)
def test_a_turn_email_goes_out_as_djangos_stock_backend_sends_it(turn_emails, subject):
    quick, stock = outgoing.QuickDataBackend(), smtp.EmailBackend()
    for message in turn_emails:
        if subject is not None:
            message.subject = subject
        quick_wire = sent(quick, QuickWire(), message)
        stock_wire = sent(stock, StockWire(), stock_way(message))
        assert steady(quick_wire) == steady(stock_wire)
        assert b"Content-Type: image/png" in quick_wire and b"Content-Type: text/html" in quick_wire
        assert b"\r\nTo: =?utf-8?" in quick_wire  # the player's name in an encoded word
        assert quick_wire.count(b"boundary=") == 2  # related around alternative: the board and both parts
    if subject is not None:
        assert re.search(rb"\r\nSubject: [^\r]*\r\n [^\r]", quick_wire)  # folded onto a second line

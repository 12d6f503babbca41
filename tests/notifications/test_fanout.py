"""What makes the worker fast without changing what goes out: the board drawn once per move and shared
(only by emails whose picture is the same to the byte), one read of the table per email, and one SMTP
connection kept open from one email to the next, with every email still sent once and in order."""

from __future__ import annotations

import logging
import smtplib
import socket
import threading
import time
from datetime import timedelta
from email import message_from_bytes
from email.mime.image import MIMEImage

import pytest
from aiosmtpd.controller import Controller
from django.core import mail
from django.utils import timezone

from games import services
from notifications import delivery, outgoing, pictures
from notifications.delivery import Outcome
from notifications.models import Away, Notification
from replies.models import ReplyToken
from tests.notifications.helpers import play_setup, play_turn, start_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager")]
Kind, Status = Notification.Kind, Notification.Status


@pytest.fixture
def picture_cache(settings):
    """A cache of this test's own, so no picture drawn by another test is found in it."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "fanout"}}


@pytest.fixture
def drawings(monkeypatch):
    """Every SVG the worker drew as a PNG."""
    drawn: list[str] = []
    real = pictures.draw
    monkeypatch.setattr(pictures, "draw", lambda svg: drawn.append(svg) or real(svg))
    return drawn


def picture_of(message) -> bytes:
    [image] = [part for part in message.attachments if isinstance(part, MIMEImage)]
    return image.get_payload(decode=True)


# ----------------------------------------------------------------------------- the board, drawn once


def test_the_end_of_a_game_draws_its_board_once_for_every_player(
    alice, bob, charlie, picture_cache, drawings, django_capture_on_commit_callbacks
):
    game = start_game(alice, bob, charlie)
    play_setup(game)
    with django_capture_on_commit_callbacks(execute=True):
        services.player_resign(game=game, user=alice)
    drawings.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.player_resign(game=game, user=bob)
    over = [m for m in mail.outbox if " is over: " in m.subject]
    assert len(over) == 3 and len(drawings) == 1  # three emails, one drawing
    assert len({picture_of(m) for m in over}) == 1


def test_a_turn_email_nobody_else_gets_is_drawn_and_not_kept(
    alice, bob, picture_cache, drawings, django_capture_on_commit_callbacks
):
    game = start_game(alice, bob)
    play_setup(game)
    drawings.clear()
    with django_capture_on_commit_callbacks(execute=True):
        play_turn(game)
    [email] = [m for m in mail.outbox if m.subject.endswith("your turn")]
    assert len(drawings) == 1 and picture_of(email).startswith(b"\x89PNG")
    from django.core.cache import cache

    assert cache.get("notifications:board-png:" + pictures.hashlib.sha256(drawings[0].encode()).hexdigest()) is None


def test_only_the_same_picture_is_shared(picture_cache, drawings):
    """The key is the picture itself, so an email never gets a board its own view would not draw."""
    first = '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"><rect width="20" height="10"/></svg>'
    second = first.replace('width="20" height="10"/>', 'width="10" height="10"/>')
    one, again, other = (pictures.board_png(svg, shared=True) for svg in (first, first, second))
    assert one == again and one != other and drawings == [first, second]


def test_a_cache_that_is_down_costs_a_drawing_not_the_email(settings, drawings, caplog):
    nowhere = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": nowhere}}
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>'
    with caplog.at_level(logging.WARNING):
        assert pictures.board_png(svg, shared=True).startswith(b"\x89PNG")
    assert drawings == [svg] and "picture cache" in caplog.text


# ----------------------------------------------------------------------------- one read per email


def test_a_turn_email_reads_the_table_once(
    alice, bob, charlie, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    """The claim reads the row, the recipient's name, preferences and reply-to-play setting, the game and
    its seats (with every player's name and preferences) at once; what is left are the days away for the
    clocks (1), the history (1), the reply address (its token) and the UPDATEs. It was 25 for three
    players, one per player's name and more, then 14 (the clocks 3, the reply address 6)."""
    game = start_game(alice, bob, charlie)
    play_setup(game)
    with django_capture_on_commit_callbacks(execute=False):  # written, not yet handed to the worker
        play_turn(game)
    row = Notification.objects.filter(kind=Kind.YOUR_TURN).latest("pk")
    # Inside the test's transaction the token costs a look and a savepoint around its INSERT (4); the
    # worker, outside one, asks one INSERT (test_the_worker_asks_seven_statements_for_a_turn_email).
    with django_assert_max_num_queries(10):
        assert delivery.deliver(row.pk) == Outcome.SENT


@pytest.mark.django_db(transaction=True)
def test_the_worker_asks_seven_statements_for_a_turn_email(alice, bob, charlie, django_assert_max_num_queries):
    """As the worker runs, in autocommit: the claim, the row with the table, the days away, the history,
    the token's INSERT, the UPDATE to sent; the days away only where a player at the table has some (the
    table's read says whether), so six at most tables. A second build of the same turn's email (a retry)
    carries the same reply address."""
    game = start_game(alice, bob, charlie)
    play_setup(game)
    play_turn(game)
    row = Notification.objects.filter(kind=Kind.YOUR_TURN).latest("pk")
    # The eager worker sent it already: hand it back as it was before its first build, without a token.
    Notification.objects.filter(pk=row.pk).update(status=Status.PENDING)
    ReplyToken.objects.all().delete()
    with django_assert_max_num_queries(6) as captured:
        assert delivery.deliver(row.pk) == Outcome.SENT
    assert not any(q["sql"].startswith(("SAVEPOINT", "BEGIN")) for q in captured.captured_queries)
    assert not any(q["sql"].startswith('SELECT "notifications_away".') for q in captured.captured_queries)
    first = mail.outbox[-1].reply_to
    Notification.objects.filter(pk=row.pk).update(status=Status.PENDING)
    with django_assert_max_num_queries(7):  # the INSERT finds the token there, then reads it
        assert delivery.deliver(row.pk) == Outcome.SENT
    assert mail.outbox[-1].reply_to == first and first and first[0].startswith("play+")
    today = timezone.localdate()
    Away.objects.create(user=charlie, first_day=today, last_day=today + timedelta(days=2))
    Notification.objects.filter(pk=row.pk).update(status=Status.PENDING)
    with django_assert_max_num_queries(8) as captured:  # charlie's days away, read for the clocks
        assert delivery.deliver(row.pk) == Outcome.SENT
    assert any(q["sql"].startswith('SELECT "notifications_away".') for q in captured.captured_queries)
    assert ", away until " in str(mail.outbox[-1].body)  # charlie's line among the players


# ----------------------------------------------------------------------------- one SMTP connection


class Sink:
    """A real SMTP server on 127.0.0.1 that notes each connection and each message's Message-ID."""

    def __init__(self, refuse: set[int] = frozenset(), timeout: float = 300):
        self.messages: list[str] = []
        self.contents: list[bytes] = []  # each message as the server read it, its periods unquoted
        self.connections: set[tuple] = set()
        self.refuse = refuse  # the nth messages (1-based) answered 451
        self.seen = 0
        self.lock = threading.Lock()
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port, timeout=timeout)

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's hook name)
        with self.lock:
            self.seen += 1
            self.connections.add(session.peer)
            if self.seen in self.refuse:
                return "451 4.3.0 try again later"
            self.messages.append(message_from_bytes(envelope.content)["Message-ID"])
            self.contents.append(envelope.original_content)
        return "250 OK"


@pytest.fixture
def sink(settings):
    made = []

    def start(**kwargs) -> Sink:
        server = Sink(**kwargs)
        server.controller.start()
        made.append(server)
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.port
        return server

    yield start
    outgoing.hang_up_all()
    for server in made:
        server.controller.stop()


def turn_rows(players, count: int) -> list[int]:
    """`count` your-turn rows, one per two-player game, written and not yet sent."""
    ids = []
    for _ in range(count):
        game = start_game(*players)
        play_setup(game)
        play_turn(game)
        ids.append(Notification.objects.get(game=game, kind=Kind.YOUR_TURN, ply=game.ply).pk)
    return ids


def test_a_batch_of_emails_goes_out_on_one_connection(alice, bob, sink):
    server = sink()
    ids = turn_rows((alice, bob), 4)
    assert [delivery.deliver(pk) for pk in ids] == [Outcome.SENT] * 4
    assert len(server.connections) == 1
    assert server.messages == [Notification.objects.get(pk=pk).message_id for pk in ids]  # in order


def test_a_batch_that_fails_midway_still_sends_every_email_once(alice, bob, sink, settings):
    """The third message is refused: it is retried later; the others go out once, on a new connection."""
    server = sink(refuse={3})
    ids = turn_rows((alice, bob), 5)
    outcomes = []
    for pk in ids:
        try:
            outcomes.append(delivery.deliver(pk))
        except delivery.TryAgain:
            outcomes.append("retry")
    assert outcomes == [Outcome.SENT, Outcome.SENT, "retry", Outcome.SENT, Outcome.SENT]
    assert delivery.deliver(ids[2]) == Outcome.SENT  # the task's retry, after its backoff
    assert delivery.deliver(ids[0]) == Outcome.NOT_CLAIMED  # a redelivered task sends nothing
    sent = [Notification.objects.get(pk=pk).message_id for pk in ids]
    assert sorted(server.messages) == sorted(sent) and len(set(server.messages)) == 5
    assert Notification.objects.get(pk=ids[2]).attempts == 2
    assert len(server.connections) == 2  # the refusal closed the first connection


def test_a_connection_the_server_dropped_while_idle_is_replaced(alice, bob, sink, monkeypatch):
    server = sink(timeout=0.5)  # the server hangs up on a session idle for half a second
    monkeypatch.setattr(outgoing, "IDLE_CHECK_SECONDS", 0.2)
    first, second = turn_rows((alice, bob), 2)
    assert delivery.deliver(first) == Outcome.SENT
    time.sleep(1.0)
    assert delivery.deliver(second) == Outcome.SENT  # NOOP found it gone: a new one, no failed attempt
    assert len(server.messages) == 2 and len(server.connections) == 2
    assert Notification.objects.get(pk=second).attempts == 1


def test_a_long_batch_starts_a_fresh_connection_now_and_then(alice, bob, sink, monkeypatch):
    server = sink()
    monkeypatch.setattr(outgoing, "MESSAGES_PER_CONNECTION", 2)
    ids = turn_rows((alice, bob), 5)
    assert [delivery.deliver(pk) for pk in ids] == [Outcome.SENT] * 5
    assert len(server.messages) == 5 and len(server.connections) == 3


class Recorded:
    """A session that sends nowhere: it notes what it would send and answers DATA with 354, then 250."""

    def __init__(self) -> None:
        super().__init__()  # smtplib's, with no host: not connected
        self.wire: list[bytes] = []
        self.replies = [(354, b"go ahead"), (250, b"OK")]

    def putcmd(self, cmd, args=""):
        self.wire.append(f"{cmd}\r\n".encode())

    def send(self, s):
        self.wire.append(s)

    def getreply(self):
        return self.replies.pop(0)


class StockSession(Recorded, smtplib.SMTP):
    pass


class QuickSession(Recorded, outgoing._QuickData):
    pass


@pytest.mark.parametrize(
    "message",
    [
        b"",
        b"Subject: s\r\n\r\nno period at a line's start. Not even here.\r\n",
        b"no line end",
        b"one\r\ntwo",
        b".a period first\r\n",
        b"a\r\n.a period after a line end\r\n..two\r\n",
        b"a\n.after a bare line feed",
        b"a\r.after a bare carriage return",
        "a str\n.is smtplib's\r\n",
    ],
)
def test_data_is_sent_as_smtplib_sends_it(message):
    """The DATA smtplib would send, to the byte: a message with no line starting with a period as it is,
    one with such a line quoted by smtplib itself."""
    stock, quick = StockSession(), QuickSession()
    assert quick.data(message) == stock.data(message) == (250, b"OK")
    assert quick.wire == stock.wire


def test_a_message_with_period_lines_arrives_as_written(sink, settings):
    """Through the kept session to a real server: the lines that start with a period arrive as written
    (quoted on the wire, unquoted by the server), and so does a message with none."""
    server = sink()
    for body in (".hidden\n..two\nthree.\n", "no period first\n"):
        fixed = {"Date": "Sat, 28 Nov 2026 15:00:00 -0000", "Message-ID": "<m@example.com>"}  # else new each time
        message = mail.EmailMessage(subject="s", body=body, to=["a@example.com"], headers=fixed)
        outgoing.send(message)
        assert server.contents[-1] == message.message().as_bytes(linesep="\r\n")
    assert isinstance(outgoing._line().backend, outgoing.QuickDataBackend)
    assert len(server.connections) == 1

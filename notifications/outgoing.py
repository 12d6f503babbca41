"""The worker's line to the mail server: one connection per worker thread, kept open from one email to
the next instead of a new SMTP session (TCP, greeting, EHLO, STARTTLS, AUTH, QUIT) for every email.

Servers drop idle sessions, so a connection idle for IDLE_CHECK_SECONDS is asked NOOP before it is used
again and replaced if it does not answer; after MESSAGES_PER_CONNECTION messages a fresh one is opened
(some providers end a session after so many). A send that fails closes the connection, so the next
email starts on a clean one; the failure itself goes the usual way (delivery retries the row). Nothing
is re-sent here: the claim in delivery.py stays the only thing that decides what goes out.

Any email backend works: Django's SMTP backend is the one with a session to keep (its DATA written by
QuickDataBackend, below); the others (the dev mailbox, anymail's providers, locmem in tests) are simply reused.
"""

from __future__ import annotations

import smtplib
import threading
import time
from contextlib import suppress
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.core.mail.backends import smtp
from django.core.mail.backends.base import BaseEmailBackend

IDLE_CHECK_SECONDS = 10.0
MESSAGES_PER_CONNECTION = 100

_local = threading.local()
_everyone: set[Line] = set()  # every thread's line, for closing them all when the worker stops
_everyone_lock = threading.Lock()


class Line:
    """One thread's email backend and, for SMTP, its open session."""

    def __init__(self, key: tuple[object, ...]) -> None:
        self.key = key
        self.backend: BaseEmailBackend = get_connection()
        if type(self.backend) is smtp.EmailBackend:  # the same settings, its DATA written more quickly
            self.backend = QuickDataBackend()
        self.sent = 0
        self.last_used = time.monotonic()

    def ready(self) -> None:
        session = getattr(self.backend, "connection", None)  # smtplib.SMTP while Django's backend is open
        if session is not None and (self.sent >= MESSAGES_PER_CONNECTION or not self._alive(session)):
            self.close()
        if self.backend.open():  # True: a new session was opened
            self.sent = 0

    def _alive(self, session: smtplib.SMTP) -> bool:
        if time.monotonic() - self.last_used < IDLE_CHECK_SECONDS:
            return True  # used a moment ago: asking would cost a round trip per email
        try:
            return session.noop()[0] == 250
        except (smtplib.SMTPException, OSError):
            return False

    def send(self, message: EmailMessage) -> None:
        try:
            self.ready()
            self.backend.send_messages([message])
        except Exception:
            self.close()  # whatever state the session is in, the next email gets a fresh one
            raise
        self.sent += 1
        self.last_used = time.monotonic()

    def close(self) -> None:
        with suppress(Exception):  # a session the server already dropped cannot even say QUIT
            self.backend.close()
        self.sent = 0


class _QuickData(smtplib.SMTP):
    """smtplib's session, but DATA sends a message in which no line starts with a period as it is.
    smtplib doubles such periods (RFC 5321 4.5.2) with a multi-line regular expression that tries every
    byte of the message: 0.34 ms of CPU for a 70 KB turn email (the board's base64), in which no line ever
    starts with one (base64 has no period; the text and HTML parts have their own). A message with such
    a line is quoted by smtplib as before."""

    def data(self, msg: Any) -> tuple[int, bytes]:
        if not isinstance(msg, bytes) or msg.startswith(b".") or b"\n." in msg:  # a line to quote
            return super().data(msg)
        self.putcmd("data")
        code, reply = self.getreply()
        if code != 354:
            raise smtplib.SMTPDataError(code, reply)
        end = b".\r\n" if msg.endswith(b"\r\n") else b"\r\n.\r\n"  # smtplib's ending: CRLF, period, CRLF
        self.send(msg + end)
        return self.getreply()


class _QuickDataSSL(_QuickData, smtplib.SMTP_SSL):
    """The same over TLS from the first byte (EMAIL_USE_SSL)."""


class QuickDataBackend(smtp.EmailBackend):
    """Django's SMTP backend, on a session whose DATA is _QuickData's."""

    @property
    def connection_class(self) -> type[smtplib.SMTP]:
        return _QuickDataSSL if self.use_ssl else _QuickData


def _key() -> tuple[object, ...]:
    """What the connection depends on: when the settings change (a test, a reload), a new one is made."""
    return (settings.EMAIL_BACKEND, settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_HOST_USER)


def _line() -> Line:
    line: Line | None = getattr(_local, "line", None)
    if line is None or line.key != _key():
        if line is not None:
            hang_up(line)
        line = _local.line = Line(_key())
        with _everyone_lock:
            _everyone.add(line)
    return line


def send(message: EmailMessage) -> None:
    """Send one message on this thread's open connection (opened, checked or replaced as needed)."""
    _line().send(message)


def hang_up(line: Line) -> None:
    line.close()
    with _everyone_lock:
        _everyone.discard(line)


def hang_up_all() -> None:
    """The worker is stopping: say QUIT on every open session instead of just dropping it. (A thread
    that sends again afterwards opens a new one.)"""
    with _everyone_lock:
        lines = list(_everyone)
    for line in lines:
        line.close()

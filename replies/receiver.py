"""The SMTP receiver (aiosmtpd) for servers that take the domain's mail themselves: it accepts mail only
for our reply addresses, refuses what is over REPLIES_MAX_MESSAGE_BYTES (552), and hands each message
to inbox.inbound_accept in a worker thread (the ORM is synchronous)."""

from __future__ import annotations

import asyncio
import logging

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from django.conf import settings
from django.db import connections

from . import addresses, inbox

log = logging.getLogger(__name__)


class InboundHandler:
    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, rcpt_options: list[str]
    ) -> str:
        if not addresses.is_ours(address):
            return "550 5.1.1 No such mailbox here: this server only takes replies to zarkcity's turn emails"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or (envelope.content if isinstance(envelope.content, bytes) else b"")
        if len(raw) > settings.REPLIES_MAX_MESSAGE_BYTES:
            return "552 5.3.4 Message too big for a reply"
        try:
            accepted, _ = await asyncio.to_thread(_accept, raw, list(envelope.rcpt_tos), envelope.mail_from or "")
        except Exception:
            log.exception("could not store an incoming message")
            return "451 4.3.0 Could not store the message now: try again later"
        if accepted == inbox.Accepted.TOO_BIG:
            return "552 5.3.4 Message too big for a reply"
        return "250 Message accepted"


def _accept(raw: bytes, recipients: list[str], mail_from: str) -> tuple[inbox.Accepted, int | None]:
    try:
        return inbox.inbound_accept(raw=raw, source="smtp", envelope_to=recipients, envelope_from=mail_from)
    finally:
        # This pool thread's own connection: closed, not left open between messages (or across a restart
        # of the database, or a test database being dropped).
        connections.close_all()


def controller(host: str, port: int) -> Controller:
    """A receiver on host:port, not started (start() runs it in a thread; stop() ends it)."""
    return Controller(
        InboundHandler(),
        hostname=host,
        port=port,
        data_size_limit=settings.REPLIES_MAX_MESSAGE_BYTES,
        server_hostname=settings.REPLIES_DOMAIN,
        ident="zarkcity",
    )

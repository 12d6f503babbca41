"""Mail coming in: every way a message reaches us (the pipe, the SMTP receiver, a webhook, the dev
mailbox) ends in inbound_accept, which stores it and queues its handling (replies.tasks.handle) after
commit. Apart from replies.services, which the handling uses: the handling's task cannot import the
module that queues it."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable
from email.message import Message
from email.parser import BytesHeaderParser
from enum import StrEnum

from django.conf import settings
from django.db import IntegrityError, transaction

from .models import InboundMessage
from .reading import sender_of
from .services import queue
from .tasks import handle

log = logging.getLogger(__name__)


class Accepted(StrEnum):
    QUEUED = "queued"
    DUPLICATE = "duplicate"  # the same Message-ID came before: handled once
    TOO_BIG = "too big"


def inbound_accept(
    *, raw: bytes, source: str, envelope_to: Iterable[str] = (), envelope_from: str = ""
) -> tuple[Accepted, int | None]:
    """Store one message and queue its handling after commit. Every way mail comes in ends here."""
    if len(raw) > settings.REPLIES_MAX_MESSAGE_BYTES:
        log.info("refused a %s-byte message from %s (limit %s)", len(raw), source, settings.REPLIES_MAX_MESSAGE_BYTES)
        return Accepted.TOO_BIG, None
    headers = BytesHeaderParser().parsebytes(raw)
    try:
        row = _store(raw, headers, source, list(envelope_to), envelope_from)
    except IntegrityError:
        return Accepted.DUPLICATE, None  # a second delivery of a message we have: the first is handled
    return Accepted.QUEUED, row.pk


def _store(raw: bytes, headers: Message, source: str, envelope_to: list[str], envelope_from: str) -> InboundMessage:
    with transaction.atomic():
        row = InboundMessage.objects.create(
            message_key=message_key(raw, headers),
            source=source[:20],
            sender=_from(headers) or envelope_from.lower()[:254],
            recipients=_storable("\n".join(envelope_to))[:2000],
            subject=_storable(str(headers.get("Subject", "")))[:200],
            size=len(raw),
            raw=raw,
        )
        transaction.on_commit(lambda: queue(handle, row.pk))
    return row


def message_key(raw: bytes, headers: Message) -> str:
    """The Message-ID (what a second delivery of the same message shares), else a hash of the bytes."""
    message_id = " ".join(_storable(str(headers.get("Message-ID", ""))).split())
    return message_id[:255] if message_id else "sha256:" + hashlib.sha256(raw).hexdigest()


def _storable(text: str) -> str:
    """A header's text for a text column: PostgreSQL's refuse a NUL, and the message must be stored to
    be answered (handling tells the sender that such a header cannot be read)."""
    return text.replace("\x00", "")


def _from(headers: Message) -> str:
    return sender_of(headers)[:254]

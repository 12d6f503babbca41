"""Writes: a message coming in (from the pipe, the SMTP receiver, a webhook or the dev mailbox), the
reply addresses turn emails carry, the reply-to-play setting, and sending the answers we owe."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable
from datetime import timedelta
from email.mime.image import MIMEImage
from email.parser import BytesHeaderParser
from enum import StrEnum
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from games.models import Game, Seat
from notifications import pictures

from . import addresses, selectors
from .models import InboundMessage, ReplySetting, ReplyToken

log = logging.getLogger(__name__)
Answer = InboundMessage.Answer
# The turn emails that ask the recipient for a move (notifications' kinds): these carry a reply address.
TURN_KINDS = {"your_turn", "game_started", "reminder_50", "reminder_80"}


class Accepted(StrEnum):
    QUEUED = "queued"
    DUPLICATE = "duplicate"  # the same Message-ID came before: handled once
    TOO_BIG = "too big"


# ----------------------------------------------------------------------------- mail coming in


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


def _store(raw: bytes, headers, source: str, envelope_to: list[str], envelope_from: str) -> InboundMessage:
    from . import tasks

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
        transaction.on_commit(lambda: queue(tasks.handle, row.pk))
    return row


def message_key(raw: bytes, headers) -> str:
    """The Message-ID (what a second delivery of the same message shares), else a hash of the bytes."""
    message_id = " ".join(_storable(str(headers.get("Message-ID", ""))).split())
    return message_id[:255] if message_id else "sha256:" + hashlib.sha256(raw).hexdigest()


def _storable(text: str) -> str:
    """A header's text for a text column: PostgreSQL's refuse a NUL, and the message must be stored to
    be answered (handling tells the sender that such a header cannot be read)."""
    return text.replace("\x00", "")


def _from(headers) -> str:
    from .reading import sender_of

    return sender_of(headers)[:254]


def queue(task, *args) -> None:
    """Hand a task to the broker; if the broker is down the row stays queued and the sweep retries."""
    try:
        task.delay(*args)
    except Exception:
        log.exception("could not queue %s%s: the sweep will", task.name, args)


# ----------------------------------------------------------------------------- addresses in turn emails


def turn_reply_address(*, game: Game, user, kind: str = "your_turn", seat: Seat | None = None) -> str | None:
    """The Reply-To of a turn email: play+TOKEN@domain for this player, game and turn, or None when the
    email asks for no move now, or the player turned reply-to-play off.

    `seat`: the player's seat, if the caller read it already (the notifications worker reads the table
    with the outbox row, and the recipient's reply setting with them): then only the token is asked for."""
    if kind not in TURN_KINDS or user is None:
        return None
    if seat is None:
        seat = game.seats.filter(user=user).first()
    if seat is None or not selectors.is_mover(game, seat) or not selectors.reply_enabled(user):
        return None
    return addresses.address(token_for(seat=seat, ply=game.ply).token)


def token_for(*, seat: Seat, ply: int, purpose: str = ReplyToken.Purpose.MOVE) -> ReplyToken:
    """The seat's address for this ply (the same one however often the email is built).

    Outside a transaction (the notifications worker, which builds an email's address once) it is one
    INSERT; a seat that has its token for this ply already (a retried email, or another worker building
    the same one at the same moment) makes it fail on the unique constraint, and the row is read instead.
    Inside one (handling a reply) the row is looked for first and the INSERT is under a savepoint, so a
    conflict cannot spoil the caller's transaction."""
    if not transaction.get_connection().in_atomic_block:
        try:
            return ReplyToken.objects.create(
                token=addresses.new_token(), game_id=seat.game_id, seat=seat, ply=ply, purpose=purpose
            )
        except IntegrityError:
            return ReplyToken.objects.get(seat=seat, ply=ply, purpose=purpose)
    existing = ReplyToken.objects.filter(seat=seat, ply=ply, purpose=purpose).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            return ReplyToken.objects.create(
                token=addresses.new_token(), game_id=seat.game_id, seat=seat, ply=ply, purpose=purpose
            )
    except IntegrityError:  # another worker built the same email at the same moment
        return ReplyToken.objects.get(seat=seat, ply=ply, purpose=purpose)


def reply_setting_update(*, user, enabled: bool) -> ReplySetting:
    setting, _ = ReplySetting.objects.update_or_create(user=user, defaults={"enabled": enabled})
    return setting


# ----------------------------------------------------------------------------- answers going out


def answer_send(*, inbound_id: int) -> str:
    """Send the answer stored with a handled message, once (a conditional UPDATE claims it)."""
    won = InboundMessage.objects.filter(pk=inbound_id, answer_status__in=[Answer.PENDING]).update(
        answer_status=Answer.SENDING, answer_attempts=F("answer_attempts") + 1, answer_claimed_at=timezone.now()
    )
    if not won:
        return "not claimed"
    row = InboundMessage.objects.get(pk=inbound_id)
    try:
        _message(row).send()
    except Exception:
        failed = row.answer_attempts >= settings.REPLIES_ANSWER_ATTEMPTS
        InboundMessage.objects.filter(pk=row.pk).update(answer_status=Answer.FAILED if failed else Answer.PENDING)
        raise
    InboundMessage.objects.filter(pk=row.pk).update(answer_status=Answer.SENT, answered_at=timezone.now())
    return "sent"


def _message(row: InboundMessage) -> EmailMultiAlternatives:
    stored = row.answer or {}
    host = urlsplit(settings.SITE_URL).hostname or "localhost"
    headers = {
        "Message-ID": f"<reply.{row.pk}@{host}>",
        "Auto-Submitted": "auto-replied",  # RFC 3834: robots must not answer this
        "X-Auto-Response-Suppress": "All",  # the same, in Exchange's words
    }
    if stored.get("in_reply_to"):
        headers["In-Reply-To"] = headers["References"] = stored["in_reply_to"]
    message = EmailMultiAlternatives(
        subject=stored["subject"],
        body=stored["text"],
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[stored["to"]],
        reply_to=[stored["reply_to"]] if stored.get("reply_to") else None,
        headers=headers,
    )
    message.attach_alternative(stored["html"], "text/html")
    png = _png(stored.get("board_svg", ""))
    if png:
        message.mixed_subtype = "related"
        image = MIMEImage(png, "png")
        image.add_header("Content-ID", "<board>")
        image.add_header("Content-Disposition", "inline", filename="board.png")
        message.attach(image)
    return message


def _png(svg: str) -> bytes | None:
    return pictures.draw(svg) if svg else None  # None: the answer goes without it (the text board is in both parts)


# ----------------------------------------------------------------------------- keeping and forgetting


def purge_old(*, now=None) -> int:
    """Delete raw messages and stored answers older than REPLIES_KEEP_DAYS (the row stays, so a late
    second delivery of the same Message-ID is still recognised)."""
    now = now or timezone.now()
    old = now - timedelta(days=settings.REPLIES_KEEP_DAYS)
    return (
        InboundMessage.objects.filter(received_at__lt=old, purged_at__isnull=True)
        .exclude(status=InboundMessage.Status.QUEUED)
        .exclude(answer_status__in=[Answer.PENDING, Answer.SENDING])
        .update(raw=b"", answer=None, purged_at=now)
    )

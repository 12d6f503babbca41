"""Writes: the reply addresses turn emails carry, the reply-to-play setting, and sending the answers we
owe. A message coming in is stored by replies.inbox."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from email.mime.image import MIMEImage
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from games.models import Game, Seat
from notifications import pictures
from zarkcity_site.prepared import PreparedInsert

from . import addresses, selectors
from .models import InboundMessage, ReplySetting, ReplyToken

log = logging.getLogger(__name__)
Answer = InboundMessage.Answer
Purpose = ReplyToken.Purpose
# The turn emails that ask the recipient for a move (notifications' kinds): these carry a reply address.
TURN_KINDS = {"your_turn", "game_started", "reminder_50", "reminder_80"}


def queue(task: Any, *args: object) -> bool:
    """Hand a task to the broker: whether it took it. If the broker is down the row stays queued and the
    sweep retries."""
    try:
        task.delay(*args)
    except Exception:
        log.exception("could not queue %s%s: the sweep will", task.name, args)
        return False
    return True


# ----------------------------------------------------------------------------- addresses in turn emails


def turn_reply_address(
    *, game: Game, user: User | None, kind: str = "your_turn", seat: Seat | None = None
) -> str | None:
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
    if transaction.get_connection().in_atomic_block:
        return addresses.address(token_for(seat=seat, ply=game.ply).token)
    return addresses.address(_turn_token(seat, game.ply))


# The worker's INSERT of a turn email's token, compiled once: through the ORM it cost more CPU than the
# database took (docs/performance.md, "Turn emails").
NEW_TOKEN = PreparedInsert(ReplyToken, token=str, game_id=int, seat_id=int, ply=int, purpose=str, created_at=datetime)


def _turn_token(seat: Seat, ply: int) -> str:
    """token_for's token for a move outside a transaction (the notifications worker): one INSERT, or, if
    the seat has its token for this ply already (a retried email), the row read instead."""
    token = addresses.new_token()
    try:
        NEW_TOKEN(
            token=token,
            game_id=seat.game_id,
            seat_id=seat.pk,
            ply=ply,
            purpose=Purpose.MOVE.value,
            created_at=timezone.now(),
        )
    except IntegrityError:
        return ReplyToken.objects.get(seat=seat, ply=ply, purpose=Purpose.MOVE).token
    return token


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


def reply_setting_update(*, user: User, enabled: bool) -> ReplySetting:
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
        message.mixed_subtype = "related"  # type: ignore[attr-defined]  # Django 5.2's, gone from django-stubs 6
        image = MIMEImage(png, "png")
        image.add_header("Content-ID", "<board>")
        image.add_header("Content-Disposition", "inline", filename="board.png")
        message.attach(image)
    return message


def _png(svg: str) -> bytes | None:
    return pictures.draw(svg) if svg else None  # None: the answer goes without it (the text board is in both parts)


# ----------------------------------------------------------------------------- keeping and forgetting


def purge_old(*, now: datetime | None = None) -> int:
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

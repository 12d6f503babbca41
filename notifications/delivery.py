"""One outbox row through the worker: claim it, ask whether it is still wanted, send it, mark it sent.

Why each email goes out once (docs/notifications.md has the whole argument):
- the claim is a conditional UPDATE (pending -> sending): of two workers handed the same row (a task
  redelivered by the broker, a row re-queued by the sweep), exactly one wins;
- a sent row is never claimed again, so a task redelivered after it finished does nothing;
- the re-check just before sending drops emails the world no longer wants (the player already moved).
- a database connection lost between the mail server's 250 and the UPDATE to "sent" does not hand
  the row back (a retry would send again, or write "skipped" over a delivered email): the task
  retries the UPDATE alone with what it knows (SentNotRecorded).
What remains is at-least-once: a worker that dies after the SMTP server accepted the message but
before the UPDATE to "sent" leaves a claim that goes stale, and the message is sent again, with the
same Message-ID (or, no longer wanted by then, skipped though the first copy may have arrived).
"""

from __future__ import annotations

import contextlib
import logging
import random
import smtplib
import traceback
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from django.conf import settings
from django.db import DatabaseError
from django.db.models import Exists, F, OuterRef, Q, Subquery
from django.utils import timezone

from games.emails import invitation_unwanted
from games.models import DrawProposal, Game
from zarkcity_site.prepared import Prepared, PreparedUpdate

from . import outgoing, push, selectors
from .emails import build_message
from .models import TURN_KINDS, Mute, Notification, Preference, PushSubscription, Watch
from .watching import held_until

log = logging.getLogger(__name__)
Kind, Status = Notification.Kind, Notification.Status
MAX_BACKOFF_SECONDS = 15 * 60  # well inside Redis's one-hour visibility timeout for a countdown task
# The recipient's reply-to-play setting comes too: a turn email's reply address asks only for its token.
READ_WITH_ROW = ("recipient__profile", "recipient__notification_preference", "recipient__reply_setting", "game")
READ_WITH_INVITATION = ("invitation__game", "invitation__user", "invitation__invited_by")
# Asked in the same SELECT as the row: whether its recipient muted its game (notifications.mutes).
MUTED = Exists(Mute.objects.filter(user=OuterRef("recipient"), game=OuterRef("game")))
# ...and when their page of the game last polled from a visible tab (notifications.watching).
WATCHED_AT = Subquery(Watch.objects.filter(user=OuterRef("recipient"), game=OuterRef("game")).values("seen_at")[:1])
# ...and whether they opted a browser in to Web Push (notifications.push).
HAS_PUSH = Exists(PushSubscription.objects.filter(user=OuterRef("recipient")))
# One read of what the re-check and the email need, once a row is claimed: the recipient with their name
# and preferences, the game and its seats with theirs (selectors.TABLE), and the three answers above.
# Built once: resolving those three subqueries for every email cost as much as compiling half the
# SELECT (docs/performance.md, "Where a mid-game turn email's time goes"). The rare invitation filters a copy.
CLAIMED_READ = (
    Notification.objects.select_related(*READ_WITH_ROW)
    .prefetch_related(selectors.TABLE)
    .annotate(muted=MUTED, watched_at=WATCHED_AT, has_push=HAS_PUSH)
)
# The same read as the worker asks it for every other row: the row, then its game's seats
# (selectors.keep_table, which reads games.selectors.page.table_of), each SELECT compiled once: compiling
# them cost more CPU than the database took to answer (docs/performance.md, "Turn emails").
CLAIMED_ROW = Prepared(lambda *, pk: CLAIMED_READ.prefetch_related(None).filter(pk=pk))
# The claim's UPDATE, compiled once too. A claim older than the stale limit belongs to a worker that died:
# it is taken over.
CLAIM = PreparedUpdate(
    lambda pk, now, stale: (
        Notification.objects.filter(Q(status=Status.PENDING) | Q(status=Status.SENDING, claimed_at__lt=stale), pk=pk),
        {"status": Status.SENDING, "claimed_at": now, "attempts": F("attempts") + 1},
    ),
    pk=int,
    now=datetime,
    stale=datetime,
)

# The UPDATE to sent, compiled once too: through the ORM it cost 0.37 ms of CPU an email, three times the
# statement's own (docs/performance.md, "Turn emails"). Only our claim may mark the row (_update_claimed).
RECORD_SENT = PreparedUpdate(
    lambda pk, claimed_at, message_id, sent_at: (
        Notification.objects.filter(pk=pk, status=Status.SENDING, claimed_at=claimed_at),
        {"status": Status.SENT, "sent_at": sent_at, "message_id": message_id},
    ),
    pk=int,
    claimed_at=datetime,
    message_id=str,
    sent_at=datetime,
)


class Outcome(StrEnum):
    SENT = "sent"
    SKIPPED = "skipped"
    DEFERRED = "deferred"  # quiet hours: the sweep hands it back to a worker when they end
    NOT_CLAIMED = "not claimed"  # another worker has it, or it was already sent
    FAILED = "failed"


class SentNotRecorded(Exception):
    """The mail server took the message but the row could not be marked sent (the database connection
    died in between): the task retries `record_sent` with these facts, and must not release the row."""

    def __init__(self, notification_id: int, claimed_at: datetime | None, message_id: str, error: Exception):
        super().__init__(f"notification {notification_id} sent, not yet recorded: {error!r}")
        # Strings: they travel in the retried task's arguments (JSON).
        claim = claimed_at.isoformat() if claimed_at else ""
        self.facts = {"claimed_at": claim, "message_id": message_id, "sent_at": timezone.now().isoformat()}


class TryAgain(Exception):
    """A transient sending error: the task retries after `countdown` seconds."""

    def __init__(self, countdown: int, error: Exception):
        super().__init__(f"retry in {countdown}s: {error!r}")
        self.countdown, self.error = countdown, error


def deliver(notification_id: int) -> Outcome:
    row = claim(notification_id)  # a database error here reaches the task, which retries
    if row is None:
        return Outcome.NOT_CLAIMED
    try:
        return _deliver_claimed(row)
    except (TryAgain, SentNotRecorded):
        raise
    except DatabaseError as error:
        # The database hiccuped after our claim (SQLite busy, a failover): hand the row back so the
        # retry can claim it again instead of waiting for the claim to go stale.
        with contextlib.suppress(DatabaseError):
            _release(row, send_after=timezone.now(), queued_at=timezone.now())
        raise TryAgain(backoff(row.attempts), error) from error
    except Exception as error:
        # A bug in deciding whether or when to send (the game's rules, a preference): an attempt like
        # any failed send, so the row is retried, then failed where operators see it, never left
        # "sending" to be taken over again each time the claim goes stale.
        log.exception("notification %s: could not decide whether to send it", row.pk)
        return _failed_attempt(row, error)


def _deliver_claimed(row: Notification) -> Outcome:
    reason = why_not(row)
    if reason:
        _finish(row, Status.SKIPPED, skip_reason=reason)
        return Outcome.SKIPPED
    # An invitation to an address has no recipient, hence no preferences and no quiet hours. A player
    # watching the game needs no email about it yet: held like quiet hours, sent if still wanted later.
    later = watched_hold(row) or (quiet_until(selectors.preference_for(row.recipient)) if row.recipient else None)
    if later is not None:
        _release(row, send_after=later, queued_at=None)  # nothing in flight: the sweep sends it at `later`
        return Outcome.DEFERRED
    return _send(row)


def claim(notification_id: int, now: datetime | None = None) -> Notification | None:
    """Take the row for this worker, or None if someone else has it (or it is done)."""
    now = now or timezone.now()
    stale = now - timedelta(seconds=settings.NOTIFICATIONS_STALE_CLAIM_SECONDS)
    if not CLAIM(pk=notification_id, now=now, stale=stale):
        return None
    (row,) = CLAIMED_ROW(pk=notification_id)
    if row.kind == Kind.INVITATION:  # rare: its invitation, the game and the people in it too
        return CLAIMED_READ.select_related(*READ_WITH_INVITATION).get(pk=notification_id)
    if row.game is not None:
        selectors.keep_table(row.game)
    return row


def _send(row: Notification) -> Outcome:
    push.push_row(row)  # the browsers first (once per row); it never raises, so never holds the email up
    try:
        message = build_message(row)
        message_id = message.extra_headers.get("Message-ID", "")
        outgoing.send(message)  # on the connection this worker keeps open from one email to the next
    except Exception as error:  # SMTP, DNS, a provider's API: anything may be passing
        return _failed_attempt(row, error)
    try:
        record_sent(row.pk, claimed_at=row.claimed_at, message_id=message_id, sent_at=timezone.now())
    except DatabaseError as error:
        raise SentNotRecorded(row.pk, row.claimed_at, message_id, error) from error
    return Outcome.SENT


def record_sent(notification_id: int, *, claimed_at: datetime | None, message_id: str, sent_at: datetime) -> bool:
    """Mark a row the mail server took as sent; False if our claim was lost (went stale and was
    taken over) before we could."""
    if claimed_at is None:  # a claim with no time (no claim writes one): `claimed_at = NULL` would match nothing
        return _update_claimed(notification_id, None, status=Status.SENT, sent_at=sent_at, message_id=message_id)
    return bool(RECORD_SENT(pk=notification_id, claimed_at=claimed_at, message_id=message_id, sent_at=sent_at))


def record_sent_later(notification_id: int, facts: dict[str, str]) -> Outcome:
    """The retried task of a SentNotRecorded: the record alone, from the facts it carries."""
    claimed_at = datetime.fromisoformat(facts["claimed_at"]) if facts["claimed_at"] else None
    sent_at = datetime.fromisoformat(facts["sent_at"])
    recorded = record_sent(notification_id, claimed_at=claimed_at, message_id=facts["message_id"], sent_at=sent_at)
    if not recorded:
        log.warning("notification %s was sent, but its claim was taken over before it was marked", notification_id)
    return Outcome.SENT if recorded else Outcome.NOT_CLAIMED


def _failed_attempt(row: Notification, error: Exception) -> Outcome:
    text = "".join(traceback.format_exception_only(type(error), error)).strip()
    if is_permanent(error) or row.attempts >= settings.NOTIFICATIONS_MAX_ATTEMPTS:
        log.error("notification %s failed for good after %s attempts: %s", row.pk, row.attempts, text)
        _finish(row, Status.FAILED, last_error=text)
        return Outcome.FAILED
    countdown = backoff(row.attempts)
    log.warning("notification %s attempt %s failed (%s); again in %ss", row.pk, row.attempts, text, countdown)
    retry_at = timezone.now() + timedelta(seconds=countdown)
    # The retry is in flight (a countdown task): the sweep leaves the row alone until it is overdue.
    _release(row, send_after=retry_at, queued_at=retry_at, last_error=text)
    raise TryAgain(countdown, error)


def is_permanent(error: Exception) -> bool:
    """A 5xx answer (no such mailbox, policy): retrying cannot help. Everything else may pass."""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return all(code >= 500 for code, _ in error.recipients.values())
    return isinstance(error, smtplib.SMTPResponseException) and error.smtp_code >= 500


def backoff(attempts: int) -> int:
    """Exponential (base, 2 base, 4 base...) with +-50% jitter so a mail server's hiccup does not
    bring every retry back at the same second."""
    base: float = settings.NOTIFICATIONS_RETRY_BASE_SECONDS * 2 ** max(attempts - 1, 0)
    return max(1, min(MAX_BACKOFF_SECONDS, round(base * random.uniform(0.5, 1.5))))


def _finish(row: Notification, status: str, **fields: Any) -> None:
    _update_claimed(row.pk, row.claimed_at, status=status, **fields)


def _update_claimed(notification_id: int, claimed_at: datetime | None, **fields: Any) -> bool:
    """Write to a row we claimed; False if it was not ours any more. Only our claim may finish or hand
    back the row: if it went stale and another worker took it, theirs decides."""
    claimed = Notification.objects.filter(pk=notification_id, status=Status.SENDING, claimed_at=claimed_at)
    return bool(claimed.update(**fields))


def _release(
    row: Notification, *, send_after: datetime, queued_at: datetime | None, last_error: str | None = None
) -> None:
    fields = {"status": Status.PENDING, "send_after": send_after, "queued_at": queued_at}
    if last_error is not None:
        fields["last_error"] = last_error
    _update_claimed(row.pk, row.claimed_at, **fields)


# ----------------------------------------------------------------------------- is it still wanted?


def why_not(row: Notification) -> str:
    """Why this email should no longer go out, or "" to send it. The world moves on while rows wait."""
    user = row.recipient
    invitation = row.invitation  # every invitation row names it (notification_addressed)
    if user is None:  # an invitation to an address that is nobody's account: no preferences to ask
        assert invitation is not None
        return invitation_unwanted(invitation)
    if not user.is_active or not user.email:
        return "the recipient has no active account or no address"
    mode = selectors.preference_for(user).mode
    if mode == Preference.Mode.NONE:
        return "the recipient turned email off"
    if row.kind == Kind.INVITATION:
        assert invitation is not None
        return invitation_unwanted(invitation)
    if row.kind == Kind.YOUR_TURN and mode == Preference.Mode.DIGEST:
        return "the recipient reads a daily digest instead"
    if row.kind == Kind.DIGEST:
        return "" if selectors.waiting_games(user) else "no game is waiting for them any more"
    return _game_reason(row)


def _game_reason(row: Notification) -> str:
    game, user = row.game, row.recipient
    if game is None or user is None:
        return "the row names no game or no recipient"
    seat = selectors.seat_of(game, user)
    if seat is None:
        return "the recipient has no seat in this game"
    if row.kind != Kind.GAME_OVER and _muted(row):  # how the game ended still reaches them
        return "the recipient muted this game"
    if row.kind in TURN_KINDS:
        if game.status != Game.Status.ACTIVE:
            return "the game is over"
        if seat.resigned:
            return "the recipient left the game"
        movers = game.to_move.split(",")
        # Several movers: a sealed step, whose public movers may keep a seat whose choice is in (unseen).
        if seat.colour not in movers or (len(movers) > 1 and seat.commitments.exists()):
            return "it is no longer their move"
        # A game still at the row's ply has had no move since it was written: nothing to look up.
        if game.ply > row.ply and game.moves.filter(seat=seat, ply__gte=row.ply).exists():
            return "they already moved"
    if row.kind == Kind.DRAW_PROPOSED and not game.draw_proposals.filter(status=DrawProposal.Status.OPEN).exists():
        return "the draw offer is no longer open"
    if row.kind == Kind.DRAW_DECLINED and game.status != Game.Status.ACTIVE:
        return "the game is over"
    if row.kind == Kind.GAME_STARTED and game.status != Game.Status.ACTIVE:
        return "the game is already over"
    return ""


def _muted(row: Notification) -> bool:
    muted = getattr(row, "muted", None)  # read with the row by the claim
    if muted is None:
        return Mute.objects.filter(user=row.recipient_id, game=row.game_id).exists()
    return bool(muted)


def watched_hold(row: Notification, now: datetime | None = None) -> datetime | None:
    """Until when an email asking for a move waits because its recipient has the game open in a
    visible tab: NOTIFICATIONS_WATCH_GRACE_SECONDS after the turn began (the row was written). Then it
    goes as any other, if they have not moved: a tab left open on a screen nobody looks at still brings it."""
    seen = getattr(row, "watched_at", None)  # read with the row by the claim
    return held_until(row.kind, seen, row.created_at, now or timezone.now())


def quiet_until(preference: Preference, now: datetime | None = None) -> datetime | None:
    """The end of the recipient's quiet hours if they are in them now, else None."""
    start, end = preference.quiet_from, preference.quiet_until
    if start is None or end is None:
        return None
    local = selectors.local_now(preference, now)
    clock = local.time().replace(tzinfo=None)
    inside = start <= clock < end if start < end else (clock >= start or clock < end)  # may wrap midnight
    if not inside:
        return None
    ends = datetime.combine(local.date(), end, local.tzinfo)
    return ends if ends > local else ends + timedelta(days=1)

"""The periodic sweep (Celery beat, every minute): what no single request can do.

- re-queue outbox rows nobody picked up (the broker was down, a worker died mid-claim, quiet hours ended);
- remind players at 50% and 80% of their time on a move (once each: a unique row per move);
- time out players whose clock ran out: games.clock.time_out resigns them through games.services like
  any resignation, or ends the game with no winner when every remaining player ran out at once;
- write each digest reader's daily digest.
Deadlines are columns (Game.turn_started_at, time_limit_days, days away), read here: nothing waits
on the broker for days, where Redis's visibility timeout would redeliver it. One game's or one
player's bad data is logged and skipped: it never stops the sweep for the others.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import clock
from games.models import REMINDER_SHARES, Game
from zarkcity_site.due import due_rows

from . import selectors, services
from .models import Notification, Preference

log = logging.getLogger(__name__)
Kind, Status = Notification.Kind, Notification.Status
# The highest share crossed wins; the shares are the ones the games' clock_due_at is set for.
REMINDERS = ((REMINDER_SHARES[1], Kind.REMINDER_80), (REMINDER_SHARES[0], Kind.REMINDER_50))
# A sweep runs every minute: a digest not written within this hour after the digest hour (beat was
# down all that time) waits for the next day rather than arrive at an hour nobody was promised.
DIGEST_WINDOW = timedelta(hours=1)


def sweep(now: datetime | None = None) -> dict[str, int]:
    now = now or timezone.now()
    counts = {"requeued": requeue(now)}
    counts |= enforce_clocks(now)
    counts["digests"] = write_digests(now)
    if any(counts.values()):
        log.info("sweep: %s", counts)
    return counts


# ----------------------------------------------------------------------------- the outbox


def requeue(now: datetime) -> int:
    """Hand the broker every row that should be moving and is not."""
    waited = now - timedelta(seconds=settings.NOTIFICATIONS_REQUEUE_AFTER_SECONDS)
    stale = now - timedelta(seconds=settings.NOTIFICATIONS_STALE_CLAIM_SECONDS)
    due = Q(status=Status.PENDING) & (Q(send_after__isnull=True) | Q(send_after__lte=now))
    orphaned = Q(status=Status.SENDING, claimed_at__lt=stale)

    def not_queued_since(moment: datetime) -> Q:
        return Q(queued_at__isnull=True) | Q(queued_at__lte=moment)

    # A claim gone stale is a worker that died: hand it out again at once (not REQUEUE_AFTER later).
    rows = Notification.objects.filter((due & not_queued_since(waited)) | (orphaned & not_queued_since(stale)))
    ids = list(rows.order_by("created_at").values_list("pk", flat=True)[:1000])
    Notification.objects.filter(pk__in=ids).update(queued_at=now)
    return sum(services.enqueue(pk) for pk in ids)


# ----------------------------------------------------------------------------- clocks


def enforce_clocks(now: datetime) -> dict[str, int]:
    """Reminders and timeouts of the games whose Game.clock_due_at has come, and only those: with
    nothing due this is one query, whatever the number of games in progress."""
    counts = {"reminders": 0, "timeouts": 0}
    for game_id in clock.due_games(now):
        try:
            reminders, timeouts = check_clocks(game_id, now)
        except Exception:  # this game's turn is lost, not every other game's (it stays due: the next sweep)
            log.exception("sweep: game %s skipped", game_id)
            continue
        counts["reminders"] += reminders
        counts["timeouts"] += timeouts
    return counts


def check_clocks(game_id: int, now: datetime) -> tuple[int, int]:
    """One due game, under its lock (two sweeps never both remind): time out whoever ran out, else
    remind whoever crossed a share, then write down when to look next. Returns (reminders, timeouts)."""
    with transaction.atomic():
        game = clock.claim_due(game_id, now)
        if game is None:  # another sweep has it, or a move restarted its clock since it was read
            return 0, 0
        clocks = clock.mover_clocks(game, now)
        if any(mover.expired(now) for mover in clocks):
            timeouts = clock.time_out(game_id=game.pk, now=now)
            clock.schedule_check(game.pk, now)  # the table changed: its clocks are read again
            return 0, timeouts
        reminders = sum(remind(game, mover, now) for mover in clocks)
        clock.schedule_check(game.pk, now, clocks)
        return reminders, 0


def remind(game: Game, mover: clock.Clock, now: datetime) -> int:
    kind = next((kind for share, kind in REMINDERS if mover.reached(share, now)), None)
    if kind is None:
        return 0
    # Once per move, and never a 50% after the 80%: the discard step inside a turn moves the ply on
    # (a new unique key) but not the clock, so look at every reminder since the clock started.
    sent = set(
        Notification.objects.filter(
            game=game,
            recipient_id=mover.user_id,
            kind__in=[k for _, k in REMINDERS],
            created_at__gte=game.turn_started_at,
        ).values_list("kind", flat=True)
    )
    if kind in sent or Kind.REMINDER_80 in sent:
        return 0
    seat = game.seats.select_related("user").get(colour=mover.colour)
    return len(services.notify_reminder(game=game, seat=seat, kind=kind))


# ----------------------------------------------------------------------------- digests


DIGEST_BATCH = 500  # digest readers read by one query of the sweep; it reads batches until none is left


def write_digests(now: datetime) -> int:
    """One digest a day per digest reader, at NOTIFICATIONS_DIGEST_HOUR their time, if a game waits on
    them: only the readers whose Preference.next_digest_at has come are read (one indexed query when
    none has)."""
    written = 0
    due = Preference.objects.filter(mode=Preference.Mode.DIGEST).select_related("user")
    for preference in due_rows(due, "next_digest_at", now, DIGEST_BATCH):
        try:
            written += digest_due(preference, now)
        except Exception:  # one reader's bad data: their digest waits, the others' do not
            log.exception("sweep: the digest of user %s skipped", preference.user_id)
    return written


def digest_due(preference: Preference, now: datetime) -> int:
    """Move the reader's next look on to their next digest hour, then write today's digest if it is
    owed, in one transaction: of two sweeps, only the one whose conditional UPDATE moved it on writes
    (the other finds the time changed); a failure rolls both back, and the next sweep tries again."""
    with transaction.atomic():
        later = selectors.next_digest_at(preference, now)
        rows = Preference.objects.filter(pk=preference.pk, next_digest_at=preference.next_digest_at)
        if not rows.update(next_digest_at=later):  # update(): updated_at, which write_digest reads, stays
            return 0
        return write_digest(preference, now)


def write_digest(preference: Preference, now: datetime) -> int:
    """The day's digest, written within the digest hour only (the settings page promises 8:00), and
    only to a reader who chose the digest before it: switching at 15:00 brings the first one the
    next morning, and a game that starts waiting at noon is in the next morning's digest."""
    local = selectors.local_now(preference, now)
    due = local.replace(hour=settings.NOTIFICATIONS_DIGEST_HOUR, minute=0, second=0, microsecond=0)
    if not due <= local < due + DIGEST_WINDOW or preference.updated_at > due:
        return 0
    if not selectors.waiting_games(preference.user):
        return 0
    if not services.wants(preference.user, Kind.DIGEST):
        return 0
    row = services.write_row(game=None, recipient=preference.user, kind=Kind.DIGEST, digest_date=local.date())
    return row is not None

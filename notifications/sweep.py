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
from django.db.models import Q
from django.utils import timezone

from games import clock
from games.models import Game

from . import selectors, services
from .models import Notification, Preference

log = logging.getLogger(__name__)
Kind, Status = Notification.Kind, Notification.Status
REMINDERS = ((0.8, Kind.REMINDER_80), (0.5, Kind.REMINDER_50))  # the highest share crossed wins
# A sweep runs every minute: a digest not written within this hour after the digest hour (beat was
# down all that time) waits for the next day rather than arrive at an hour nobody was promised.
DIGEST_WINDOW = timedelta(hours=1)
LONGEST_LIMIT = timedelta(days=30)  # games.services.MAX_DAYS: the earliest a 50% reminder can fall


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
    counts = {"reminders": 0, "timeouts": 0}
    games = Game.objects.filter(status=Game.Status.ACTIVE, deadline__lte=now + LONGEST_LIMIT / 2)
    for game in games.order_by("deadline"):
        try:
            clocks = clock.mover_clocks(game, now)
            if any(mover.expired(now) for mover in clocks):
                counts["timeouts"] += clock.time_out(game_id=game.pk, now=now)
            else:
                counts["reminders"] += sum(remind(game, mover, now) for mover in clocks)
        except Exception:  # this game's turn is lost, not every other game's
            log.exception("sweep: game %s skipped", game.pk)
    return counts


def remind(game: Game, mover: clock.Clock, now: datetime) -> int:
    share = mover.used_fraction(now)
    kind = next((kind for threshold, kind in REMINDERS if share >= threshold), None)
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


def write_digests(now: datetime) -> int:
    """One digest a day per digest reader, at NOTIFICATIONS_DIGEST_HOUR their time, if a game waits on them."""
    written = 0
    for preference in Preference.objects.filter(mode=Preference.Mode.DIGEST).select_related("user"):
        try:
            written += write_digest(preference, now)
        except Exception:  # one reader's bad data: their digest waits, the others' do not
            log.exception("sweep: the digest of user %s skipped", preference.user_id)
    return written


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

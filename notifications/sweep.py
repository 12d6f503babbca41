"""The periodic sweep (Celery beat, every minute): what no single request can do.

- re-queue outbox rows nobody picked up (the broker was down, a worker died mid-claim, quiet hours ended);
- remind players at 50% and 80% of their time on a move (once each: a unique row per move);
- resign players whose time ran out, through games.services like any resignation;
- write each digest reader's daily digest.
Deadlines are columns (Game.turn_started_at, time_limit_days, days away), read here: nothing waits
on the broker for days, where Redis's visibility timeout would redeliver it.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.models import Game

from . import selectors, services
from .clock import Clock
from .models import Notification, Preference

log = logging.getLogger(__name__)
Kind, Status = Notification.Kind, Notification.Status
REMINDERS = ((0.8, Kind.REMINDER_80), (0.5, Kind.REMINDER_50))  # the highest share crossed wins
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
    rows = Notification.objects.filter(due | orphaned).filter(Q(queued_at__isnull=True) | Q(queued_at__lte=waited))
    ids = list(rows.order_by("created_at").values_list("pk", flat=True)[:1000])
    Notification.objects.filter(pk__in=ids).update(queued_at=now)
    return sum(services.enqueue(pk) for pk in ids)


# ----------------------------------------------------------------------------- clocks


def enforce_clocks(now: datetime) -> dict[str, int]:
    counts = {"reminders": 0, "timeouts": 0}
    games = Game.objects.filter(status=Game.Status.ACTIVE, deadline__lte=now + LONGEST_LIMIT / 2)
    for game in games.order_by("deadline"):
        for clock in selectors.mover_clocks(game):
            if clock.expired(now):
                counts["timeouts"] += time_out(game_id=game.pk, colour=clock.colour, now=now)
            else:
                counts["reminders"] += remind(game, clock, now)
    return counts


def remind(game: Game, clock: Clock, now: datetime) -> int:
    share = clock.used_fraction(now)
    kind = next((kind for threshold, kind in REMINDERS if share >= threshold), None)
    if kind is None:
        return 0
    # Once per move, and never a 50% after the 80%: the discard step inside a turn moves the ply on
    # (a new unique key) but not the clock, so look at every reminder since the clock started.
    sent = set(
        Notification.objects.filter(
            game=game,
            recipient_id=clock.user_id,
            kind__in=[k for _, k in REMINDERS],
            created_at__gte=game.turn_started_at,
        ).values_list("kind", flat=True)
    )
    if kind in sent or Kind.REMINDER_80 in sent:
        return 0
    seat = game.seats.select_related("user").get(colour=clock.colour)
    return len(services.notify_reminder(game=game, seat=seat, kind=kind))


def time_out(*, game_id: int, colour: str, now: datetime) -> int:
    """Resign a player whose clock ran out (rules.md 19), re-checked under the game's lock."""
    from games.services import PlayError, player_resign  # late: games.services calls into this app

    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        seat = game.seats.select_related("user").filter(colour=colour, resigned=False).first()
        # A move may have landed since the clocks were read: only a mover whose time is still up goes.
        if seat is None or game.status != Game.Status.ACTIVE or colour not in game.to_move.split(","):
            return 0
        if not selectors.seat_clock(game, seat, now).expired(now):
            return 0
        try:
            player_resign(game=game, user=seat.user, reason="timeout")
        except PlayError as error:
            log.warning("timeout of %s in game %s refused: %s", colour, game_id, error)
            return 0
    log.info("game %s: %s ran out of time and was resigned", game_id, colour)
    return 1


# ----------------------------------------------------------------------------- digests


def write_digests(now: datetime) -> int:
    """One digest a day per digest reader, at NOTIFICATIONS_DIGEST_HOUR their time, if a game waits on them."""
    written = 0
    for preference in Preference.objects.filter(mode=Preference.Mode.DIGEST).select_related("user"):
        local = selectors.local_now(preference, now)
        if local.hour < settings.NOTIFICATIONS_DIGEST_HOUR or not selectors.waiting_games(preference.user):
            continue
        if services.wants(preference.user, Kind.DIGEST):
            written += (
                services.write_row(game=None, recipient=preference.user, kind=Kind.DIGEST, digest_date=local.date())
                is not None
            )
    return written

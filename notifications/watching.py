"""Quiet while you watch: the game page tells the server its player is looking at it (each poll of a
visible tab) or no longer (the tab hidden or closed). The worker reads it when it re-checks a turn
email (delivery.watched_hold): nobody needs an email about the game on their screen."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.models import Game
from zarkcity_site.prepared import PreparedUpdate

from .models import ASKING_KINDS, Watch

log = logging.getLogger(__name__)

# Every visible page of a seated player polls every few seconds: its UPDATE is compiled once.
_SEEN = PreparedUpdate(
    lambda user_id, game_id, now: (Watch.objects.filter(user_id=user_id, game_id=game_id), {"seen_at": now}),
    user_id=int,
    game_id=int,
    now=datetime,
)


def watch_seen(*, user: User, game: Game, now: datetime | None = None) -> None:
    """A visible page of the game polled: one UPDATE (the first poll of a player's page inserts the row),
    or none while the row's time, as last written, is fresh enough to outlast the next poll (`_fresh`)."""
    now = now or timezone.now()
    if game.status != Game.Status.ACTIVE or _fresh(user.pk, game.pk, now):
        return
    # Not seated (a spectator's page): nobody's turn email to hold.
    if not _SEEN(user_id=user.pk, game_id=game.pk, now=now) and game.seats.filter(user=user, resigned=False).exists():
        try:
            with transaction.atomic():
                Watch.objects.create(user=user, game=game, seen_at=now)
        except IntegrityError:  # the player's other tab polled at the same moment
            Watch.objects.filter(user=user, game=game).update(seen_at=now)
    _written(user.pk, game.pk, now)


def held_until(kind: str, seen_at: datetime | None, written_at: datetime, now: datetime) -> datetime | None:
    """Until when an email of `kind`, written at `written_at`, waits because its recipient's visible page
    of the game last polled at `seen_at` (None: no page): NOTIFICATIONS_WATCH_GRACE_SECONDS after it was
    written (their turn began), while that poll is under NOTIFICATIONS_WATCH_SECONDS old. Asked when the
    "your turn" is written (the move's seats carry their watch: no broker task for a held row) and again
    by the worker when it claims a row (delivery.watched_hold)."""
    if kind not in ASKING_KINDS or seen_at is None:
        return None
    until = written_at + timedelta(seconds=settings.NOTIFICATIONS_WATCH_GRACE_SECONDS)
    fresh = seen_at >= now - timedelta(seconds=settings.NOTIFICATIONS_WATCH_SECONDS)
    return until if fresh and now < until else None


def watch_left(*, user: User, game: Game) -> None:
    """The tab went hidden or away: a hidden tab is not watching, so the next email goes at once."""
    Watch.objects.filter(user=user, game=game).delete()
    _forget(user.pk, game.pk)  # the tab's next visible poll writes the row again at once


# A seated player's visible page polls every ZARKCITY_POLL_SECONDS, and the worker counts them watching
# while their row is under NOTIFICATIONS_WATCH_SECONDS old: the row need not be written on every poll.
# The shared cache keeps when it was last written; a poll writes it again only once it is older than
# WATCH - POLL - MARGIN seconds, so a row is at most one poll interval older than that when the poll after
# it comes (30 - 10 - 5: every other poll writes, the row never over 25 seconds old while the page
# polls; MARGIN for a poll that comes late). A cache that fails or forgot the time: the poll writes.
MARGIN_SECONDS = 5


def _fresh(user_id: int, game_id: int, now: datetime) -> bool:
    """Whether this player's row for the game was written recently enough to skip this poll's write."""
    try:
        written = cache.get(_key(user_id, game_id))
    except Exception:
        log.warning("cache unreachable: the watch is written", exc_info=True)
        return False
    if not isinstance(written, datetime):
        return False
    return timedelta(0) <= now - written < timedelta(seconds=_refresh_seconds())


def _written(user_id: int, game_id: int, now: datetime) -> None:
    try:
        cache.set(_key(user_id, game_id), now, settings.NOTIFICATIONS_WATCH_SECONDS)
    except Exception:
        log.warning("cache unreachable: the next poll writes the watch again", exc_info=True)


def _forget(user_id: int, game_id: int) -> None:
    try:
        cache.delete(_key(user_id, game_id))
    except Exception:  # its time lives WATCH_SECONDS at most; until then a poll may skip writing the row back
        log.warning("cache unreachable: the watch's time not dropped", exc_info=True)


def _refresh_seconds() -> float:
    return settings.NOTIFICATIONS_WATCH_SECONDS - settings.ZARKCITY_POLL_SECONDS - MARGIN_SECONDS


def _key(user_id: int, game_id: int) -> str:
    # A setting, as the poll's headline key (games/news.py): each test keys its own (tests/conftest.py).
    return f"{getattr(settings, 'ZARKCITY_WATCH_KEY', 'game-watch')}:{user_id}:{game_id}"

"""Quiet while you watch: the game page tells the server its player is looking at it (each poll of a
visible tab) or no longer (the tab hidden or closed). The worker reads it when it re-checks a turn
email (delivery.watched_hold): nobody needs an email about the game on their screen."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.models import Game
from zarkcity_site.prepared import PreparedUpdate

from .models import Watch

# Every visible page of a seated player polls every few seconds: its UPDATE is compiled once.
_SEEN = PreparedUpdate(
    lambda user_id, game_id, now: (Watch.objects.filter(user_id=user_id, game_id=game_id), {"seen_at": now}),
    user_id=int,
    game_id=int,
    now=datetime,
)


def watch_seen(*, user: User, game: Game, now: datetime | None = None) -> None:
    """A visible page of the game polled: one UPDATE (the first poll of a player's page inserts the row)."""
    now = now or timezone.now()
    if game.status != Game.Status.ACTIVE or _SEEN(user_id=user.pk, game_id=game.pk, now=now):
        return
    if not game.seats.filter(user=user, resigned=False).exists():
        return  # a spectator's page: nobody's turn email to hold
    try:
        with transaction.atomic():
            Watch.objects.create(user=user, game=game, seen_at=now)
    except IntegrityError:  # the player's other tab polled at the same moment
        Watch.objects.filter(user=user, game=game).update(seen_at=now)


def watch_left(*, user: User, game: Game) -> None:
    """The tab went hidden or away: a hidden tab is not watching, so the next email goes at once."""
    Watch.objects.filter(user=user, game=game).delete()

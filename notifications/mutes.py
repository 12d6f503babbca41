"""Per-game mute: a player who wants no more email (or push) about one game, from its page or from the
link in its emails. Writes here; the worker asks `Mute` rows when it re-checks a row (delivery.why_not)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from games.models import Game
from zarkcity_site.prepared import Prepared

from .models import Mute


def game_mute(*, user: User, game: Game) -> bool:
    """Mute the game for this player; False if it already was (two clicks, two links: one row)."""
    if not game.seats.filter(user=user).exists():
        raise ValidationError("Only the game's players can mute its emails.")
    try:
        with transaction.atomic():
            Mute.objects.create(user=user, game=game)
    except IntegrityError:
        return False
    return True


def game_unmute(*, user: User, game: Game) -> bool:
    """Emails about the game again, from its next one; False if it was not muted."""
    deleted, _ = Mute.objects.filter(user=user, game=game).delete()
    return bool(deleted)


def is_muted(user: User | AnonymousUser, game: Game) -> bool:
    """The mute button's state, on every page of a player in a game in progress: a query compiled once."""
    return user.is_authenticated and bool(_MUTE(user_id=user.pk, game_id=game.pk))


_MUTE = Prepared(
    lambda *, user_id, game_id: Mute.objects.filter(user_id=user_id, game_id=game_id).values_list("pk")[:1]
)

"""Reads for notifications: preferences, days away, what happened since a player's turn.

The movers' clocks and who is away at a table are games.clock's (the game page, emails and the sweep read them there).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Prefetch, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from engine.interface import Game as GameRules
from engine.interface import Throw
from engine.kit.core import public_text
from games.models import Game, Move, Seat
from games.selectors.page import seats_for_clocks, table_for_clocks
from zarkcity_site.prepared import Prepared
from zarkcity_site.related import read_with_or

from .models import Away, Preference


def preference_for(user: User) -> Preference:
    """The user's preferences, or the defaults (every turn, UTC, no quiet hours) as an unsaved row.

    Read with the user when they were (the worker's claim joins them to the outbox row): no second query."""
    preference = read_with_or(user, "notification_preference", lambda: Preference.objects.filter(user=user).first())
    return preference or Preference(user=user)


# The table of an outbox row's game, read with the row by the worker's claim (delivery.claim). In seat
# order by the seat's own column: the model's ordering ("game", "order") would join the game to sort by it.
# Each seat also says whether its player has any days away (the email's clocks read only theirs).
TABLE = Prefetch("game__seats", queryset=seats_for_clocks())


def keep_table(game: Game) -> None:
    """Read the game's seats on their own (`table_for_clocks`, compiled once: the worker asks it for every
    email) and hold them as TABLE would have: `seated(game)` and `game.seats.all()` give them, and each
    seat's game is this one, without another query."""
    seats = table_for_clocks(game)
    for seat in seats:
        Seat.game.field.set_cached_value(seat, game)
    # What Django's prefetch_related_objects leaves: the related manager's queryset, already evaluated.
    table = game.seats.all()
    table._result_cache = seats
    setattr(table, "_prefetch_done", True)  # noqa: B010  # attributes of Django's that django-stubs leaves out
    setattr(game, "_prefetched_objects_cache", {"seats": table})  # noqa: B010


def seated(game: Game) -> list[Seat]:
    """The game's seats in order with their players: those read with the outbox row, else one query."""
    if "seats" in getattr(game, "_prefetched_objects_cache", {}):
        return list(game.seats.all())
    return table_for_clocks(game)


def seat_of(game: Game, user: User) -> Seat | None:
    return next((seat for seat in seated(game) if seat.user_id == user.pk), None)


def zone_of(preference: Preference) -> ZoneInfo:
    try:
        return ZoneInfo(preference.time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def local_now(preference: Preference, now: datetime | None = None) -> datetime:
    return (now or timezone.now()).astimezone(zone_of(preference))


def next_digest_at(preference: Preference, after: datetime) -> datetime | None:
    """The first NOTIFICATIONS_DIGEST_HOUR, the reader's time, after `after`: when the sweep next looks
    at their digest (Preference.next_digest_at). None for a reader of no digest."""
    if preference.mode != Preference.Mode.DIGEST:
        return None
    zone = zone_of(preference)
    local = after.astimezone(zone)
    hour = time(settings.NOTIFICATIONS_DIGEST_HOUR)
    at = datetime.combine(local.date(), hour, zone)
    return at if at > local else datetime.combine(local.date() + timedelta(days=1), hour, zone)


def away_periods(user: User, *, from_day: date | None = None) -> list[Away]:
    periods = Away.objects.filter(user=user)
    if from_day is not None:
        periods = periods.filter(last_day__gte=from_day)
    return list(periods)


@dataclass(frozen=True)
class MoveLine:
    ply: int
    colour: str
    words: str  # the engine's description for this viewer
    notation: str  # public_move_text for this viewer
    dice: list[Throw] = field(default_factory=list)  # the throws the move made (public once thrown)


def moves_since_last_turn(game: Game, seat: Seat, *, now: Any = None) -> list[MoveLine]:
    """Every move after the seat's own last move, as that player may see it (never another's hand).

    `now` is the game's state as it stands (what is public by now), if the caller has it already."""
    moves = MOVES_SINCE(game=game.pk, seat=seat.pk)
    rules = game.rules
    now = now if now is not None else rules.from_position(game.snapshot)
    return [move_line(move, seat.colour, rules=rules, now=now) for move in moves]


def _moves_since(*, game: int, seat: int) -> QuerySet[Move]:
    last_own = Move.objects.filter(game_id=game, seat_id=seat).order_by("-ply").values("ply")[:1]
    since = Move.objects.filter(game_id=game, ply__gt=Coalesce(Subquery(last_own), -1))
    return since.select_related("seat").order_by("ply")  # by ply alone, not joining the game to sort


# Compiled once: a worker asks it for every turn email.
MOVES_SINCE = Prepared(_moves_since)


def move_line(move: Move, viewer: str, *, rules: GameRules, now: Any) -> MoveLine:
    words = move.descriptions.get(viewer) or move.descriptions.get("*") or ""
    notation = public_text(rules, rules.parse(move.notation), move.seat.colour, now, viewer)
    return MoveLine(ply=move.ply, colour=move.seat.colour, words=words, notation=notation, dice=move.dice)


def waiting_games(user: User) -> list[tuple[Game, Seat]]:
    """Active games where this user must move now, oldest deadline first."""
    # A seat whose sealed choice is in owes nothing, though Game.to_move may keep it (unseen by the others).
    seats = Seat.objects.filter(user=user, resigned=False, game__status=Game.Status.ACTIVE, commitments__isnull=True)
    seats = seats.select_related("game")
    waiting = [(seat.game, seat) for seat in seats if seat.colour in seat.game.to_move.split(",")]
    return sorted(waiting, key=lambda pair: pair[0].deadline or pair[0].created_at)

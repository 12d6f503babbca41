"""Reads for notifications: preferences, days away, the movers' clocks, what happened since a player's turn.

`table_away` and `mover_clocks` are for the game page too: opponents see who is away and whose clock
is stopped.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.utils import timezone

from engine.zarkcity.notation import parse
from engine.zarkcity.views import public_move_text
from games.models import Game, Move, Seat

from . import clock
from .models import Away, Preference

log = logging.getLogger(__name__)


def preference_for(user) -> Preference:
    """The user's preferences, or the defaults (every turn, UTC, no quiet hours) as an unsaved row."""
    return Preference.objects.filter(user=user).first() or Preference(user=user)


def zone_of(preference: Preference) -> ZoneInfo:
    try:
        return ZoneInfo(preference.time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def local_now(preference: Preference, now: datetime | None = None) -> datetime:
    return (now or timezone.now()).astimezone(zone_of(preference))


def away_periods(user, *, from_day: date | None = None) -> list[Away]:
    periods = Away.objects.filter(user=user)
    if from_day is not None:
        periods = periods.filter(last_day__gte=from_day)
    return list(periods)


def spans_by_user(user_ids: list[int]) -> dict[int, tuple[clock.Span, ...]]:
    """Each user's days away as instants in their own time zone: two queries for a whole table."""
    zones = {p.user_id: zone_of(p) for p in Preference.objects.filter(user_id__in=user_ids)}
    days: dict[int, list[clock.AwayDays]] = {user_id: [] for user_id in user_ids}
    rows = Away.objects.filter(user_id__in=user_ids).values_list(
        "user_id", "first_day", "last_day", "created_at", "ended_at"
    )
    for user_id, *period in rows:
        days[user_id].append(tuple(period))  # type: ignore[arg-type]
    spans = {}
    for user_id in user_ids:
        try:
            spans[user_id] = clock.away_spans(days[user_id], zones.get(user_id, ZoneInfo("UTC")), owner=user_id)
        except Exception:  # anything else unforeseen must not stop the page or the sweep for the others
            log.exception("the days away of user %s cannot be read; their clock is left out", user_id)
    return spans


@dataclass(frozen=True)
class TableClocks:
    """What the game page shows of the clocks: each mover's clock, and who at the table is away."""

    clocks: list[clock.Clock]
    away: dict[str, date]


def table_clocks(game: Game, now: datetime | None = None) -> TableClocks:
    """The movers' clocks and the table's days away from one read of the seats and their days away."""
    now = now or timezone.now()
    seats = list(game.seats.filter(resigned=False).order_by("order"))
    spans = spans_by_user([seat.user_id for seat in seats])
    return TableClocks(_clocks(game, seats, spans, now), _away(game, seats, spans, now))


def mover_clocks(game: Game, now: datetime | None = None) -> list[clock.Clock]:
    """The clock of every player who must move now (several in the starter choice), in seat order.

    A days-away period the arithmetic cannot handle (a row from before the limits, 9999-12-31) is
    ignored and logged (`clock.away_spans`): that player counts as not away and their clock runs, so
    the sweep still reminds and times them out. Anything else unforeseen while computing one seat's
    clock is logged and that seat left out, so it never stops the page or the sweep for everyone.
    """
    return table_clocks(game, now).clocks


def _clocks(game: Game, seats: list[Seat], spans: dict, now: datetime) -> list[clock.Clock]:
    if game.status != Game.Status.ACTIVE or game.turn_started_at is None or not game.to_move:
        return []
    movers = set(game.to_move.split(","))
    clocks = []
    for seat in seats:
        if seat.colour not in movers or seat.user_id not in spans:
            continue
        try:
            clocks.append(_clock(game, seat, spans[seat.user_id], now))
        except Exception:
            log.exception("game %s: the clock of %s (user %s) cannot be computed", game.pk, seat.colour, seat.user_id)
    return clocks


def seat_clock(game: Game, seat: Seat, now: datetime | None = None) -> clock.Clock:
    """One seat's clock, for pages and feeds outside the game page: days away that cannot be read are
    logged and count as none (`spans_by_user`), so the clock is never lost to a bad row."""
    spans = spans_by_user([seat.user_id]).get(seat.user_id, ())
    return _clock(game, seat, spans, now or timezone.now())


def _clock(game: Game, seat: Seat, spans: tuple[clock.Span, ...], now: datetime) -> clock.Clock:
    limit = timedelta(days=game.time_limit_days)
    started = game.turn_started_at or now
    current = clock.away_on(now, spans)
    last_day = None
    if current is not None:
        last_day = (current[1] - timedelta(seconds=1)).astimezone(current[1].tzinfo).date()
    return clock.Clock(
        colour=seat.colour,
        user_id=seat.user_id,
        started_at=started,
        limit=limit,
        deadline=clock.deadline(started, limit, spans),
        away_until=last_day,
        spans=spans,
    )


def table_away(game: Game, now: datetime | None = None) -> dict[str, date]:
    """{colour: last day away} for each seated player who is away right now (a broken row: not shown)."""
    return table_clocks(game, now).away


def _away(game: Game, seats: list[Seat], spans: dict, now: datetime) -> dict[str, date]:
    away = {}
    for seat in seats:
        if seat.user_id not in spans:
            continue
        try:
            span = clock.away_on(now, spans[seat.user_id])
            if span is not None:
                away[seat.colour] = (span[1] - timedelta(seconds=1)).astimezone(span[1].tzinfo).date()
        except Exception:
            log.exception("game %s: the days away of user %s cannot be read", game.pk, seat.user_id)
    return away


@dataclass(frozen=True)
class MoveLine:
    ply: int
    colour: str
    words: str  # the engine's description for this viewer
    notation: str  # public_move_text for this viewer


def moves_since_last_turn(game: Game, seat: Seat) -> list[MoveLine]:
    """Every move after the seat's own last move, as that player may see it (never another's hand)."""
    last_own = game.moves.filter(seat=seat).order_by("-ply").values_list("ply", flat=True).first()
    moves = game.moves.filter(ply__gte=0 if last_own is None else last_own + 1).select_related("seat")
    return [move_line(move, seat.colour, starters_revealed=game.phase != "choose") for move in moves]


def move_line(move: Move, viewer: str, *, starters_revealed: bool) -> MoveLine:
    words = move.descriptions.get(viewer) or move.descriptions.get("*") or ""
    notation = public_move_text(parse(move.notation), move.seat.colour, starters_revealed, viewer)
    return MoveLine(ply=move.ply, colour=move.seat.colour, words=words, notation=notation)


def waiting_games(user) -> list[tuple[Game, Seat]]:
    """Active games where this user must move now, oldest deadline first."""
    seats = Seat.objects.filter(user=user, resigned=False, game__status=Game.Status.ACTIVE).select_related("game")
    waiting = [(seat.game, seat) for seat in seats if seat.colour in seat.game.to_move.split(",")]
    return sorted(waiting, key=lambda pair: pair[0].deadline or pair[0].created_at)

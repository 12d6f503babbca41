"""Game clocks: each mover's deadline, with days away stopping the clock, and the timeouts when it runs out.

The arithmetic is pure (datetimes, no database): a day away runs from local midnight to local
midnight in the player's time zone. The reads turn Game columns and the players' days away
(notifications.models.Away, in their Preference time zone) into clocks for the game page, emails,
feeds and the sweep. `time_out` resigns or abandons through games.services like any resignation;
the notifications sweep calls it every minute (docs/notifications.md).

A period whose dates cannot be turned into instants (a row from before the limits on days away, say
9999-12-31, that no date arithmetic survives) is ignored and logged once: the player counts as not
away then, and their clock runs as usual instead of being lost.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils import timezone

from games import services
from games.models import REMINDER_SHARES, Commitment, Game, Seat
from notifications.models import Away, Preference
from notifications.selectors import zone_of
from zarkcity_site.due import due_rows
from zarkcity_site.prepared import Prepared
from zarkcity_site.related import read_with

log = logging.getLogger(__name__)

Span = tuple[datetime, datetime]


# Days away never reach this far (the horizon is weeks); anything later is a row from before the limits.
# Keeping well clear of date.max also keeps every later sum (a deadline, a conversion to UTC) in range.
LAST_USABLE_DAY = date(9000, 1, 1)


@dataclass(frozen=True)
class Clock:
    """One mover's clock: when their move began, the limit, and the deadline with days away added."""

    colour: str
    user_id: int
    started_at: datetime
    limit: timedelta
    deadline: datetime
    away_until: date | None  # the last day away, when they are away right now
    spans: tuple[Span, ...] = ()

    def used(self, now: datetime) -> timedelta:
        return used_time(self.started_at, now, self.spans)

    def used_fraction(self, now: datetime) -> float:
        return self.used(now) / self.limit

    def expired(self, now: datetime) -> bool:
        return now >= self.deadline

    def reached(self, share: float, now: datetime) -> bool:
        """Whether this share of the time limit is used up by `now` (compared as times, not fractions,
        so that the sweep looking at the very instant next_check gave finds it reached)."""
        return self.used(now) >= self.limit * share

    def next_check(self, now: datetime) -> datetime | None:
        """The first instant after `now` when a reminder share or the deadline comes (None: expired)."""
        for share in (*REMINDER_SHARES, 1):
            at = deadline(self.started_at, self.limit * share, self.spans)
            if at > now:
                return at
        return None


AwayDays = tuple[date, date, datetime | None, datetime | None]  # first day, last day, added at, ended at


def away_spans(days: Iterable[AwayDays], zone: ZoneInfo, owner: object = None) -> tuple[Span, ...]:
    """Days away as merged, sorted [start, end) instants: first day 00:00 to the day after the last, local,
    starting no earlier than they were added and ending at an early return. A period that cannot be
    turned into instants is left out (see the module's docstring); `owner` only names it in the log."""
    spans = []
    for period in days:
        span = _span(period, zone, owner)
        if span is not None:
            spans.append(span)
    spans.sort()
    merged: list[Span] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return tuple(merged)


# Periods already logged as unusable, so the minutely sweep logs each once.
_reported: set[tuple[object, date, date, datetime | None, datetime | None]] = set()


def _span(period: AwayDays, zone: ZoneInfo, owner: object) -> Span | None:
    first, last, added, ended = period
    try:
        if not (date.min < first and last < LAST_USABLE_DAY):
            raise ValueError(f"outside {date.min + timedelta(days=1)} to {LAST_USABLE_DAY - timedelta(days=1)}")
        start = datetime.combine(first, time(), zone)
        end = datetime.combine(last + timedelta(days=1), time(), zone)
        start = max(start, added) if added else start
        end = min(end, ended) if ended else end
    except (OverflowError, ValueError, TypeError) as error:
        key = (owner, first, last, added, ended)
        if key not in _reported:
            _reported.add(key)
            log.warning(
                "days away %s to %s of user %s cannot be turned into instants (%s); ignored, their clock runs",
                first,
                last,
                owner,
                error,
            )
        return None
    return (start, end) if end > start else None


def paused(start: datetime, end: datetime, spans: Sequence[Span]) -> timedelta:
    """How much of [start, end) falls on days away."""
    total = timedelta()
    for away_start, away_end in spans:
        overlap = min(end, away_end) - max(start, away_start)
        if overlap > timedelta():
            total += overlap
    return total


def used_time(started_at: datetime, now: datetime, spans: Sequence[Span]) -> timedelta:
    return max(now - started_at - paused(started_at, now, spans), timedelta())


def deadline(started_at: datetime, limit: timedelta, spans: Sequence[Span]) -> datetime:
    """The instant the clock runs out: walk forward, stopping the clock on every day away."""
    moment, left = started_at, limit
    for away_start, away_end in spans:
        if away_end <= moment:
            continue
        running = away_start - moment
        if running >= left:
            break
        if running > timedelta():
            left -= running
        moment = max(moment, away_end)
    return moment + left


def away_on(now: datetime, spans: Sequence[Span]) -> Span | None:
    return next((span for span in spans if span[0] <= now < span[1]), None)


# ----------------------------------------------------------------------------- reads: days away and clocks


# A table's players' (the game page, a move's clock) and one player's (the poll's games waiting): compiled once.
_PREFERENCES = Prepared(lambda *, user_ids: Preference.objects.filter(user_id__in=user_ids))
_AWAY = Prepared(
    lambda *, user_ids: Away.objects.filter(user_id__in=user_ids).values_list(
        "user_id", "first_day", "last_day", "created_at", "ended_at"
    )
)


def spans_by_user(
    user_ids: list[int], preferences: Iterable[Preference] | None = None, *, none_away: Collection[int] = ()
) -> dict[int, tuple[Span, ...]]:
    """Each user's days away as instants in their own time zone: two queries for a whole table, one
    when their `preferences` (the saved rows among them) were read already, none more when every one of
    them is among `none_away`, the users known to have no days away at all."""
    if preferences is None:
        preferences = _PREFERENCES(user_ids=tuple(user_ids))
    zones = {p.user_id: zone_of(p) for p in preferences}
    days: dict[int, list[AwayDays]] = {user_id: [] for user_id in user_ids}
    asked = tuple(user_id for user_id in user_ids if user_id not in none_away)
    for user_id, *period in _AWAY(user_ids=asked) if asked else ():
        days[user_id].append(tuple(period))  # type: ignore[arg-type]
    spans = {}
    for user_id in user_ids:
        try:
            spans[user_id] = away_spans(days[user_id], zones.get(user_id, ZoneInfo("UTC")), owner=user_id)
        except Exception:  # anything else unforeseen must not stop the page or the sweep for the others
            # ...nor stop this player's clock: counted as never away, they are still reminded and timed out.
            log.exception("the days away of user %s cannot be read; counted as none, their clock runs", user_id)
            spans[user_id] = ()
    return spans


@dataclass(frozen=True)
class TableClocks:
    """What the game page shows of the clocks: each mover's clock, and who at the table is away."""

    clocks: list[Clock]
    away: dict[str, date]
    # Each seated player's days away as read for the clocks (user id -> spans): the page's "Next game"
    # reuses its viewer's instead of reading them again (games.selectors.turns.games_waiting).
    spans: dict[int, tuple[Span, ...]] = field(default_factory=dict)


def table_clocks(game: Game, now: datetime | None = None, *, seats: list[Seat] | None = None) -> TableClocks:
    """The movers' clocks and the table's days away from one read of the seats and their days away.

    `seats`: every seat of the game in order, read with each user's preferences (the game page has
    them, select_related "user__notification_preference"): then only the days away are read."""
    now = now or timezone.now()
    if seats is None or not all(_preference_read(seat) for seat in seats):
        seated = list(game.seats.filter(resigned=False).order_by("order"))
        spans = spans_by_user([seat.user_id for seat in seated])
    else:
        seated = [seat for seat in seats if not seat.resigned]
        saved = [p for seat in seated if (p := _saved_preference(seat)) is not None]
        # The game page's seats say whose player has no days away at all (games.selectors.page).
        none_away = {seat.user_id for seat in seated if getattr(seat, "user_has_days_away", None) is False}
        spans = spans_by_user([seat.user_id for seat in seated], saved, none_away=none_away)
    return TableClocks(_clocks(game, seated, spans, now), _away(game, seated, spans, now), spans)


def _preference_read(seat: Seat) -> bool:
    """Whether the seat's user and their preferences (or their having none) came with the seat."""
    read, user = read_with(seat, "user")
    return read and read_with(user, "notification_preference")[0]


def _saved_preference(seat: Seat) -> Preference | None:
    """The Preference row read with the seat (None: the player has none)."""
    saved: Preference | None = read_with(seat.user, "notification_preference")[1]
    return saved


def mover_clocks(game: Game, now: datetime | None = None) -> list[Clock]:
    """The clock of every player who must move now (several in the starter choice), in seat order.

    A days-away period the arithmetic cannot handle (a row from before the limits, 9999-12-31) is
    ignored and logged (`away_spans`): that player counts as not away and their clock runs, so
    the sweep still reminds and times them out. Anything else unforeseen in one player's days away
    is logged and they count as never away: every mover always has a clock. A seat whose sealed choice
    is in owes nothing (a game may keep it in Game.to_move, who has chosen being unseen): no clock.
    """
    committed = set(Commitment.objects.filter(game=game).values_list("seat__colour", flat=True))
    return [mover for mover in table_clocks(game, now).clocks if mover.colour not in committed]


def _clocks(game: Game, seats: list[Seat], spans: dict[int, tuple[Span, ...]], now: datetime) -> list[Clock]:
    if game.status != Game.Status.ACTIVE or game.turn_started_at is None or not game.to_move:
        return []
    movers = set(game.to_move.split(","))
    clocks = []
    for seat in seats:
        if seat.colour not in movers:
            continue
        try:
            clocks.append(_clock(game, seat, spans.get(seat.user_id, ()), now))
        except Exception:  # their days away broke the arithmetic: the clock runs as if they had none
            log.exception("game %s: the clock of user %s ignores their days away", game.pk, seat.user_id)
            clocks.append(_clock(game, seat, (), now))
    return clocks


def seat_clock(game: Game, seat: Seat, now: datetime | None = None) -> Clock:
    """One seat's clock, for pages and feeds outside the game page: days away that cannot be read are
    logged and count as none (`spans_by_user`), so the clock is never lost to a bad row."""
    spans = spans_by_user([seat.user_id]).get(seat.user_id, ())
    return _clock(game, seat, spans, now or timezone.now())


def _clock(game: Game, seat: Seat, spans: tuple[Span, ...], now: datetime) -> Clock:
    limit = timedelta(days=game.time_limit_days)
    started = game.turn_started_at or now
    current = away_on(now, spans)
    last_day = None
    if current is not None:
        last_day = (current[1] - timedelta(seconds=1)).astimezone(current[1].tzinfo).date()
    return Clock(
        colour=seat.colour,
        user_id=seat.user_id,
        started_at=started,
        limit=limit,
        deadline=deadline(started, limit, spans),
        away_until=last_day,
        spans=spans,
    )


def table_away(game: Game, now: datetime | None = None) -> dict[str, date]:
    """{colour: last day away} for each seated player who is away right now (a broken row: not shown)."""
    return table_clocks(game, now).away


def _away(game: Game, seats: list[Seat], spans: dict[int, tuple[Span, ...]], now: datetime) -> dict[str, date]:
    away = {}
    for seat in seats:
        try:
            span = away_on(now, spans.get(seat.user_id, ()))
            if span is not None:
                away[seat.colour] = (span[1] - timedelta(seconds=1)).astimezone(span[1].tzinfo).date()
        except Exception:
            log.exception("game %s: the days away of user %s cannot be read", game.pk, seat.user_id)
    return away


# ----------------------------------------------------------------------------- the sweep's due games

DUE_BATCH = 500  # games read by one query of the sweep; it reads batches until none is left
RETRY_TIMEOUT = timedelta(minutes=1)  # a timeout the rules refused is tried again at the next sweep


def due_games(now: datetime, batch: int = DUE_BATCH) -> Iterator[int]:
    """The ids of the games whose Game.clock_due_at has come, earliest first (zarkcity_site.due): with
    nothing due, one indexed query whatever the number of games in progress."""
    rows = Game.objects.filter(status=Game.Status.ACTIVE).only("pk", "clock_due_at")
    return (game.pk for game in due_rows(rows, "clock_due_at", now, batch))


def claim_due(game_id: int, now: datetime) -> Game | None:
    """The game, locked until the transaction ends, if its clocks are still due: None if another sweep
    holds it or a move restarted its clock since it was read (a player moving now: the next sweep)."""
    rows = Game.objects.select_for_update(skip_locked=True)
    return rows.filter(pk=game_id, status=Game.Status.ACTIVE, clock_due_at__lte=now).first()


def schedule_check(game_id: int, now: datetime, clocks: list[Clock] | None = None) -> None:
    """After the sweep's look at a game (its reminders and timeouts done): the next, at the earliest
    instant a mover reaches a reminder share or runs out; in a minute if a mover is out of time still
    (a timeout the rules refused: the next sweep tries again, as it always did). `clocks`: the movers'
    clocks as the sweep read them, when nothing changed since (else read again here)."""
    if clocks is None:
        clocks = mover_clocks(Game.objects.get(pk=game_id), now)
    checks = [mover.next_check(now) or now + RETRY_TIMEOUT for mover in clocks]
    services.clock_check_at(game_id=game_id, at=min(checks, default=None), seen=now)


# ----------------------------------------------------------------------------- timeouts


def time_out(*, game_id: int, now: datetime) -> int:
    """Players whose clock ran out (rules.md 19), re-checked under the game's lock. Where the rules
    decide for a seat out of time (`TimeoutMoves`: a decision owed inside another's turn), they play
    its step; every other such seat resigns, unless every remaining player is among them, when the
    game ends with no winner (rules.md 10): resigning them one by one would hand the win to whichever
    was left, though they were just as absent. Returns how many seats were timed out."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        # A move may have landed since the clocks were read: only movers whose time is still up count.
        late = [clock.colour for clock in mover_clocks(game, now) if clock.expired(now)]
        if game.status != Game.Status.ACTIVE or not late:
            return 0
        decided = [colour for colour in late if services.timeout_step(game=game, colour=colour)]
        for colour in decided:
            log.info("game %s: %s ran out of time; the rules made its decision", game_id, colour)
        if decided:
            game.refresh_from_db()  # the rules' steps moved it on (or ended it)
        return len(decided) + _resign_late(game, [colour for colour in late if colour not in decided])


def _resign_late(game: Game, late: list[str]) -> int:
    if not late or game.status != Game.Status.ACTIVE:
        return 0
    remaining = set(game.seats.filter(resigned=False).values_list("colour", flat=True))
    if set(late) == remaining:
        services.game_abandon(game=game, reason="timeout")
        log.info("game %s: every remaining player (%s) ran out of time; no winner", game.pk, ", ".join(late))
        return len(late)
    resigned = 0
    for colour in late:
        seat = game.seats.select_related("user").get(colour=colour)
        try:
            services.player_resign(game=game, user=seat.user, reason="timeout")
        except services.PlayError as error:  # e.g. the game ended with the previous one
            log.warning("timeout of %s in game %s refused: %s", colour, game.pk, error)
            continue
        resigned += 1
        log.info("game %s: %s ran out of time and was resigned", game.pk, colour)
    return resigned

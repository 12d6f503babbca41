"""A player's clock on one move: the time limit, minus nothing, plus every day they are away.

Pure arithmetic over datetimes (no database): `selectors.mover_clocks` feeds it Game columns and
Away rows. A day away runs from local midnight to local midnight in the player's time zone.

A period whose dates cannot be turned into instants (a row from before the limits on days away, say
9999-12-31, that no date arithmetic survives) is ignored and logged once: the player counts as not
away then, and their clock runs as usual instead of being lost.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

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


_reported: set[tuple] = set()  # periods already logged as unusable, so the minutely sweep logs each once


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

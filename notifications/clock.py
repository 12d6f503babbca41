"""A player's clock on one move: the time limit, minus nothing, plus every day they are away.

Pure arithmetic over datetimes (no database): `selectors.mover_clocks` feeds it Game columns and
Away rows. A day away runs from local midnight to local midnight in the player's time zone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

Span = tuple[datetime, datetime]


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


def away_spans(days: Iterable[AwayDays], zone: ZoneInfo) -> tuple[Span, ...]:
    """Days away as merged, sorted [start, end) instants: first day 00:00 to the day after the last, local,
    starting no earlier than they were added and ending at an early return."""
    spans = []
    for first, last, added, ended in days:
        start = datetime.combine(first, time(), zone)
        end = datetime.combine(last + timedelta(days=1), time(), zone)
        start = max(start, added) if added else start
        end = min(end, ended) if ended else end
        if end > start:
            spans.append((start, end))
    spans.sort()
    merged: list[Span] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return tuple(merged)


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

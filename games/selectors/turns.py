"""The games waiting for a player's move, least time left first: My games, the game page's "Next game"
button, the tab title's count and the poll that keeps them current.

Time left is the player's own clock (games.clock: days away stop it), so the game about to run out
comes first whatever its nominal deadline. Not exported from games.selectors: games.clock reads
games.services, which reads games.selectors.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from games import clock
from games.models import Game, Seat
from games.selectors.lists import Dashboard
from zarkcity_site.addresses import address
from zarkcity_site.prepared import Prepared


@dataclass(frozen=True)
class WaitingGame:
    """One game that waits for this player's move, and when their clock on it runs out (`deadline`)."""

    game: Game
    colour: str
    # game -> deadline, from deadline_of: the days away it needs are read when a deadline is first asked.
    clock: Callable[[Game], datetime] = field(repr=False, compare=False)

    @property
    def deadline(self) -> datetime:
        return self.clock(self.game)

    @property
    def name(self) -> str:
        return f"{self.game.rules.info.name} #{self.game.pk}"

    @property
    def url(self) -> str:
        return address("game_detail", self.game.pk)


def waiting_count(user: Any) -> int:
    """How many games wait for this player's move (one query: the tab title on every page)."""
    if not user.is_authenticated:
        return 0
    return sum(colour in to_move.split(",") for colour, to_move in _my_active_seats(user))


def games_waiting(
    user: Any, now: datetime | None = None, *, spans: tuple[clock.Span, ...] | None = None
) -> list[WaitingGame]:
    """The games where it is this player's move, least time left first (then the older game); `spans`:
    the player's days away when the caller read them already (the game page's clocks), else read only
    when a deadline is asked: to order two games or more, or by the caller."""
    waiting = _waiting(user, now, spans)
    return _in_time_left_order(waiting)


def next_waiting(user: Any, *, after: Game | None = None) -> WaitingGame | None:
    """The game to play next: the first waiting game that is not the one shown."""
    return waiting_and_next(user, after)[1]


def waiting_and_next(user: Any, shown: Game | None) -> tuple[int, WaitingGame | None]:
    """How many games wait for this player's move, and the one to play next other than `shown`. A seated
    player's poll asks it every few seconds: one query, and the days away only where two games or more
    could be next (the one with least time left goes first)."""
    waiting = _waiting(user)
    others = [w for w in waiting if shown is None or w.game.pk != shown.pk]
    ordered = _in_time_left_order(others)
    return len(waiting), ordered[0] if ordered else None


def first_other(waiting: list[WaitingGame], after: Game | None) -> WaitingGame | None:
    """The first of `waiting` that is not `after` (the game shown)."""
    return next((w for w in waiting if after is None or w.game.pk != after.pk), None)


def _waiting(user: Any, now: datetime | None = None, spans: tuple[clock.Span, ...] | None = None) -> list[WaitingGame]:
    """The games where it is this player's move, in no order."""
    if not user.is_authenticated:
        return []
    seats = _MY_ACTIVE_GAMES(user_id=user.pk)
    mine = [seat for seat in seats if seat.colour in seat.game.to_move.split(",")]
    by_deadline = deadline_of(user, now or timezone.now(), spans)
    return [WaitingGame(seat.game, seat.colour, by_deadline) for seat in mine]


def _in_time_left_order(waiting: list[WaitingGame]) -> list[WaitingGame]:
    """Least time left first, then the older game; a single game asks for no deadline (no days away read)."""
    if len(waiting) < 2:
        return waiting
    return sorted(waiting, key=lambda waiting_game: (waiting_game.deadline, waiting_game.game.pk))


def deadline_of(user: Any, now: datetime, spans: tuple[clock.Span, ...] | None = None) -> Callable[[Game], datetime]:
    """game -> when this player's clock on it runs out: their days away read once for every game, at the
    first deadline asked (none asked, none read)."""

    @functools.cache
    def away() -> tuple[clock.Span, ...]:
        return spans if spans is not None else clock.spans_by_user([user.pk]).get(user.pk, ())

    def deadline(game: Game) -> datetime:
        started = game.turn_started_at or game.started_at or now
        try:
            return clock.deadline(started, timedelta(days=game.time_limit_days), away())
        except Exception:  # days away the arithmetic cannot handle count as none (games.clock does the same)
            return clock.deadline(started, timedelta(days=game.time_limit_days), ())

    return deadline


def _my_active_seats(user: Any) -> list[tuple[str, str]]:
    return list(_my_active(user).values_list("colour", "game__to_move"))


def _my_active(user: Any) -> QuerySet[Seat]:
    """The player's seats in games in progress, less those whose sealed choice is in: they owe no move
    (a game may keep them in Game.to_move, who has chosen being unseen by the others)."""
    return _active_seats(user_id=user.pk)


def _active_seats(*, user_id: int) -> QuerySet[Seat]:
    active = {"resigned": False, "game__status": Game.Status.ACTIVE, "commitments__isnull": True}
    return Seat.objects.filter(user_id=user_id, **active)


# Every game page and seated player's poll asks it: compiled once. Without each game's snapshot, the
# position the waiting list never reads: a player of twenty games had twenty decoded on every page.
_MY_ACTIVE_GAMES = Prepared(
    lambda *, user_id: _active_seats(user_id=user_id).select_related("game").defer("game__snapshot")
)


def in_time_left_order(board: Dashboard, user: Any, now: datetime | None = None) -> Dashboard:
    """My games with "Your move" least time left first, as "Next game" takes them."""
    deadline = deadline_of(user, now or timezone.now())
    my_turn = sorted(board.my_turn, key=lambda entry: (deadline(entry.game), entry.game.pk))
    return replace(board, my_turn=my_turn)

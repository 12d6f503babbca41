"""What every write to a game in progress shares: the row lock, who may act, the cached position,
the public clock columns and how a game ends. Internal to games.services."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Exists, OuterRef

from engine.kit.core import continues_turn
from games import events
from games.models import REMINDER_SHARES, Commitment, DrawProposal, Game, Seat
from games.selectors import page
from games.selectors.sealed import waiting_on
from zarkcity_site.prepared import Prepared

from .bots import queue_bot_turn
from .errors import MoveRejected, NotAPlayer


def state_of(game: Game) -> Any:
    """The game's State after the last move, from the cached snapshot (no replay)."""
    return game.rules.from_position(game.snapshot)


# Every write to a game starts here: compiled once. Whether a draw offer is open comes with the row, so
# that a move lapses one only when there is one, not with an UPDATE on every move; none can open while
# the row is locked (draw_propose locks it too).
_LOCKED = Prepared(
    lambda *, game_id: (
        Game.objects.select_for_update()
        .filter(pk=game_id)
        .annotate(open_offer=Exists(DrawProposal.objects.filter(game=OuterRef("pk"), status=DrawProposal.Status.OPEN)))
        .order_by()
    )
)


def lock(game: Game) -> Game:
    """The game row, locked until the transaction ends: another request waits here, then sees our write.
    It carries `open_offer`: whether a draw offer was open when it was locked."""
    for locked in _LOCKED(game_id=game.pk):
        return locked
    raise Game.DoesNotExist(f"No game {game.pk}.")


def seat_of(game: Game, user: User | AnonymousUser | None, seats: list[Seat] | None = None) -> Seat | None:
    if seats is not None:
        return page.seat_of(game, user, seats)
    if user is None or not user.is_authenticated:
        return None
    return game.seats.filter(user=user).first()


def acting_seat(game: Game, user: User, seats: list[Seat] | None = None) -> Seat:
    """The seat of a player still in a game in progress, or the refusal that says why not; `seats`
    (table_of, read under the lock) saves asking the database again."""
    if game.status == Game.Status.FINISHED:
        raise MoveRejected("This game is over.")
    if game.status != Game.Status.ACTIVE:
        raise MoveRejected("This game has not started yet: it is waiting for players.")
    seat = seat_of(game, user, seats)
    if seat is None:
        raise NotAPlayer("You are not playing in this game.")
    if seat.resigned:
        raise NotAPlayer("You have left this game.")
    return seat


def owes_new_move(game: Game, before: Any, after: Any) -> bool:
    """Whether a fresh clock starts: someone new must move, or the same player faces a new step
    (placing right after the starters are revealed). A step inside one's own turn keeps the clock
    already running, as does a resignation that leaves the others still choosing in a sealed step."""
    rules = game.rules
    if not set(rules.movers(after)) <= set(rules.movers(before)):
        return True
    return rules.phase(before) != rules.phase(after) and not continues_turn(rules, before, after)


# The columns a move changes (save_position, _finish, queue_bot_turn, the ply): a move's save writes only
# these, not every column of the row (its options, seed and the rest are as they were, under the lock).
POSITION_COLUMNS = (
    "ply",
    "snapshot",
    "phase",
    "to_move",
    "turn_started_at",
    "deadline",
    "clock_due_at",
    "bot_due_at",
    "status",
    "winner",
    "result_reason",
    "finished_at",
)


def save_position(game: Game, state: Any, now: datetime, *, new_movers: bool, seats: list[Seat] | None = None) -> None:
    """The snapshot and the public columns for lists and the deadline sweep (the caller saves the row);
    the clock restarts only for a new mover, a finished game is closed and archived, and a bot to move
    gets its turn queued for after commit (`seats`: the table_of rows, when the caller read them)."""
    rules = game.rules
    game.snapshot = rules.to_position(state)
    game.phase = rules.phase(state)
    game.to_move = ",".join(waiting_on(game, state))  # a seat whose sealed choice is in waits no more
    result = rules.result(state)
    if result is not None:
        _finish(game, result.winners, result.reason, now)
    elif new_movers or game.deadline is None:
        game.turn_started_at = now
        game.deadline = now + timedelta(days=game.time_limit_days)
        # The first reminder without days away: the earliest the sweep can have anything to do here.
        game.clock_due_at = now + timedelta(days=game.time_limit_days) * REMINDER_SHARES[0]
    queue_bot_turn(game, seats, now)


def _finish(game: Game, winners: tuple[str, ...], reason: str, now: datetime) -> None:
    game.status = Game.Status.FINISHED
    game.winner = ",".join(winners)
    game.result_reason = reason
    game.finished_at = now
    game.deadline = game.clock_due_at = None
    Commitment.objects.filter(game=game).delete()  # nobody's sealed choice outlives the game, unseen
    events.publish(events.GameFinished(game=game))  # the archive's summary row and ratings, in this transaction


def lapse_draw_offer(game: Game, now: datetime) -> None:
    """The open offer, if any, lapses: settled now, by nobody. A game read by `lock` says whether one is."""
    if not getattr(game, "open_offer", True):
        return
    DrawProposal.objects.filter(game=game, status=DrawProposal.Status.OPEN).update(
        status=DrawProposal.Status.LAPSED, decided_at=now, decided_by=None
    )

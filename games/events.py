"""What the game service announces, as typed events, and who hears them (docs/service.md, "Events").

games.services publishes; the other apps subscribe in their AppConfig.ready() (notifications its
outbox rows, the archive its summary row, the games app its bot turns), so games imports none of them.
Each event type says when its subscribers run:

- `InTransaction` events run their subscribers at once, inside the write's transaction and on its
  locked rows (the event carries them): the rows a subscriber writes (notification outbox rows, the
  archive's summary) then exist exactly when the move does, which is what makes each email go out
  once. A subscriber that raises fails the write, rolled back whole, as when the service wrote those
  rows itself: a move never stands without its emails.
- `AfterCommit` events carry ids only (the rows may have changed by the time they run) and reach
  their subscribers from transaction.on_commit: a rolled-back write announces nothing. A subscriber
  that raises is logged and the others still run; the write has committed and stands.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from django.db import transaction

from games.models import DrawProposal, Game, Invitation, Move, Seat

log = logging.getLogger(__name__)


class InTransaction:
    """Heard inside the write's transaction: subscribers write rows that must commit with it."""


class AfterCommit:
    """Heard once the write has committed: subscribers hand work to a worker."""


Event = InTransaction | AfterCommit
E = TypeVar("E", bound=Event)
_subscribers: defaultdict[type[Any], list[Callable[[Any], None]]] = defaultdict(list)


@dataclass(frozen=True)
class GameEvent(InTransaction):
    """Something happened to `game`: the row as the write saved it, under its lock."""

    game: Game


class GameStarted(GameEvent):
    """The deal is done (game_start): every seat is asked for its first move."""


@dataclass(frozen=True)
class MoveMade(GameEvent):
    """A move was recorded and the game saved (a resignation's `resign` too): `before` and `after` are
    the game's own states, `seats` the table read under the lock, in seat order."""

    move: Move
    before: Any
    after: Any
    seats: list[Seat]


@dataclass(frozen=True)
class PlayerResigned(GameEvent):
    """A seat left the game, by choice or because its clock ran out (`reason` "timeout"); its
    `resign` move was announced as a MoveMade just before."""

    move: Move
    reason: str


class GameFinished(GameEvent):
    """The game has its result (a move, a resignation, a draw agreed, everyone out of time), set on
    `game` just before it is saved."""


class GameAbandoned(GameEvent):
    """Every remaining player ran out of time at once: the game ended with no winner and no move."""


class DrawAgreed(GameEvent):
    """The last remaining player accepted the open draw offer: the game ended drawn, with no move."""


@dataclass(frozen=True)
class DrawProposed(GameEvent):
    proposal: DrawProposal


@dataclass(frozen=True)
class DrawDeclined(GameEvent):
    proposal: DrawProposal
    by: Seat


@dataclass(frozen=True)
class InvitationSent(InTransaction):
    invitation: Invitation


@dataclass(frozen=True)
class BotToMove(AfterCommit):
    """A position was saved with a bot among the movers: its turn goes to a worker."""

    game_id: int
    ply: int


def subscribe(event_type: type[E], handler: Callable[[E], None]) -> None:
    """Call `handler` with every event of `event_type` published from now on (once, however often a
    ready() asks)."""
    handlers = _subscribers[event_type]
    if handler not in handlers:
        handlers.append(handler)


def publish(event: Event) -> None:
    """Announce `event`: to its subscribers now if it is InTransaction, after commit if AfterCommit."""
    if isinstance(event, AfterCommit):
        transaction.on_commit(partial(_deliver_committed, event))
        return
    for handler in tuple(_subscribers[type(event)]):
        handler(event)


def _deliver_committed(event: AfterCommit) -> None:
    for handler in tuple(_subscribers[type(event)]):
        try:
            handler(event)
        except Exception:  # the write has committed: one subscriber's trouble is logged, the rest still run
            log.exception("a subscriber to %s failed", type(event).__name__)

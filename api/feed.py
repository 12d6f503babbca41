"""The event feed (GET /api/events): what happened in the caller's games since a cursor.

Events are read from what the service already keeps, nothing extra is written: a game's start,
its current turn and its end are columns of Game (started_at, turn_started_at, finished_at), moves
and chat lines are rows with their time. Each event sorts by (time, kind, id) and the cursor is the
last such key served, so it only moves forward and a cut-short answer resumes exactly where it
stopped.

A move's row carries the time it was made, but its transaction commits a moment later, so a
reader could pass over it and never come back. The feed therefore answers only up to
API_EVENTS_SETTLE_SECONDS ago: every write older than that has committed, and nothing is skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Q
from django.db.models.fields.json import KT
from django.db.models.functions import Coalesce

from accounts.selectors import display_name_of
from api.errors import ApiError
from api.present import throws_out
from api.schemas import Event
from games.models import ChatMessage, Game, Move, Seat
from games.selectors import state_of
from games.selectors.history import public_notation

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
RANKS = {"start": 0, "turn": 1, "move": 2, "chat": 3, "end": 4}  # the order of events at the same instant
EVERY_RANK = 9  # a cursor (t, 9, 0) has served everything at t
LIMIT = 200
# A game's last move is stored a moment after the game's finished_at: look a little before the cursor.
FINISHED_MARGIN = timedelta(hours=1)
CURSOR = re.compile(r"^(\d{1,19})-(\d)-(\d{1,19})$")

Key = tuple[datetime, int, int]
# Game columns the start, turn and end events never need: the position is large, the seed secret.
SECRET_COLUMNS = ("game__snapshot", "game__seed")


@dataclass(frozen=True)
class Cursor:
    at: datetime
    rank: int
    id: int

    @property
    def key(self) -> Key:
        return (self.at, self.rank, self.id)

    def __str__(self) -> str:
        return f"{(self.at - EPOCH) // timedelta(microseconds=1)}-{self.rank}-{self.id}"

    @classmethod
    def parse(cls, text: str) -> Cursor:
        found = CURSOR.match(text.strip())
        try:
            if found is None:
                raise ValueError(text)
            micros, rank, pk = (int(part) for part in found.groups())
            return cls(EPOCH + timedelta(microseconds=micros), rank, pk)
        except (ValueError, OverflowError):  # OverflowError: a time past the year 9999
            raise ApiError(
                "invalid_request", f"{text!r} is not a cursor: send back the `cursor` of an answer."
            ) from None


@dataclass(frozen=True)
class Page:
    events: list[Event]
    cursor: Cursor
    more: bool


def events_for(*, user: User, after: Cursor | None, now: datetime) -> Page:
    """Events of the games `user` is seated in, after the cursor and up to the settle time.

    Without a cursor: a turn event for each game waiting on the user now, and the cursor to go on from."""
    upto = now - timedelta(seconds=settings.API_EVENTS_SETTLE_SECONDS)
    end = Cursor(upto, EVERY_RANK, 0)
    if after is None:
        return Page([event for _, event in _turns_waiting(user, upto)], end, False)
    if upto <= after.at:  # nothing has settled since this cursor was given
        return Page([], after, False)
    keyed = _game_events(user, after, upto) + _moves(user, after, upto) + _chat(user, after, upto)
    keyed.sort(key=lambda pair: pair[0])
    if len(keyed) > LIMIT:
        keyed = keyed[:LIMIT]
        return Page([event for _, event in keyed], Cursor(*keyed[-1][0]), True)
    return Page([event for _, event in keyed], end, False)


def _later(cursor: Cursor, rank: int, at_field: str) -> Q:
    """Rows of kind `rank` whose key (at, rank, id) comes after the cursor's."""
    later = Q(**{f"{at_field}__gt": cursor.at})
    if rank < cursor.rank:
        return later
    same_instant = Q(**{at_field: cursor.at})
    if rank == cursor.rank:
        same_instant &= Q(pk__gt=cursor.id)
    return later | same_instant


def _turns_waiting(user: User, upto: datetime) -> list[tuple[Key, Event]]:
    seats = (
        # A seat whose sealed choice is in owes no turn, though Game.to_move may keep it (unseen by the others).
        Seat.objects.filter(user=user, resigned=False, game__status=Game.Status.ACTIVE, game__turn_started_at__lte=upto)
        .filter(commitments__isnull=True)
        .select_related("game")
        .defer(*SECRET_COLUMNS)
    )
    return sorted((pair for seat in seats if (pair := _turn(seat)) is not None), key=lambda pair: pair[0])


def _turn(seat: Seat) -> tuple[Key, Event] | None:
    """The game waits on this seat: its turn began at turn_started_at (the clock restarts for each new mover)."""
    game = seat.game
    if game.status != Game.Status.ACTIVE or seat.resigned or seat.colour not in game.to_move.split(","):
        return None
    at = game.turn_started_at
    if at is None:
        return None
    return (at, RANKS["turn"], game.pk), Event(type="turn", game=game.pk, at=at, ply=game.ply, colour=seat.colour)


def _game_events(user: User, after: Cursor, upto: datetime) -> list[tuple[Key, Event]]:
    """Starts, turns (only a turn still waiting on the user) and ends: a few rows, filtered here by key."""
    window = Q()
    for field in ("started_at", "turn_started_at", "finished_at"):
        window |= Q(**{f"game__{field}__gte": after.at, f"game__{field}__lte": upto})
    found: list[tuple[Key, Event]] = []
    for seat in Seat.objects.filter(window, user=user).select_related("game").defer(*SECRET_COLUMNS):
        found += [pair for pair in (_start(seat), _turn(seat), _end(seat)) if pair is not None]
    return [(key, event) for key, event in found if after.key < key and key[0] <= upto]


def _start(seat: Seat) -> tuple[Key, Event] | None:
    at = seat.game.started_at
    if at is None:
        return None
    return (at, RANKS["start"], seat.game_id), Event(type="start", game=seat.game_id, at=at, colour=seat.colour)


def _end(seat: Seat) -> tuple[Key, Event] | None:
    game = seat.game
    if game.status != Game.Status.FINISHED or game.finished_at is None:
        return None
    at = game.finished_at
    event = Event(type="end", game=game.pk, at=at, ply=game.ply, winners=list(game.winners), reason=game.result_reason)
    return (at, RANKS["end"], game.pk), event


def _moves(user: User, after: Cursor, upto: datetime) -> list[tuple[Key, Event]]:
    """Moves of the user's games in play (or just ended), each as the user's seat may see it."""
    recent = Q(game__status=Game.Status.ACTIVE) | Q(game__finished_at__gt=after.at - FINISHED_MARGIN)
    by_colour: dict[str, list[int]] = {}
    for game_id, colour in Seat.objects.filter(recent, user=user).values_list("game_id", "colour"):
        by_colour.setdefault(colour, []).append(game_id)
    rows: list[tuple[str, Any]] = []
    for colour, game_ids in by_colour.items():
        # Only this seat's own words are read out of the JSON column (as games.selectors.history does).
        words = Coalesce(KT(f"descriptions__{colour}"), KT("descriptions__*"))
        found = (
            Move.objects.filter(_later(after, RANKS["move"], "created_at"), game_id__in=game_ids, created_at__lte=upto)
            .annotate(words=words)
            .select_related("seat__user__profile")
            .order_by("created_at", "pk")[: LIMIT + 1]
        )
        rows += [(colour, row) for row in found]
    games = Game.objects.in_bulk({row.game_id for _, row in rows})
    positions = {game_id: state_of(game) for game_id, game in games.items()}  # public text depends on the present
    return [_move_event(row, viewer, games[row.game_id], positions[row.game_id]) for viewer, row in rows]


def _move_event(row: Any, viewer: str, game: Game, now: Any) -> tuple[Key, Event]:
    mover = row.seat.colour
    event = Event(
        type="move",
        game=row.game_id,
        at=row.created_at,
        ply=row.ply,
        colour=mover,
        name=display_name_of(row.seat.user),
        text=public_notation(game, row.notation, mover, now, viewer),
        words=row.words or "",
        dice=throws_out(row.dice),  # public: only dice this move threw
    )
    return (row.created_at, RANKS["move"], row.pk), event


def _chat(user: User, after: Cursor, upto: datetime) -> list[tuple[Key, Event]]:
    """Table talk in every game the user sits at (chat goes on after a game ends)."""
    rows = (
        ChatMessage.objects.filter(
            _later(after, RANKS["chat"], "created_at"),
            game_id__in=Seat.objects.filter(user=user).values("game_id"),
            created_at__lte=upto,
        )
        .select_related("seat__user__profile")
        .order_by("created_at", "pk")[: LIMIT + 1]
    )
    return [
        (
            (row.created_at, RANKS["chat"], row.pk),
            Event(
                type="chat",
                game=row.game_id,
                at=row.created_at,
                ply=row.after_ply,
                colour=row.seat.colour,
                name=display_name_of(row.seat.user),
                text=row.text,
            ),
        )
        for row in rows
    ]

"""Play: a move, a resignation, and the end of a game nobody won on time. The game's rules come
from `game.rules` (engine/interface.py); this module holds the service's rules around them."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from engine.errors import IllegalMoveError, NotationError
from games import events
from games.models import Game, Move, Seat
from games.selectors.page import table_of

from .core import acting_seat, lapse_draw_offer, lock, owes_new_move, save_position, state_of
from .errors import MoveRejected, StaleMove

STALE = "The game moved on since you loaded this page: look at the new position and move again."


def move_submit(*, game: Game, user: User, text: str, seen_ply: int) -> Move:
    """Validate one move against the current position and append it to the log, or raise PlayError.
    A line of several steps joined by `;` (a game with `play_line`, engine/kit/steps.py) is played
    all or nothing, each step its own row; the last row is returned."""
    if ";" in text and hasattr(game.rules, "play_line"):
        return _line_submit(game=game, user=user, text=text, seen_ply=seen_ply)
    move = _parse(game, text)
    if game.rules.is_resign(move):
        return player_resign(game=game, user=user)
    with transaction.atomic():
        game = lock(game)
        if seen_ply != game.ply and (repeat := _same_move_again(game, user, move, seen_ply)):
            return repeat  # a double-click on Confirm: the first click already played it
        seats = table_of(game)
        seat = acting_seat(game, user, seats)
        if seen_ply != game.ply and not _chose_alongside(game, seat, seen_ply):
            raise StaleMove(STALE)
        before = state_of(game)
        try:
            after = game.rules.apply(before, move, seat.colour)
        except IllegalMoveError as error:
            raise MoveRejected(str(error)) from None
        if hasattr(game.rules, "canonical"):  # recorded as the game writes it (a name as first spelled)
            move = game.rules.parse(game.rules.canonical(before, str(move)))
        return _record(game, seats, seat, move, before, after)


def _line_submit(*, game: Game, user: User, text: str, seen_ply: int) -> Move:
    with transaction.atomic():
        game = lock(game)
        if seen_ply != game.ply:
            raise StaleMove(STALE)
        seats = table_of(game)
        seat = acting_seat(game, user, seats)
        before = state_of(game)
        rules: Any = game.rules  # a game with `play_line` (engine/kit/base.py's games)
        try:
            played = rules.play_line(before, text, seat.colour)
        except NotationError as error:
            raise MoveRejected(f"Cannot read that move: {error}") from None
        except IllegalMoveError as error:
            raise MoveRejected(str(error)) from None
        rows: list[Move] = []
        for step in played:
            rows.append(_record(game, seats, seat, game.rules.parse(step.text), before, step.state))
            before = step.state
        return rows[-1]


def _same_move_again(game: Game, user: User, move: Any, seen_ply: int) -> Move | None:
    """This player's first move since `seen_ply` if it is this very move: the same form posted twice
    (at `seen_ply` itself, or later when others' simultaneous moves came in between)."""
    first = game.moves.filter(ply__gte=seen_ply, seat__user=user).order_by("ply").select_related("seat").first()
    return first if first is not None and first.notation == str(move) else None


def _chose_alongside(game: Game, seat: Seat, seen_ply: int) -> bool:
    """Whether a move answering the position at `seen_ply` still stands though others moved since:
    this seat was one of several moving at once then (`simultaneous`: everyone choosing a starter) and every
    move since was another seat's, so the position it answered differs only by their choices.
    Whether the move is still legal is then up to `apply`. Replays the log: a rare path."""
    if not 0 <= seen_ply < game.ply or game.moves.filter(ply__gte=seen_ply, seat=seat).exists():
        return False
    then = _state_at(game, seen_ply)
    return game.rules.simultaneous(then) and seat.colour in game.rules.movers(then)


def _state_at(game: Game, ply: int) -> Any:
    """The State after the first `ply` moves: the deal from the seed, then each logged move applied."""
    rules = game.rules
    colours = list(game.seats.order_by("order").values_list("colour", flat=True))
    state = rules.new_game(colours, game.seed, game.options)
    for logged in game.moves.filter(ply__lt=ply).order_by("ply").select_related("seat"):
        state = rules.apply(state, rules.parse(logged.notation), logged.seat.colour)
    return state


def _parse(game: Game, text: str) -> Any:
    try:
        return game.rules.parse(text)
    except NotationError as error:
        raise MoveRejected(f"Cannot read that move: {error}") from None


def player_resign(*, game: Game, user: User, reason: str = "resignation") -> Move:
    """Leave the game (any time, any phase); recorded as that seat's `resign` so replay sees it."""
    with transaction.atomic():
        game = lock(game)
        seats = table_of(game)
        seat = acting_seat(game, user, seats)
        before = state_of(game)
        after = game.rules.resign(before, seat.colour, reason)
        seat.resigned = True  # in `seats` too: the rows below see them gone
        seat.save(update_fields=["resigned"])
        row = _record(game, seats, seat, game.rules.parse("resign"), before, after)
        events.publish(events.PlayerResigned(game=game, move=row, reason=reason))
        return row


def game_abandon(*, game: Game, reason: str = "timeout") -> Game:
    """End the game with no winner (everyone loses): every remaining player ran out of time at once,
    so resigning them one by one would crown whichever of them was left last (rules.md 10).
    Not a move in the record: its result says {"winner": null, "reason": "timeout"}."""
    with transaction.atomic():
        game = lock(game)
        if game.status != Game.Status.ACTIVE:
            raise MoveRejected("Only a game in progress can end without a winner.")
        now = timezone.now()
        save_position(game, game.rules.abandon(state_of(game), reason), now, new_movers=False)
        game.save()
        lapse_draw_offer(game, now)
        events.publish(events.GameAbandoned(game=game))
    return game


def _record(game: Game, seats: list[Seat], seat: Seat, move: Any, before: Any, after: Any) -> Move:
    """Append the move, move the snapshot on, reset the clock if someone new must move, end if over.
    `seats` is the table as read under the lock (table_of), `seat` the one among them that moved."""
    now = timezone.now()
    row = Move.objects.create(
        game=game,
        ply=game.ply,
        seat=seat,
        notation=str(move),
        descriptions=_descriptions(game, seats, move, seat, before, after),
    )
    game.ply += 1
    save_position(game, after, now, new_movers=owes_new_move(game, before, after), seats=seats)
    game.save()
    lapse_draw_offer(game, now)  # a draw was offered for a position that no longer exists
    events.publish(events.MoveMade(game=game, move=row, before=before, after=after, seats=seats))
    return row


def _descriptions(game: Game, seats: list[Seat], move: Any, seat: Seat, before: Any, after: Any) -> dict[str, str]:
    """The public words under "*", plus each player's own version ("you drew 9D"), in seat order."""
    describe = game.rules.describe
    texts = {"*": describe(move, seat.colour, before, after, None)}
    return texts | {s.colour: describe(move, seat.colour, before, after, s.colour) for s in seats}

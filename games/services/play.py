"""Play: a move, a resignation, and the end of a game nobody won on time. The game's rules come
from `game.rules` (engine/interface.py); this module holds the service's rules around them."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from engine.errors import IllegalMoveError, NotationError
from engine.interface import Event, thrown
from engine.kit.core import Sealed, timeout_move
from engine.kit.steps import Played, play_line, read_line
from games import events
from games.models import Commitment, Game, Move, Seat
from games.selectors.page import table_of
from games.selectors.sealed import sealed_step

from .core import POSITION_COLUMNS, acting_seat, lapse_draw_offer, lock, owes_new_move, save_position, state_of
from .errors import MoveRejected, StaleMove

STALE = "The game moved on since you loaded this page: look at the new position and move again."


def move_submit(*, game: Game, user: User, text: str, seen_ply: int) -> Move | Commitment:
    """Validate a line of one or more steps (`;` between them, games.md) against the current position
    and append each step to the log as its own ply, all or nothing, or raise PlayError naming the step.
    Returns the line's last move; in a sealed step, the seat's commitment until the last one arrives."""
    steps = _read(game, text)
    if len(steps) == 1 and game.rules.is_resign(steps[0]):
        return player_resign(game=game, user=user)
    if len(steps) > 1 and any(game.rules.is_resign(step) for step in steps):
        raise MoveRejected("Resign on a line of its own: a resignation ends your part in the game.")
    with transaction.atomic():
        game = lock(game)
        if seen_ply != game.ply and (repeat := _same_move_again(game, user, steps[0], seen_ply)):
            return repeat  # a double-click on Confirm: the first click already played it
        seats = table_of(game)
        seat = acting_seat(game, user, seats)
        if seen_ply != game.ply:
            raise StaleMove(STALE)
        before = state_of(game)
        if seat.colour in sealed_step(game, before):
            return _commit(game, seats, seat, steps, before)
        try:
            played = play_line(game.rules, before, text, seat.colour)
        except (IllegalMoveError, NotationError) as error:
            raise MoveRejected(str(error)) from None
        return _record_line(game, seats, seat, before, played)


def _same_move_again(game: Game, user: User, move: Any, seen_ply: int) -> Move | None:
    """This player's first move since `seen_ply` if it is this very move (a line's first step): the
    same form posted twice (at `seen_ply` itself, or after the sealed step it answered was resolved)."""
    first = game.moves.filter(ply__gte=seen_ply, seat__user=user).order_by("ply").select_related("seat").first()
    return first if first is not None and first.notation == str(move) else None


# ----------------------------------------------------------------------------- sealed steps


def _commit(game: Game, seats: list[Seat], seat: Seat, steps: list[Any], before: Any) -> Move | Commitment:
    """`seat`'s secret choice in a sealed step, held unseen (a Commitment row; the snapshot and the ply
    stay as they are) until the last seat commits: then one apply resolves them all, in this transaction.
    Nobody is told of a commitment: no move is recorded, no email written; the game stops waiting on the
    seat (Game.to_move), so its clock no longer runs."""
    if len(steps) != 1:
        raise MoveRejected("A secret choice is one step: send it on a line of its own.")
    move = steps[0]
    held = list(Commitment.objects.filter(game=game).select_related("seat"))
    mine = next((c for c in held if c.seat_id == seat.pk), None)
    if mine is not None:
        if mine.notation == str(move):
            return mine  # the same choice sent twice (a double-click, a retried request)
        raise MoveRejected("Your choice is made and sealed: it cannot be changed.")
    rules = game.rules
    assert isinstance(rules, Sealed)  # sealed_step found seats to commit
    try:
        rules.check_commitment(before, seat.colour, move)
    except IllegalMoveError as error:
        raise MoveRejected(str(error)) from None
    row = Commitment.objects.create(game=game, seat=seat, ply=game.ply, notation=str(move))
    resolved = _resolve_if_complete(game, seats, before, [*held, row])
    if resolved is not None:
        return resolved
    save_position(game, before, timezone.now(), new_movers=False, seats=seats)  # who is still waited on
    game.save()
    return row


def _resolve_if_complete(game: Game, seats: list[Seat], before: Any, held: list[Commitment]) -> Move | None:
    """When every seat of the sealed step has committed: one apply of them all (`Sealed.resolve`), each
    commitment appended as its seat's move in arrival order, the game saved and announced once."""
    rules = game.rules
    assert isinstance(rules, Sealed)
    by_colour = {c.seat.colour: c for c in held}
    if not held or not set(rules.sealed_seats(before)) <= set(by_colour):
        return None
    table = {s.pk: s for s in seats}
    moves = {colour: rules.parse(c.notation) for colour, c in by_colour.items()}
    resolved = rules.resolve(before, moves)
    after = resolved.state
    rows = []
    for number, (colour, move) in enumerate(moves.items(), start=1):
        seat = table[by_colour[colour].seat_id]
        # Each choice is described as made face down, the last one with the reveal (and any throw) that followed it.
        last = number == len(moves)
        shown = after if last else before
        said = _descriptions(game, seats, move, seat, before, shown)
        rows.append(_append(game, seat, move, said, resolved.events if last else ()))
    Commitment.objects.filter(game=game).delete()
    return _saved(game, seats, rows[-1], before, after)


def _read(game: Game, text: str) -> list[Any]:
    """Every step of the line, read before anything is locked: a typo is refused whatever the position."""
    try:
        return [move for _, moves in read_line(game.rules, text) for move in moves]
    except NotationError as error:
        raise MoveRejected(f"Cannot read that move: {error}") from None


def player_resign(*, game: Game, user: User, reason: str = "resignation") -> Move:
    """Leave the game (any time, any phase); recorded as that seat's `resign` so replay sees it."""
    with transaction.atomic():
        game = lock(game)
        seats = table_of(game)
        seat = acting_seat(game, user, seats)
        before = state_of(game)
        resigned = game.rules.step(before, game.rules.parse("resign"), seat.colour)  # what leaving threw
        after = game.rules.resign(before, seat.colour, reason)
        seat.resigned = True  # in `seats` too: the rows below see them gone
        seat.save(update_fields=["resigned"])
        _withdraw_commitment(game, seat)
        row = _record(game, seats, seat, game.rules.parse("resign"), before, after, resigned.events)
        events.publish(events.PlayerResigned(game=game, move=row, reason=reason))
        if game.status == Game.Status.ACTIVE and sealed_step(game, after):
            # The seat everyone else's commitments waited on has left: theirs are resolved now.
            _resolve_if_complete(game, seats, after, list(Commitment.objects.filter(game=game).select_related("seat")))
        return row


def timeout_step(*, game: Game, colour: str) -> Move | None:
    """The step the game's rules play for `colour`, whose time ran out, instead of resigning it
    (`TimeoutMoves`: a decision owed inside another's turn); None where the rules have none."""
    with transaction.atomic():
        game = lock(game)
        seats = table_of(game)
        seat = next(seat for seat in seats if seat.colour == colour)
        before = state_of(game)
        move = timeout_move(game.rules, before, colour) if game.status == Game.Status.ACTIVE else None
        if move is None:
            return None
        timed_out = game.rules.step(before, move, colour)
        return _record(game, seats, seat, move, before, timed_out.state, timed_out.events)


def _withdraw_commitment(game: Game, seat: Seat) -> None:
    """A seat that leaves takes its sealed choice with it: unseen, it never happened (its card stays in
    its hand, which the game's rules for leaving then deal with)."""
    Commitment.objects.filter(game=game, seat=seat).delete()


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


def _record_line(game: Game, seats: list[Seat], seat: Seat, before: Any, played: list[Played[Any]]) -> Move:
    """Append each step of a line as its own ply, then move the snapshot on once and announce the
    line once (one "your turn" for whoever moves next, not one per step)."""
    rows, state = [], before
    for step in played:
        move = game.rules.parse(_canonical(game, state, step.text))
        rows.append(_append(game, seat, move, _descriptions(game, seats, move, seat, state, step.state), step.events))
        state = step.state
    return _saved(game, seats, rows[-1], before, state)


def _canonical(game: Game, state: Any, text: str) -> str:
    """A step as the game records it where the spelling depends on the position (a system's name as
    first written): the game's `canonical(state, text)`, when it has one."""
    canonical = getattr(game.rules, "canonical", None)
    return str(canonical(state, text)) if canonical is not None else text


def _append(game: Game, seat: Seat, move: Any, descriptions: dict[str, str], events: tuple[Event, ...]) -> Move:
    """The step's row: its words, and the dice its events threw (public: only dice already thrown)."""
    dice = thrown(events)
    row = Move.objects.create(
        game=game, ply=game.ply, seat=seat, notation=str(move), descriptions=descriptions, dice=dice
    )
    game.ply += 1
    return row


def _saved(game: Game, seats: list[Seat], last: Move, before: Any, after: Any) -> Move:
    """The snapshot moved on after the rows up to `last`: the clock reset if someone new must move,
    the game ended if it is over, a draw offer lapsed, the move announced."""
    now = timezone.now()
    save_position(game, after, now, new_movers=owes_new_move(game, before, after), seats=seats)
    game.save(update_fields=POSITION_COLUMNS)
    lapse_draw_offer(game, now)  # a draw was offered for a position that no longer exists
    events.publish(events.MoveMade(game=game, move=last, before=before, after=after, seats=seats))
    return last


def _record(
    game: Game, seats: list[Seat], seat: Seat, move: Any, before: Any, after: Any, events: tuple[Event, ...]
) -> Move:
    """Append one move and save the game (`seats`: the table as read under the lock, `seat` the one
    among them that moved, `events` what the step did)."""
    row = _append(game, seat, move, _descriptions(game, seats, move, seat, before, after), events)
    return _saved(game, seats, row, before, after)


def _descriptions(game: Game, seats: list[Seat], move: Any, seat: Seat, before: Any, after: Any) -> dict[str, str]:
    """The public words under "*", plus each player's own version ("you drew 9D"), in seat order."""
    describe = game.rules.describe
    texts = {"*": describe(move, seat.colour, before, after, None)}
    return texts | {s.colour: describe(move, seat.colour, before, after, s.colour) for s in seats}

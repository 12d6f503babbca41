"""A game at any ply, rebuilt by replaying its move log from the seed: the engine's replay as a fold.

The states this module computes are the whole truth (hands, deck order, seed). They never leave
it: `frame` turns one into what the viewer may see. A finished game's full states are public;
for a game in progress a player sees the public view plus their own hand at that ply, a
spectator the public view only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.zarkcity.describe import describe, drawn_cards
from engine.zarkcity.notation import Build, Choose, Convert, Demolish, Discard, Fly, Hatch, Move, parse
from engine.zarkcity.position import revealed_list
from engine.zarkcity.record import check_result
from engine.zarkcity.rules import apply, new_game
from engine.zarkcity.state import State
from engine.zarkcity.views import public_move_text, view
from games.models import Game, Seat
from games.models import Move as MoveRow
from games.selectors import NO_WINNER_ON_TIME


@dataclass(frozen=True)
class LoggedMove:
    ply: int  # 0-based index in the record: the move that turns frame `ply` into frame `ply + 1`
    by: str
    move: Move


@dataclass
class Frame:
    """The game after `ply` moves, as one viewer may see it."""

    ply: int
    last_ply: int
    view: dict[str, Any]
    full: bool  # every hand and the deck order are shown (the game is over)
    move: LoggedMove | None = None  # the move that led here (None at ply 0, the deal)
    move_text: str = ""
    words: str = ""
    drawn: dict[str, list[str]] = field(default_factory=dict)  # full frames: the cards each player drew
    ending: str = ""  # on the last frame: an end that is no move (closing_words)


def logged_moves(game: Game) -> list[LoggedMove]:
    colours = dict(Seat.objects.filter(game=game).values_list("pk", "colour"))
    rows = MoveRow.objects.filter(game=game).order_by("ply").values_list("ply", "seat_id", "notation")
    return [LoggedMove(ply, colours[seat_id], parse(notation)) for ply, seat_id, notation in rows]


def seat_colours(game: Game) -> list[str]:
    return list(Seat.objects.filter(game=game).order_by("order").values_list("colour", flat=True))


def states_until(game: Game, players: list[str], moves: list[LoggedMove], ply: int) -> list[State]:
    """States 0..ply: the deal from the seed, then `apply` of each logged move in order.

    The game's end is part of the last state: a timeout was logged as the loser's `resign`, and an
    agreed draw is no move at all, so the stored result finishes the fold (as record.check_result does).
    """
    states = played_states(game, players, moves, ply)
    if ply == len(moves):
        states[-1] = with_result(game, states[-1], len(moves))
    return states


def played_states(game: Game, players: list[str], moves: list[LoggedMove], ply: int) -> list[State]:
    """States 0..ply as the moves alone left them: an agreed draw is not in them yet."""
    states = [new_game(players, game.seed, game.deck)]
    for logged in moves[:ply]:
        states.append(apply(states[-1], logged.move, logged.by))
    return states


def with_result(game: Game, state: State, plies: int) -> State:
    """The state after the last move, finished as the stored result says (unchanged while the game is on)."""
    if game.status != Game.Status.FINISHED:
        return state
    return check_result(state, {"winner": game.winner or None, "reason": game.result_reason}, plies)


def closing_words(game: Game) -> str:
    """An end that is no move, as its own event after the last move ("" if the game did not end so):
    an agreed draw, or no winner because every remaining player ran out of time at once
    (games.services.game_abandon).

    It is not a consequence of the last move: words glued to that move would blame it (a resignation,
    say) for the draw. A player who resigned before took no part in it.
    """
    if game.status != Game.Status.FINISHED:
        return ""
    if not game.winner and game.result_reason == Game.Reason.TIMEOUT:
        return NO_WINNER_ON_TIME
    if game.result_reason != Game.Reason.DRAW:
        return ""
    seats = list(Seat.objects.filter(game=game).order_by("order").values_list("colour", "resigned"))
    remaining = [colour for colour, resigned in seats if not resigned]
    who = " and ".join(remaining) if len(remaining) < len(seats) else "every player"
    return f"The game ends in a draw, agreed by {who}."


def frame(game: Game, ply: int, viewer: str | None) -> Frame:
    """Ply `ply` (0 = after the deal) of `game` for `viewer` (a seated colour, or None)."""
    players = seat_colours(game)
    moves = logged_moves(game)
    ply = max(0, min(ply, len(moves)))
    states = played_states(game, players, moves, ply)
    finished = game.status == Game.Status.FINISHED
    played = states[-1]
    last = ply == len(moves)
    state = with_result(game, played, len(moves)) if last else played
    shown = full_view(state) if finished else view(state, viewer)
    result = Frame(ply=ply, last_ply=len(moves), view=shown, full=finished)
    if last:
        result.ending = closing_words(game)
    if ply > 0:
        logged, before = moves[ply - 1], states[-2]
        # The move's own words: an agreed draw came after it, so it is described from the state the move left.
        after = played if result.ending else state
        result.move = logged
        result.move_text = move_text(logged, finished, _revealed_now(game), viewer)
        result.words = describe(logged.move, logged.by, before, after, None if finished else viewer)
        if finished:
            result.drawn = cards_drawn(logged, before, state)
    return result


def full_view(state: State) -> dict[str, Any]:
    """The whole truth at one ply of a finished game: the public view plus every hand, the deck and starters."""
    shown = view(state, None)
    shown |= {
        "hands": {colour: list(state.hands.get(colour, ())) for colour in state.players},
        "deck": list(state.deck),
        "seed": state.seed,
        "shuffles": state.shuffles,
        "revealed": revealed_list(state),
    }
    shown["starters"] = dict(shown["starters"], revealed=[[c, card] for c, card in state.starters])
    shown["starters"].pop("mine", None)
    return shown


def move_text(logged: LoggedMove, finished: bool, starters_revealed: bool, viewer: str | None) -> str:
    if finished:
        return str(logged.move)
    return public_move_text(logged.move, logged.by, starters_revealed, viewer)


def move_list(game: Game, viewer: str | None) -> list[tuple[int, str, str]]:
    """(ply after the move, colour, text) for every move, as this viewer may read it: the replay's index."""
    moves = logged_moves(game)
    finished = game.status == Game.Status.FINISHED
    revealed = finished or _revealed_now(game)
    return [(m.ply + 1, m.by, move_text(m, finished, revealed, viewer)) for m in moves]


def _revealed_now(game: Game) -> bool:
    """Whether the starters are public now: once the game has left the hidden choose phase."""
    return game.status == Game.Status.FINISHED or (game.phase or "choose") != "choose"


def spent_cards(move: Move) -> tuple[str, ...]:
    """The cards a move takes out of the mover's hand (to the board, the discard pile or face down)."""
    if isinstance(move, (Choose, Build, Hatch)):
        return (move.card,)
    if isinstance(move, (Demolish, Convert)):
        return move.pay
    if isinstance(move, Fly):
        return (move.ace,)
    if isinstance(move, Discard):
        return move.cards
    return ()


def cards_drawn(logged: LoggedMove, before: State, after: State) -> dict[str, list[str]]:
    """Every player's drawn cards in one move of a finished game (the next turn's draw included)."""
    drawn = {}
    for colour in after.players:
        spent = spent_cards(logged.move) if colour == logged.by else ()
        if colour in after.resigned and colour not in before.resigned:
            continue  # a resigning hand went to the discard pile; nothing was drawn
        cards = drawn_cards(colour, before, after, spent)
        if cards:
            drawn[colour] = cards
    return drawn

"""A game at any ply, rebuilt by replaying its move log from the seed: the engine's replay as a fold.

The states this module computes are the whole truth (hands, deck order, seed). They never leave
it: `frame` turns one into what the viewer may see. A finished game's full states are public;
for a game in progress a player sees the public view plus their own hand at that ply, a
spectator the public view only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.interface import Card, Table, View, drawn
from engine.interface import Game as GameRules
from engine.kit.core import all_revealed, card_of, finished_words, hand_svg, public_text
from games.models import Game, Seat
from games.models import Move as MoveRow
from games.selectors import NO_WINNER_ON_TIME

State = Any  # the game's own State: held opaquely, handed back to its rules (engine/interface.py)


@dataclass(frozen=True)
class LoggedMove:
    ply: int  # 0-based index in the record: the move that turns frame `ply` into frame `ply + 1`
    by: str
    move: Any  # the game's own Move value


@dataclass(frozen=True)
class Hand:
    colour: str
    cards: tuple[Card, ...]
    svg: str  # the game's picture of the hand ("" for none)


@dataclass
class Frame:
    """The game after `ply` moves, as one viewer may see it: only through the game's rules."""

    ply: int
    last_ply: int
    view: View  # the whole truth once the game is over (rules.reveal), else the viewer's own view
    table: Table  # its notes: the deck and discard pile; once over, the deck order, reshuffles and every hand
    full: bool  # every hand and the deck order are shown (the game is over)
    hands: list[Hand] = field(default_factory=list)
    move: LoggedMove | None = None  # the move that led here (None at ply 0, the deal)
    move_text: str = ""
    words: str = ""
    drawn: dict[str, list[str]] = field(default_factory=dict)  # full frames: the cards each player drew
    ending: str = ""  # on the last frame: an end that is no move (closing_words)


def logged_moves(game: Game) -> list[LoggedMove]:
    colours = dict(Seat.objects.filter(game=game).values_list("pk", "colour"))
    rows = MoveRow.objects.filter(game=game).order_by("ply").values_list("ply", "seat_id", "notation")
    rules = game.rules
    return [LoggedMove(ply, colours[seat_id], rules.parse(notation)) for ply, seat_id, notation in rows]


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
    rules = game.rules
    states = [rules.new_game(players, game.seed, game.options)]
    for logged in moves[:ply]:
        states.append(rules.apply(states[-1], logged.move, logged.by))
    return states


def with_result(game: Game, state: State, plies: int) -> State:
    """The state after the last move, finished as the stored result says (unchanged while the game is on)."""
    if game.status != Game.Status.FINISHED:
        return state
    # The result as the game's own record writes it (one winner, a tie, scores), read off the final position.
    result = game.rules.record_result(game.rules.from_position(game.snapshot)) if game.snapshot else None
    if result is None:
        result = {"winner": game.winner or None, "reason": game.result_reason}
    return game.rules.check_result(state, result, plies)


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
    rules = game.rules
    players = seat_colours(game)
    moves = logged_moves(game)
    ply = max(0, min(ply, len(moves)))
    states = played_states(game, players, moves, ply)
    finished = game.status == Game.Status.FINISHED
    played = states[-1]
    last = ply == len(moves)
    state = with_result(game, played, len(moves)) if last else played
    # A finished game's whole truth is public (rules.md 11): every hand, the deck order, the reshuffles.
    shown = all_revealed(rules, state) if finished else rules.view(state, viewer)
    result = Frame(ply=ply, last_ply=len(moves), view=shown, table=rules.table(shown), full=finished)
    result.hands = hands(rules, state, players if finished else [viewer] if viewer else [])
    if last:
        result.ending = closing_words(game)
    if ply > 0:
        logged, before = moves[ply - 1], states[-2]
        # The move's own words: an agreed draw came after it, so it is described from the state the move left.
        after = played if result.ending else state
        result.move = logged
        # Public text as the game stands now (a starter chosen then may be revealed by now).
        result.move_text = move_text(rules, logged, finished, rules.from_position(game.snapshot), viewer)
        result.words = (
            finished_words(rules, logged.move, logged.by, before, after)
            if finished
            else rules.describe(logged.move, logged.by, before, after, viewer)
        )
        if finished:  # every hand is public now: each draw's cards, as the step's events recorded them
            result.drawn = drawn(rules.step(before, logged.move, logged.by).events)
    return result


def hand_of(rules: GameRules, state: State, colour: str) -> tuple[str, ...]:
    """A player's cards at this state: their own view's hand (the only way the interface shows a hand)."""
    return rules.table(rules.view(state, colour)).hand


def hands(rules: GameRules, state: State, colours: list[str]) -> list[Hand]:
    """Each of these players' hands, with the game's card labels and hand picture."""
    shown = []
    for colour in colours:
        own = rules.view(state, colour)
        cards = rules.table(own).hand
        shown.append(Hand(colour, tuple(card_of(rules, c) for c in cards), hand_svg(rules, own) if cards else ""))
    return shown


def move_text(rules: GameRules, logged: LoggedMove, finished: bool, now: State, viewer: str | None) -> str:
    if finished:
        return str(logged.move)
    return public_text(rules, logged.move, logged.by, now, viewer)


def move_list(game: Game, viewer: str | None) -> list[tuple[int, str, str]]:
    """(ply after the move, colour, text) for every move, as this viewer may read it: the replay's index."""
    rules = game.rules
    moves = logged_moves(game)
    finished = game.status == Game.Status.FINISHED
    now = rules.from_position(game.snapshot) if game.snapshot else None
    return [(m.ply + 1, m.by, move_text(rules, m, finished or now is None, now, viewer)) for m in moves]

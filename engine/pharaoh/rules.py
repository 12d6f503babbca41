"""Pharaoh's rules (pharaoh.md): the throw, entering and moving paid from its points, captures,
the automatic end of a turn and the goal-line win. Every function is pure; `play` says what
happened as events.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import IllegalMoveError
from ..kit import draw
from ..kit.events import Event, Outcome
from ..shuffle import shuffled
from .board import NAMES, NEIGHBOURS, PIPS, edge_cells, goal_lines, step_cost
from .notation import Enter, Move, Pass, Step
from .state import Piece, State

FACES = (1, 2, 3, 4, 5, 6)
THROW_SHUFFLES = 100  # throw k of the game is the first face of shuffle number 100 + k


def first_player(players: Sequence[str], seed: str) -> str:
    """REC-P3: who starts is drawn from the seed ("players roll")."""
    return shuffled(players, seed, 0)[0]


def die(seed: str, number: int) -> int:
    """Throw number `number` of the game (0, 1, ... over the whole game)."""
    return shuffled(FACES, seed, THROW_SHUFFLES + number)[0]


def new_game(players: Sequence[str], seed: str) -> Outcome[State]:
    seats = tuple(players)
    starter = first_player(seats, seed)
    empty = State(seats, seed, starter, None, 0, 0, (), 0)
    thrown = throw_for(empty, starter)
    return Outcome(thrown.state, (Event("start", f"{starter} starts", starter), *thrown.events))


# --- the turn ---------------------------------------------------------------------------------


def throw_for(state: State, seat: str) -> Outcome[State]:
    """`seat` throws the die; a throw that pays for nothing legal ends the turn at once (it still
    counts as thrown), and the next seat throws. Some seat always can: a throw of 6 moves a Large."""
    events: list[Event] = []
    while True:
        points = die(state.seed, state.dice)
        state = state.evolve(to_move=seat, throw=points, points=points, dice=state.dice + 1)
        die_shown = (draw.Die(0, 0, str(points), title=f"{seat}'s die"),)
        events.append(Event("throw", f"{seat} threw {points}", seat, {"dice": [points]}, dice=die_shown))
        if legal_steps(state, seat):
            return Outcome(state, tuple(events))
        events.append(_turn_end(seat, points))
        seat = next_seat(state, seat)


def _turn_end(seat: str, points: int) -> Event:
    left = {0: "no points left", 1: "1 point left pays for no step"}.get(
        points, f"{points} points left pay for no step"
    )
    return Event("turn-end", f"{seat}'s turn ends: {left}", seat, {"points": points})


def next_seat(state: State, seat: str) -> str:
    """The next seat in order after `seat` that has not resigned."""
    order = state.players
    start = order.index(seat)
    return next(p for p in order[start + 1 :] + order[: start + 1] if p not in state.resigned)


def movers(state: State) -> tuple[str, ...]:
    return () if state.over or state.to_move is None else (state.to_move,)


# --- legal steps ------------------------------------------------------------------------------


def legal_steps(state: State, seat: str) -> list[Move]:
    """Every step `seat` may take now but `pass`: entries, then moves, each sorted by text."""
    if seat not in movers(state):
        return []
    edge = edge_cells(state.players, seat)
    entries: list[Move] = [Enter(size, cell) for size in state.supply(seat) for cell in edge]
    mine = [cell for cell, piece in state.board if piece.colour == seat]
    moves: list[Move] = [Step(cell, end) for cell in mine for end in NEIGHBOURS[cell]]
    return _legal_sorted(state, entries, seat) + _legal_sorted(state, moves, seat)


def _legal_sorted(state: State, steps: list[Move], seat: str) -> list[Move]:
    return sorted((m for m in steps if not isinstance(m, Pass) and _refusal(state, m, seat) is None), key=str)


def legal_moves(state: State, seat: str) -> list[Move]:
    """The listing of pharaoh.md: entries, cell steps, then `pass` for the player to move."""
    if seat not in movers(state):
        return []
    return [*legal_steps(state, seat), Pass()]


def cost(state: State, move: Enter | Step) -> int:
    if isinstance(move, Enter):
        return PIPS[move.size]  # REC-P5: what one orthogonal step of that piece costs
    piece = state.at(move.start)
    assert piece is not None
    return step_cost(piece.size, move.start, move.end)


def _refusal(state: State, move: Enter | Step, seat: str) -> str | None:
    """Why `seat` may not take `move` now, or None when it is legal."""
    if isinstance(move, Enter):
        if move.size not in state.supply(seat):
            return f"your {NAMES[move.size]} is on the board, not in your supply"
        if move.cell not in edge_cells(state.players, seat):
            return f"{move.cell} is not on your edge ({' '.join(edge_cells(state.players, seat))})"
        size, destination = move.size, move.cell
    else:
        piece = state.at(move.start)
        if piece is None or piece.colour != seat:
            return f"you have no piece on {move.start}"
        if move.end not in NEIGHBOURS[move.start]:
            return f"{move.end} is not next to {move.start}: a piece moves one cell per step (no hopping)"
        size, destination = piece.size, move.end
    return _landing(state, size, destination, seat) or _payment(state, move)


def _landing(state: State, size: str, cell: str, seat: str) -> str | None:
    there = state.at(cell)
    if there is None:
        return None
    if there.colour == seat:
        return f"your own {NAMES[there.size]} stands on {cell}"
    if PIPS[there.size] > PIPS[size]:
        return f"{there.colour}'s {NAMES[there.size]} on {cell} is larger than your {NAMES[size]}"
    return None


def _payment(state: State, move: Enter | Step) -> str | None:
    price = cost(state, move)
    if price > state.points:
        left = "1 point" if state.points == 1 else f"{state.points} points"
        return f"{move} costs {price} and you have {left} left"
    return None


# --- playing a step ---------------------------------------------------------------------------


def play(state: State, move: Move, by: str) -> Outcome[State]:
    if by not in movers(state):
        raise IllegalMoveError(f"it is {state.to_move}'s turn, not {by}'s")
    if isinstance(move, Pass):
        passed = Event("pass", f"{by} passes", by, {"points": state.points})
        thrown = throw_for(state, next_seat(state, by))
        return Outcome(thrown.state, (passed, *thrown.events))
    refusal = _refusal(state, move, by)
    if refusal is not None:
        raise IllegalMoveError(refusal)
    return _after_step(*_moved(state, move, by), by)


def _moved(state: State, move: Enter | Step, by: str) -> tuple[State, Event]:
    squares, price = dict(state.squares), cost(state, move)
    if isinstance(move, Enter):
        piece, destination = Piece(by, move.size), move.cell
    else:
        piece, destination = squares.pop(move.start), move.end
    taken = squares.get(destination)
    squares[destination] = piece  # REC-P6: a captured piece leaves the board, so it is in its supply again
    moved = state.with_board(squares).evolve(points=state.points - price)
    kind = "enter" if isinstance(move, Enter) else "move"
    data: dict[str, object] = {"cell": destination, "cost": price}
    if taken is None:
        return moved, Event(kind, f"{by} {move}", by, data)
    data["captured"] = str(taken)
    return moved, Event("capture", f"{by} {move} captures {taken.colour}'s {taken.size}", by, data)


def _after_step(state: State, step: Event, by: str) -> Outcome[State]:
    """REC-P11: the win is checked after every step; REC-P7: a capture does not stop the piece;
    the turn ends by itself once `pass` is the only legal step."""
    line = won_line(state, by)
    if line is not None:
        ended = state.evolve(winner=by, reason="goal-line", to_move=None)
        return Outcome(ended, (step, Event("end", f"{by} wins: goal-line {' '.join(line)}", by, {"line": list(line)})))
    if legal_steps(state, by):
        return Outcome(state, (step,))
    thrown = throw_for(state, next_seat(state, by))
    return Outcome(thrown.state, (step, _turn_end(by, state.points), *thrown.events))


def won_line(state: State, seat: str) -> tuple[str, str, str] | None:
    """The counting goal-line `seat`'s three pieces fill, if any (any order of sizes)."""
    mine = {cell for cell, piece in state.board if piece.colour == seat}
    return next((line for line in goal_lines(len(state.players)) if mine == set(line)), None)


# --- leaving and ending -----------------------------------------------------------------------


def leave(state: State, seat: str) -> Outcome[State]:
    """`seat`'s pieces leave the board for good and turn order skips them; if it was their turn,
    the next seat throws (unless only one seat is left: the kit ends the game)."""
    squares = {cell: piece for cell, piece in state.board if piece.colour != seat}
    left = state.with_board(squares).evolve(resigned=(*state.resigned, seat))
    if state.to_move != seat:
        return Outcome(left)
    if len(left.active_players()) < 2:
        return Outcome(left.evolve(to_move=None))
    return throw_for(left, next_seat(left, seat))


def finish(state: State, winners: tuple[str, ...], reason: str) -> State:
    return state.evolve(winner=winners[0] if winners else None, reason=reason, to_move=None)

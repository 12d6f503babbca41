"""The Martian Chess rules as pure functions: setup, who starts, moves, promotions, the end and the score.

Every rule is martian_chess.md's; the rulings the page leaves open are in docs/rules.md (Martian Chess).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import IllegalMoveError, PositionError
from ..interface import COLOURS, Result
from ..kit.events import Event, Outcome
from ..shuffle import shuffled
from . import events
from .board import NAMES, PATTERNS, Cell, cell_name, fits_pattern, line, on_board, setup, zone_of
from .notation import Move, Pass, Step
from .state import PLAYER_COUNTS, State

# --- setup ------------------------------------------------------------------------------------------


def seating(players: Sequence[str]) -> tuple[str, ...]:
    seats = tuple(players)
    if len(seats) not in PLAYER_COUNTS:
        raise PositionError(f"Martian Chess seats 2 or 4 players, not {len(seats)}")
    for colour in seats:
        if colour not in COLOURS:
            raise PositionError(f"{colour!r} is not a player colour (red, yellow, green, blue or black)")
    if len(set(seats)) != len(seats):
        raise PositionError("each player needs a different colour")
    return seats


def first_player(players: Sequence[str], seed: str) -> str:
    """The red Queen drawn from the bag: the first of the players shuffled by shuffle number 0."""
    return shuffled(tuple(players), seed, 0)[0]


def new_game(players: Sequence[str], seed: str) -> State:
    seats = seating(players)
    return State(
        players=seats,
        board=setup(len(seats)),
        to_move=first_player(seats, seed),
        captured={colour: () for colour in seats},
        seed=seed,
    )


# --- which moves are legal --------------------------------------------------------------------------


def landing(state: State, colour: str, start: Cell, end: Cell) -> str | None:
    """Why the piece on `start` may not end its move on `end` (None: it may). Capture only into another
    zone; onto your own piece only as a field promotion."""
    target = state.board.get(end)
    if target is None or state.zone_owner(end) != colour:
        return None  # an empty cell, or a capture in another player's zone
    pair = {state.board[start], target}
    mine = state.controls(colour).values()
    if pair == {"S", "M"}:
        return None if "L" not in mine else "a Drone and a Pawn merge into a Queen only when you control no Queen"
    if pair == {"S"}:
        return None if "M" not in mine else "two Pawns merge into a Drone only when you control no Drone"
    return f"you may not move onto your own {NAMES[target]} on {cell_name(end)}"


def undoes(state: State, start: Cell, end: Cell) -> bool:
    """No undo with two: the reply may not move a piece that just crossed the canal back where it came from."""
    return len(state.players) == 2 and state.last_crossing == (end, start)


def piece_steps(state: State, colour: str) -> list[Step]:
    """Every legal Step of `colour` (pattern, no jumping, landing, no undo), sorted by notation."""
    count = len(state.players)
    steps = []
    for start, size in state.controls(colour).items():
        directions, reach = PATTERNS[size]
        for df, dr in directions:
            for distance in range(1, reach + 1):
                end = (start[0] + df * distance, start[1] + dr * distance)
                if not on_board(end, count):
                    break
                if landing(state, colour, start, end) is None and not undoes(state, start, end):
                    steps.append(Step(start, end))
                if end in state.board:
                    break  # no jumping: the path stops at the first piece
    return sorted(steps, key=str)


def legal_moves(state: State, colour: str) -> list[Move]:
    """The player to move: every Step, or `pass` when there is none. Any other seat has none (each may
    still resign: the kit lists it)."""
    if state.phase == "over" or colour != state.to_move:
        return []
    return list(piece_steps(state, colour)) or [Pass()]


def movers(state: State) -> tuple[str, ...]:
    return (state.to_move,) if state.to_move is not None and state.phase != "over" else ()


def step_error(state: State, colour: str, step: Step) -> str | None:
    """Why `colour` may not play `step` now, naming the rule; None when it is legal."""
    start, end = step.start, step.end
    count = len(state.players)
    if not on_board(start, count) or not on_board(end, count):
        off = cell_name(start) if not on_board(start, count) else cell_name(end)
        return f"{off} is not on the board (files a-{'d' if count == 2 else 'h'}, ranks 1-8)"
    size = state.board.get(start)
    if size is None:
        return f"there is no piece on {cell_name(start)}"
    if zone_of(start, count) != state.seat(colour):
        owner = state.zone_owner(start)
        return f"the {NAMES[size]} on {cell_name(start)} is in {owner}'s zone: you move only the pieces in yours"
    if not fits_pattern(size, start, end):
        return _pattern_text(size)
    blocker = next((cell for cell in line(start, end) or () if cell in state.board), None)
    if blocker is not None:
        return f"the {NAMES[size]} may not pass over the piece on {cell_name(blocker)}"
    if undoes(state, start, end):
        return f"no undo with two: the piece that just crossed to {cell_name(start)} may not go straight back"
    return landing(state, colour, start, end)


def _pattern_text(size: str) -> str:
    return {
        "S": "a Pawn moves one step diagonally",
        "M": "a Drone moves one or two steps along a file or rank",
        "L": "a Queen moves along a file, rank or diagonal",
    }[size]


# --- making a move ----------------------------------------------------------------------------------


def play(state: State, move: Move, by: str) -> Outcome[State]:
    """The State after `by` plays `move`, with what happened: the step (a capture, a promotion), a piece
    changing hands, the end; IllegalMoveError naming the rule when it may not."""
    happened: list[Event] = []
    return Outcome(_play(state, move, by, happened), tuple(happened))


def _play(state: State, move: Move, by: str, happened: list[Event]) -> State:
    if state.phase == "over":
        raise IllegalMoveError("the game is over")
    if by not in state.players:
        raise IllegalMoveError(f"{by} is not seated in this game")
    if by in state.resigned:
        raise IllegalMoveError(f"{by} has resigned")
    if by != state.to_move:
        raise IllegalMoveError(f"it is {state.to_move}'s turn, not {by}'s")
    if isinstance(move, Pass):
        if steps := piece_steps(state, by):
            raise IllegalMoveError(f"pass: only when you have no legal move, and you have {len(steps)}")
        happened.append(events.passed(by))
        return _after(state.evolve(last_crossing=None, last_move=(by, str(move))), by, happened)
    error = step_error(state, by, move)
    if error is not None:
        raise IllegalMoveError(error)
    return _after(_step(state, by, move, happened), by, happened)


def _step(state: State, by: str, step: Step, happened: list[Event]) -> State:
    board = dict(state.board)
    moving = board.pop(step.start)
    target = board.get(step.end)
    captured = dict(state.captured)
    crossed = state.zone_owner(step.start) != state.zone_owner(step.end)
    happened.append(events.stepped(by, moving, target, step.start, step.end, crossed))
    if crossed:
        happened.append(events.crossed(state.zone_owner(step.end)))
    if target is not None and crossed:
        captured[by] = (*captured[by], target)
        board[step.end] = moving
    elif target is not None:  # a field promotion: the pair merges into the next size up
        board[step.end] = "L" if {moving, target} == {"S", "M"} else "M"
    else:
        board[step.end] = moving
    return state.evolve(
        board=board,
        captured=captured,
        last_crossing=(step.start, step.end) if crossed else None,
        last_move=(by, str(step)),
    )


def _after(state: State, by: str, happened: list[Event]) -> State:
    """Count the move, then end the game if a zone is empty, else pass the turn on.

    Nobody is ever left with no move while their zone holds a piece (docs/rules.md, Martian Chess:
    the piece nearest the rank canal can always step toward it), so "nobody can move" needs no check.
    """
    state = state.evolve(turn=state.turn + 1)
    count = len(state.players)
    if len({zone_of(cell, count) for cell in state.board}) < count:
        ended = score_end(state, by)
        happened.append(events.ended(ended.winner or by))
        return ended
    return state.evolve(to_move=next_player(state, by))


def next_player(state: State, after: str) -> str:
    """The next player still in the game after `after`, in seating order."""
    seats = state.players
    start = seats.index(after)
    order = seats[start + 1 :] + seats[: start + 1]
    return next(colour for colour in order if colour not in state.resigned)


def score_end(state: State, last_mover: str) -> State:
    """The highest score among the players still in wins; a tie for it goes to whoever moved last."""
    scores = {colour: state.score(colour) for colour in state.active_players()}
    best = max(scores.values())
    leaders = [colour for colour, score in scores.items() if score == best]
    winner = leaders[0] if len(leaders) == 1 else last_mover
    return state.evolve(to_move=None, winner=winner, reason="score")


# --- leaving the game, and the ends the kit decides ---------------------------------------------------


def leave(state: State, colour: str) -> Outcome[State]:
    """The player leaves (resigned or timed out). With four the zone stays (its pieces can be captured
    but never move) and the turn passes on; with the last opponent gone the kit ends the game."""
    state = state.evolve(resigned=(*state.resigned, colour))
    if len(state.active_players()) > 1 and state.to_move == colour:
        state = state.evolve(to_move=next_player(state, colour))
    return Outcome(state)


def finish(state: State, result: Result) -> State:
    """The game ended as `result` says: the last player standing, an agreed draw, a time-out."""
    return state.evolve(to_move=None, winner=result.winner, reason=result.reason)

"""The `pharaoh-position/1` file (pharaoh.md, Position file): a State to JSON and back, checked.

Supplies are not stored (a player's supply is whichever of their pieces is off the board); edges
and goal-lines follow from `players`. A file that cannot be a Pharaoh position is a PositionError
naming the fault (the command line's exit code 2).
"""

from __future__ import annotations

from typing import Any

from ..errors import PositionError
from ..interface import COLOURS
from ..kit import files
from .board import CORNERS, SIZES, is_cell
from .rules import won_line
from .state import GAME_ID, PLAYER_COUNTS, REASONS, Piece, State

FORMAT = "pharaoh-position/1"


def to_position(state: State) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "game": GAME_ID,
        "players": list(state.players),
        "first_player": state.first_player,
        "to_move": state.to_move,
        "throw": state.throw,
        "points": state.points,
        "board": {cell: str(piece) for cell, piece in state.board},
        "dice": state.dice,
        "resigned": list(state.resigned),
        "winner": state.winner,
        "reason": state.reason,
        "seed": state.seed,
    }


def from_position(data: Any) -> State:
    if not isinstance(data, dict):
        raise PositionError("a Pharaoh position must be a JSON object")
    if data.get("game") != GAME_ID:
        raise PositionError(f"this is a {data.get('game')} file, not {GAME_ID}")
    if data.get("format") != FORMAT:
        raise PositionError(f"format must be {FORMAT!r}, not {data.get('format')!r}")
    players = _players(data.get("players"))
    resigned = _resigned(data.get("resigned"), players)
    winner, reason = _result(data, players)
    state = State(
        players=players,
        seed=files.text(data.get("seed"), "seed"),
        first_player=_seat(data.get("first_player"), "first_player", players),
        to_move=_to_move(data.get("to_move"), players, resigned, over=reason is not None),
        throw=_number(data.get("throw"), "throw", 1, 6),
        points=_number(data.get("points"), "points", 0, 6),
        board=_board(data.get("board"), players, resigned),
        dice=_number(data.get("dice"), "dice", 1, None),
        resigned=resigned,
        winner=winner,
        reason=reason,
    )
    if state.points > state.throw:
        raise PositionError(f"points ({state.points}) cannot be above the throw ({state.throw})")
    if reason is None:
        _no_line_filled(state)
    return state


def _players(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        raise PositionError(f"players must be a list of colours, not {value!r}")
    if len(set(value)) != len(value) or any(p not in COLOURS for p in value):
        raise PositionError(f"players must be distinct colours among {', '.join(COLOURS)}, not {value!r}")
    if len(value) not in PLAYER_COUNTS:
        raise PositionError(f"Pharaoh seats 2, 3 or 4 players, not {len(value)}")
    return tuple(value)


def _seat(value: Any, what: str, players: tuple[str, ...]) -> str:
    if value not in players:
        raise PositionError(f"{what} must be one of the players ({', '.join(players)}), not {value!r}")
    return str(value)


def _resigned(value: Any, players: tuple[str, ...]) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise PositionError(f"resigned must be a list of colours, not {value!r}")
    seats = tuple(_seat(colour, "resigned", players) for colour in value)
    if len(set(seats)) != len(seats):
        raise PositionError(f"resigned names a colour twice: {value!r}")
    return seats


def _to_move(value: Any, players: tuple[str, ...], resigned: tuple[str, ...], *, over: bool) -> str | None:
    if value is None and over:
        return None
    seat = _seat(value, "to_move", players)
    if over:
        raise PositionError("to_move must be null once the game is over")
    if seat in resigned:
        raise PositionError(f"to_move: {seat} has resigned")
    return seat


def _result(data: dict[str, Any], players: tuple[str, ...]) -> tuple[str | None, str | None]:
    winner, reason = data.get("winner"), data.get("reason")
    if reason is None:
        if winner is not None:
            raise PositionError("a winner needs a reason")
        return None, None
    if reason not in REASONS:
        raise PositionError(f"reason must be one of {', '.join(REASONS)} or null, not {reason!r}")
    if reason == "draw" and winner is not None:
        raise PositionError("a draw has no winner")
    if reason in ("goal-line", "resignation") and winner is None:
        raise PositionError(f"a {reason} result has a winner")
    return (None if winner is None else _seat(winner, "winner", players)), str(reason)


def _number(value: Any, what: str, low: int, high: int | None) -> int:
    if type(value) is not int or value < low or (high is not None and value > high):
        bounds = f"from {low} to {high}" if high is not None else f"{low} or more"
        raise PositionError(f"{what} must be a whole number {bounds}, not {value!r}")
    return value


def _board(value: Any, players: tuple[str, ...], resigned: tuple[str, ...]) -> tuple[tuple[str, Piece], ...]:
    if not isinstance(value, dict):
        raise PositionError(f'board must map cells to pieces, like {{"c1": "red:L"}}, not {value!r}')
    squares: dict[str, Piece] = {}
    for cell, text in value.items():
        if not is_cell(cell):
            blocked = " (the corners are blocked)" if cell in CORNERS else ""
            raise PositionError(f"board: {cell!r} is not a cell of the board{blocked}")
        piece = _piece(cell, text, players, resigned)
        if piece in squares.values():
            raise PositionError(f"board: two pieces are {piece} (each colour has one of each size)")
        squares[cell] = piece
    return tuple(sorted(squares.items()))


def _piece(cell: str, text: Any, players: tuple[str, ...], resigned: tuple[str, ...]) -> Piece:
    colour, _, size = text.partition(":") if isinstance(text, str) else ("", "", "")
    if size not in SIZES:
        raise PositionError(f'board: {cell} must hold a piece like "red:M", not {text!r}')
    if colour not in players:
        raise PositionError(f"board: {cell} holds a {colour or '?'} piece, but {colour or '?'} is not seated")
    if colour in resigned:
        raise PositionError(f"board: {cell} holds a piece of {colour}, who resigned (their pieces left the board)")
    return Piece(colour, size)


def _no_line_filled(state: State) -> None:
    for seat in state.players:
        line = won_line(state, seat)
        if line is not None:
            raise PositionError(f"{seat} fills the goal-line {' '.join(line)}, so the game cannot still be on")

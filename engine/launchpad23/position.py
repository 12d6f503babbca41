"""The position file `launchpad23-position/1` (spec "Position file"): written and read back, checked."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..errors import PositionError
from ..interface import COLOURS as SEAT_COLOURS
from ..kit import files
from .rules import move_allowance
from .state import (
    CELLS,
    COLOUR_FACES,
    COLOURS,
    COPIES,
    EMPTY,
    PHASES,
    PYRAMID_FACES,
    SIZES,
    Piece,
    State,
    is_rocket,
    put,
)

FORMAT = "launchpad23-position/1"
REASONS = ("rocket", "resignation", "timeout", "draw")


def to_position(state: State) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "game": "launchpad23",
        "players": list(state.players),
        "phase": state.phase,
        "starts": dict(zip(state.players, state.starts, strict=True)),
        "first_player": state.first_player,
        "to_move": state.to_move,
        "throw": None if state.throw is None else {"size": state.throw[0], "colour": state.throw[1]},
        "rerolled": state.rerolled,
        "moves_left": state.moves_left,
        "board": {cell: [str(p) for p in pieces] for cell, pieces in zip(CELLS, state.board, strict=True) if pieces},
        "dice": state.dice,
        "resigned": list(state.resigned),
        "winner": state.winners[0] if state.winners else None,
        "reason": state.reason,
        "seed": state.seed,
    }


def from_position(data: Any) -> State:
    if not isinstance(data, dict):
        raise PositionError("a position must be a JSON object")
    if data.get("format") != FORMAT or data.get("game") != "launchpad23":
        raise PositionError(f"format must be {FORMAT!r} and game 'launchpad23'")
    players = _players(data.get("players"))
    phase = _one_of(data.get("phase"), PHASES, "phase")
    state = State(
        players=players,
        seed=files.text(data.get("seed"), "seed"),
        phase=phase,
        starts=_starts(data.get("starts"), players),
        first_player=_seat_or_none(data.get("first_player"), players, "first_player"),
        to_move=_seat_or_none(data.get("to_move"), players, "to_move"),
        throw=_throw(data.get("throw")),
        rerolled=_flag(data.get("rerolled"), "rerolled"),
        moves_left=_count(data.get("moves_left"), "moves_left"),
        board=_board(data.get("board"), players),
        dice=_count(data.get("dice"), "dice"),
        resigned=_resigned(data.get("resigned"), players),
        turns=0 if phase == "start" else 1,  # a new turn from here on counts up
    )
    return _checked(_ended(state, data, players))


def _players(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not 2 <= len(value) <= 4 or len(set(value)) != len(value):
        raise PositionError(f"players must be 2 to 4 distinct colours, not {value!r}")
    for seat in value:
        if seat not in SEAT_COLOURS:
            raise PositionError(f"players: {seat!r} is not a seat colour")
    return tuple(value)


def _one_of(value: Any, allowed: tuple[str, ...], what: str) -> str:
    if value not in allowed:
        raise PositionError(f"{what} must be one of {', '.join(allowed)}, not {value!r}")
    return str(value)


def _flag(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise PositionError(f"{what} must be true or false, not {value!r}")
    return value


def _count(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise PositionError(f"{what} must be a whole number, not {value!r}")
    return value


def _seat_or_none(value: Any, players: tuple[str, ...], what: str) -> str | None:
    if value is not None and value not in players:
        raise PositionError(f"{what} must be a seated colour or null, not {value!r}")
    return None if value is None else str(value)


def _starts(value: Any, players: tuple[str, ...]) -> tuple[str | None, ...]:
    if not isinstance(value, dict) or set(value) != set(players):
        raise PositionError(f"starts must give each player's opening size (or null), not {value!r}")
    for size in value.values():
        if size is not None and size not in SIZES:
            raise PositionError(f"starts: {size!r} is not S, M or L")
    return tuple(value[seat] for seat in players)


def _throw(value: Any) -> tuple[str, str] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or value.get("size") not in PYRAMID_FACES or value.get("colour") not in COLOUR_FACES:
        raise PositionError(f"throw must be {{size, colour}} with faces of the IceDice dice, not {value!r}")
    return (value["size"], value["colour"])


def _board(value: Any, players: tuple[str, ...]) -> tuple[tuple[Piece, ...], ...]:
    if not isinstance(value, dict):
        raise PositionError("board must map cells to lists of pieces")
    board = EMPTY
    for cell, pieces in value.items():
        if cell not in CELLS:
            raise PositionError(f"board: {cell!r} is not a cell of the grid (a1 to c3)")
        if not isinstance(pieces, list):
            raise PositionError(f"board: {cell} must hold a list of pieces")
        for text in pieces:
            board = put(board, cell, _piece(text))
    for kind in {p for cell in board for p in cell}:
        if sum(cell.count(kind) for cell in board) > COPIES:
            raise PositionError(f"board: more than {COPIES} pieces {kind} (two Rainbow Stashes)")
    return board


def _piece(text: Any) -> Piece:
    colour, _, size = str(text).partition(":")
    if colour not in COLOURS or size not in SIZES:
        raise PositionError(f"board: {text!r} is not a piece (colour:size, e.g. red:M)")
    return Piece(colour, size)


def _resigned(value: Any, players: tuple[str, ...]) -> tuple[str, ...]:
    if not isinstance(value, list) or any(seat not in players for seat in value) or len(set(value)) != len(value):
        raise PositionError(f"resigned must list seated colours, not {value!r}")
    return tuple(value)


def _ended(state: State, data: dict[str, Any], players: tuple[str, ...]) -> State:
    winner = _seat_or_none(data.get("winner"), players, "winner")
    reason = data.get("reason")
    if (state.phase == "over") != (reason is not None):
        raise PositionError("a game over has a reason (and only a game over)")
    if reason is not None:
        _one_of(reason, REASONS, "reason")
    return replace(state, winners=(winner,) if winner else (), reason=reason)


def _checked(state: State) -> State:
    if state.phase == "start":
        if state.to_move is not None or state.throw is not None:
            raise PositionError("during setup no one is to move and nothing is thrown (to_move and throw null)")
        return state
    if state.phase != "over" and (state.to_move is None or state.throw is None):
        raise PositionError(f"in phase {state.phase} someone is to move with a throw")
    if state.to_move in state.resigned:
        raise PositionError(f"to_move {state.to_move} has resigned")
    if state.throw is not None and state.moves_left > move_allowance(state.throw):
        raise PositionError(f"moves_left {state.moves_left} is more than the throw gives")
    if state.phase != "over" and any(is_rocket(state.cell(state.pad(seat))) for seat in state.seated()):
        raise PositionError("a pad already holds a rocket: the game would be over")
    return state

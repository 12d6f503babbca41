"""The `martianchess-position/1` file (martian_chess.md, Position file): the whole truth of one moment.

`to_position` writes every field in a fixed order, the board by rank then file, so the same State
always gives the same file. `from_position` accepts the spec's example as it stands (the fields
after `winner` are optional) and raises PositionError naming the first thing wrong.
"""

from __future__ import annotations

from typing import Any

from ..errors import NotationError, PositionError
from ..kit import files
from .board import SIZES, Cell, cell_name, on_board, parse_cell, zone_of
from .rules import seating
from .state import GAME_ID, REASONS, State

FORMAT = "martianchess-position/1"


def to_position(state: State) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "game": GAME_ID,
        "players": list(state.players),
        "to_move": state.to_move,
        "board": {cell_name(cell): state.board[cell] for cell in sorted(state.board, key=lambda c: (c[1], c[0]))},
        "captured": {colour: list(state.captured.get(colour, ())) for colour in state.players},
        "last_crossing": _crossing(state.last_crossing),
        "winner": state.winner,
        "reason": state.reason,
        "resigned": list(state.resigned),
        "turn": state.turn,
        "last_move": None if state.last_move is None else {"by": state.last_move[0], "move": state.last_move[1]},
        "seed": state.seed,
    }


def _crossing(crossing: tuple[Cell, Cell] | None) -> dict[str, str] | None:
    return None if crossing is None else {"from": cell_name(crossing[0]), "to": cell_name(crossing[1])}


def check_header(data: Any, file_format: str, what: str) -> None:
    if not isinstance(data, dict):
        raise PositionError(f"{what} must be a JSON object")
    game = data.get("game", "zarkcity")
    if game != GAME_ID:
        raise PositionError(f"this is a {game} file, not {GAME_ID}" if isinstance(game, str) else "game must be text")
    if data.get("format") != file_format:
        raise PositionError(f"format must be {file_format!r}, not {data.get('format')!r}")


def read_players(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        raise PositionError(f"players must be a list of colours, not {value!r}")
    return seating(value)


def seated(value: Any, what: str, players: tuple[str, ...]) -> str:
    if value not in players:
        raise PositionError(f"{what} must be one of the players ({', '.join(players)}), not {value!r}")
    return str(value)


def from_position(data: Any) -> State:
    check_header(data, FORMAT, "a position")
    players = read_players(data.get("players"))
    board = _board(data.get("board"), len(players))
    resigned = tuple(seated(c, "resigned", players) for c in _list(data.get("resigned", []), "resigned"))
    winner = data.get("winner")
    if winner is not None:
        seated(winner, "winner", players)
    reason = data.get("reason", "score" if winner is not None else None)
    if reason is not None and reason not in REASONS:
        raise PositionError(f"reason must be one of {', '.join(REASONS)} or null, not {reason!r}")
    to_move = data.get("to_move")
    if reason is None and (to_move not in players or to_move in resigned):
        raise PositionError(f"to_move must name a player still in the game while it is on, not {to_move!r}")
    if reason is not None and to_move is not None:
        raise PositionError("to_move must be null once the game is over")
    empty = [
        p for i, p in enumerate(players) if reason is None and not any(zone_of(c, len(players)) == i for c in board)
    ]
    if empty:
        raise PositionError(f"{empty[0]}'s zone is empty, so the game is over: give its winner and reason")
    return State(
        players=players,
        board=board,
        to_move=to_move,
        captured=_captured(data.get("captured", {}), players),
        seed=files.text(data.get("seed", ""), "seed"),
        turn=_turn(data.get("turn", 1)),
        last_crossing=_last_crossing(data.get("last_crossing"), len(players)),
        last_move=_last_move(data.get("last_move"), players),
        resigned=resigned,
        winner=winner,
        reason=reason,
    )


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise PositionError(f"{what} must be a list, not {value!r}")
    return value


def _cell(text: Any, what: str, players: int) -> Cell:
    try:
        cell = parse_cell(files.text(text, what))
    except NotationError as error:
        raise PositionError(f"{what}: {error}") from None
    if not on_board(cell, players):
        raise PositionError(f"{what}: {text} is off the {players}-player board")
    return cell


def _board(value: Any, players: int) -> dict[Cell, str]:
    if not isinstance(value, dict):
        raise PositionError(f'board must be an object like {{"a1": "L"}}, not {value!r}')
    board: dict[Cell, str] = {}
    for key, size in value.items():
        cell = _cell(key, "board", players)
        if size not in SIZES:
            raise PositionError(f"board: {key} holds {size!r}, not a size (S, M or L)")
        if cell in board:
            raise PositionError(f"board: {key} is listed twice")
        board[cell] = size
    return board


def _captured(value: Any, players: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, dict):
        raise PositionError(f'captured must be an object like {{"red": ["S"]}}, not {value!r}')
    for colour, sizes in value.items():
        seated(colour, "captured", players)
        if not isinstance(sizes, list) or any(size not in SIZES for size in sizes):
            raise PositionError(f"captured: {colour} must list sizes (S, M or L), not {sizes!r}")
    return {colour: tuple(value.get(colour, ())) for colour in players}


def _turn(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise PositionError(f"turn must be a whole number from 1, not {value!r}")
    return value


def _last_crossing(value: Any, players: int) -> tuple[Cell, Cell] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"from", "to"}:
        raise PositionError(f'last_crossing must be null or {{"from": "c4", "to": "c5"}}, not {value!r}')
    return _cell(value["from"], "last_crossing from", players), _cell(value["to"], "last_crossing to", players)


def _last_move(value: Any, players: tuple[str, ...]) -> tuple[str, str] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("move"), str):
        raise PositionError(f'last_move must be null or {{"by": "red", "move": "c2-d3"}}, not {value!r}')
    return seated(value.get("by"), "last_move by", players), value["move"]

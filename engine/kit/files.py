"""Reading a game's position file: the checks every kit game's `from_position` starts with.

Each raises PositionError (CLI exit 2) naming the field and what it should be.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import PositionError
from ..interface import COLOURS


def check_header(data: Any, game_id: str, file_format: str, what: str = "a position") -> dict[str, Any]:
    """`data` as the object a `file_format` file of `game_id` must be (a file naming no game is Zark City's)."""
    if not isinstance(data, dict):
        raise PositionError(f"{what} must be a JSON object")
    game = data.get("game", "zarkcity")
    if game != game_id:
        raise PositionError(f"this is a {game} file, not {game_id}" if isinstance(game, str) else "game must be text")
    if data.get("format") != file_format:
        raise PositionError(f"format must be {file_format!r}, not {data.get('format')!r}")
    return data


def read_players(value: Any, name: str, counts: Sequence[int]) -> tuple[str, ...]:
    """Distinct seat colours, as many as the game seats."""
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        raise PositionError(f"players must be a list of colours, not {value!r}")
    if len(set(value)) != len(value) or any(p not in COLOURS for p in value):
        raise PositionError(f"players must be distinct colours among {', '.join(COLOURS)}, not {value!r}")
    if len(value) not in counts:
        raise PositionError(f"{name} seats {', '.join(map(str, counts))} players, not {len(value)}")
    return tuple(value)


def seated(value: Any, what: str, players: Sequence[str]) -> str:
    if value not in players:
        raise PositionError(f"{what}: {value!r} is not a colour seated in this game ({', '.join(players)})")
    return str(value)


def a_list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise PositionError(f"{what} must be a list, not {value!r}")
    return value


def text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise PositionError(f"{what} must be text, not {value!r}")
    return value

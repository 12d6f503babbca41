"""What every game's record reading shares: the `moves` list and replay as a fold of `apply`.

The messages are the same for every game (docs/notation.md): a malformed entry is a PositionError
naming its index, the first illegal move a ReplayError carrying it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .errors import IllegalMoveError, NotationError, PositionError, ReplayError

S = TypeVar("S")
M = TypeVar("M")
P = TypeVar("P", bound=Sequence[str])  # the seated colours, as each game's position module types them


def read_moves(
    value: Any, players: P, parse: Callable[[str], M], seated: Callable[[Any, str, P], str], example: str
) -> list[tuple[str, M]]:
    """A record's `moves`: (colour, parsed move) pairs; `example` is a move shown in the error message."""
    if not isinstance(value, list):
        raise PositionError(f"moves must be a list of {{by, move}} objects, not {value!r}")
    return [_read_move(index, entry, players, parse, seated, example) for index, entry in enumerate(value)]


def _read_move(
    index: int, entry: Any, players: P, parse: Callable[[str], M], seated: Callable[[Any, str, P], str], example: str
) -> tuple[str, M]:
    if not isinstance(entry, dict) or not isinstance(entry.get("move"), str):
        raise PositionError(f'move {index} must be an object like {{"by": "red", "move": "{example}"}}')
    by = seated(entry.get("by"), f"move {index} by", players)
    try:
        return by, parse(entry["move"])
    except NotationError as error:
        raise PositionError(f"move {index} ({by}: {entry['move']}): {error}") from None


def play_moves(state: S, moves: Sequence[tuple[str, M]], apply: Callable[[S, M, str], S]) -> S:
    """Replay as a fold of `apply`; the first illegal move is a ReplayError carrying its index."""
    for index, (by, move) in enumerate(moves):
        try:
            state = apply(state, move, by)
        except IllegalMoveError as error:
            raise ReplayError(index, f"move {index} ({by}: {move}): {error}") from None
    return state

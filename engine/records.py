"""What every game's record reading shares: the `moves` list and replay as a fold of `apply`.

The messages are the same for every game (docs/notation.md): a malformed entry is a PositionError
naming its index, the first illegal move a ReplayError carrying it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
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


def read_scores(value: Any, players: Sequence[str]) -> dict[str, int] | None:
    """A result's stated `scores` (None when it states none): seated colours to whole numbers."""
    if value is None:
        return None
    if not isinstance(value, dict) or any(type(points) is not int for points in value.values()):
        raise PositionError(f'result scores must map each colour to a whole number, like {{"red": 12}}, not {value!r}')
    for colour in value:
        if colour not in players:
            raise PositionError(f"result scores: {colour!r} is not seated in this game (players: {', '.join(players)})")
    return dict(value)


def check_scores(stated: Mapping[str, int] | None, actual: Mapping[str, int] | None, plies: int) -> None:
    """The scores a record states must be the ones its moves produce (rules.md B15); ReplayError(None) if not."""
    if stated is None or dict(stated) == dict(actual or {}):
        return
    if actual is None:
        said = ", ".join(f"{colour} {points}" for colour, points in stated.items())
        raise ReplayError(None, f"the record gives scores ({said}), but after {plies} moves nobody is scored")
    wrong = [c for c in (*actual, *stated) if stated.get(c) != actual.get(c)]
    said = "; ".join(f"{c} {_scored(stated.get(c))}" for c in dict.fromkeys(wrong))
    real = "; ".join(f"{c} has {_scored(actual.get(c))}" for c in dict.fromkeys(wrong))
    raise ReplayError(None, f"the record gives {said}, but after {plies} moves {real}")


def _scored(points: int | None) -> str:
    return "no score" if points is None else f"{points} points"

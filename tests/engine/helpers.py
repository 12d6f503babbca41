"""Build Zark City (and Deck Town: ruleset=DECK_TOWN, deck_type="myrmex") positions directly as State values.

Shared by every engine test module (import with `from helpers import make_state, play`):
    make_state(board={(0, 0): ("7H", "red:S blue:SM"), (1, 0): "8H"}, hands={"red": ("KH",)})
"""

from __future__ import annotations

from typing import Any

from engine.zarkcity.notation import COLOURS, parse
from engine.zarkcity.rules import apply
from engine.zarkcity.state import Square, State

SquareSpec = str | tuple[str, str]


def pieces(text: str) -> tuple[tuple[str, str], ...]:
    """'red:S blue:SM' -> the sorted pieces tuple of a Square."""
    found = []
    for word in text.split():
        colour, sizes = word.split(":")
        found.extend((colour, size) for size in sizes)
    return tuple(sorted(found))


def square(spec: SquareSpec) -> Square:
    """'7H' is an empty card; ('7H', 'red:S blue:M') a card with pieces."""
    if isinstance(spec, str):
        return Square(spec)
    return Square(spec[0], pieces(spec[1]))


def make_state(
    board: dict[tuple[int, int], SquareSpec] | None = None,
    hands: dict[str, tuple[str, ...]] | None = None,
    *,
    players: tuple[str, ...] | None = None,
    phase: str = "act",
    to_move: str | None = "red",
    deck: tuple[str, ...] = (),
    discard: tuple[str, ...] = (),
    deck_type: str = "standard",
    **fields: Any,
) -> State:
    """A position with sensible defaults: red and blue (or the colours the hands name), red to act, turn 1."""
    hands = dict(hands or {})
    if players is None:
        named = set(hands) | {"red", "blue"}
        players = tuple(c for c in COLOURS if c in named)
    full_hands = {p: tuple(hands.get(p, ())) for p in players}
    fields.setdefault("turn", 0 if phase in ("choose", "place") else 1)
    fields.setdefault("first_player", None if phase == "choose" else players[0])
    fields.setdefault("seed", "test")
    return State(
        deck_type=deck_type,
        players=players,
        phase=phase,
        to_move=to_move,
        board={cell: square(spec) for cell, spec in (board or {}).items()},
        hands=full_hands,
        deck=tuple(deck),
        discard=tuple(discard),
        **fields,
    )


def play(state: State, *lines: str) -> State:
    """Apply moves written 'red: build 7H 1,0', in order (cards read as the state's game writes them)."""
    for line in lines:
        by, text = line.split(":", 1)
        state = apply(state, parse(text, state.ruleset.parse_card, state.ruleset.sort), by.strip())
    return state

"""What every kit game's view starts with (engine/interface.py `View`) and how its status line ends a game."""

from __future__ import annotations

from typing import Any

from ..interface import Result
from ..shuffle import commitment


def view_header(game: Any, state: Any, viewer: str | None, view_format: str, phase: str) -> dict[str, Any]:
    """The `View` keys, from the core's answers; the game adds its own keys (and `seed` once it is over)."""
    result: Result | None = game.result(state)
    return {
        "format": view_format,
        "game": game.info.id,
        "viewer": viewer if viewer in state.players else None,
        "players": list(state.players),
        "phase": phase,
        "to_move": next(iter(game.movers(state)), None),
        "movers": list(game.movers(state)),
        "turn": game.turn(state),
        "resigned": list(state.resigned),
        "winner": None if result is None else result.winner,
        "reason": None if result is None else result.reason,
        "seed_commitment": commitment(state.seed),
    }


def ended_status(viewer: str | None, winner: str | None, reason: str, won: str) -> str:
    """The status line of a finished game; `won` says how the game's own win reads ("with three Trios")."""
    who = "You" if winner == viewer and winner else (winner or "").capitalize()
    if reason == "draw":
        return "The game is over: a draw by agreement."
    if winner is None:
        return f"The game is over: no winner ({reason})."
    return f"The game is over: {who} won {won}." if won else f"The game is over: {who} won by {reason}."

"""The bots' plug-in evaluation: how near each seated player's pad is to a rocket."""

from __future__ import annotations

from typing import Any

from .state import COLOURS, SIZES, State


def rocket_progress(state: State, seat: str) -> int:
    """The most colours of one size on `seat`'s pad (5 is a rocket, if nothing else is there)."""
    pad = state.cell(state.pad(seat))
    return max(len({piece.colour for piece in pad if piece.size == size}) for size in SIZES)


def evaluate(state: Any, seat: str) -> float:
    """`seat`'s chance of winning, 0 to 1: its progress against the best of the others'."""
    if seat not in state.seated():
        return 0.0
    mine = rocket_progress(state, seat)
    best_other = max((rocket_progress(state, other) for other in state.seated() if other != seat), default=0)
    return (1 + (mine - best_other) / len(COLOURS)) / 2

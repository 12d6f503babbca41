"""Black ICE test helpers: a position built from a few facts (red to move, red's actions given)."""

from __future__ import annotations

import copy
from typing import Any

from engine.blackice.game import GAME
from engine.blackice.state import State
from engine.kit.events import Event

PLAYERS = ["red", "blue"]
BASE: dict[str, Any] = {
    "format": "blackice-position/1",
    "game": "blackice",
    "players": PLAYERS,
    "first_player": "red",
    "to_move": "red",
    "locks": [{"code": "green", "peeked_by": []}, {"code": "red", "peeked_by": []}, {"code": "green", "peeked_by": []}],
    "box": ["red", "red", "yellow", "yellow", "yellow", "green", "blue", "blue", "blue"],
    "keys": {"red": [None, None, None], "blue": [None, None, None]},
    "throw": ["tip", "swap", "hop"],
    "actions": ["tip", "swap", "hop"],
    "used": [False, False, False],
    "draws": 3,
    "turn": 1,
    "winner": None,
    "reason": None,
    "seed": "demo",
}


def position(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    data.update(copy.deepcopy(changes))
    return data


def make(
    codes: tuple[str, str, str] | None = None, marks: tuple[list[str], ...] | None = None, **changes: Any
) -> State:
    """The base position with Locks' `codes` and `marks` and any other fields replaced."""
    data = position(**changes)
    if codes is not None:
        box = ["red", "yellow", "green", "blue"] * 3
        for code in codes:
            box.remove(code)
        data["box"] = box
        for lock, code in zip(data["locks"], codes, strict=True):
            lock["code"] = code
    if marks is not None:
        for lock, marked in zip(data["locks"], marks, strict=True):
            lock["peeked_by"] = marked
    return GAME.from_position(data)


def steps(state: State, line: str, by: str = "red") -> tuple[State, tuple[Event, ...]]:
    """The state after `line` and every event on the way."""
    played = GAME.play_line(state, line, by)
    return played[-1].state, tuple(event for step in played for event in step.events)


def moves(state: State, seat: str = "red") -> list[str]:
    return [str(move) for move in GAME.legal_moves(state, seat)]

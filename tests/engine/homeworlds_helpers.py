"""Homeworlds positions written short for tests: `Name@home: stars / red's ships / yellow's ships`.

Players are red and yellow; yellow set up first, so North is yellow's homeworld and South red's.
Positions go through the position reader (engine/homeworlds/position.py), so every one is checked.
"""

from __future__ import annotations

from typing import Any

from engine.homeworlds.game import GAME
from engine.homeworlds.state import State

NORTH = "North@yellow: y2 b1 / - / g3"
SOUTH = "South@red: g2 b3 / y3 / -"


def system(text: str) -> dict[str, Any]:
    head, body = text.split(":")
    name, _, home = head.partition("@")
    stars, red, yellow = (part.split() for part in body.replace("-", "").split("/"))
    ships = {seat: pieces for seat, pieces in (("red", red), ("yellow", yellow)) if pieces}
    return {"name": name.strip(), "home": home or None, "stars": stars, "ships": ships}


def position(*systems: str, to_move: str = "red", options: dict[str, str] | None = None, **given: Any) -> State:
    """A turn's start (unless `given` says otherwise) with these systems, homeworlds first."""
    data: dict[str, Any] = {
        "format": "homeworlds-position/1",
        "game": "homeworlds",
        "rules": "homeworlds/1",
        "options": {"catastrophes": "anytime", "suicide": "legal", "setup": "standard", **(options or {})},
        "players": ["red", "yellow"],
        "first_player": "yellow",
        "to_move": to_move,
        "turn": 10,
        "stage": "start",
        "sacrifice": None,
        "this_turn": [],
        "systems": [system(text) for text in systems],
        "last_turn": None,
        "seed": "test",
        "winner": None,
        "reason": None,
    }
    data.update(given)
    return GAME.from_position(data)


def ships(state: State, name: str, seat: str) -> tuple[str, ...]:
    found = state.system(name)
    assert found is not None, f"{name} is not in play"
    return found.ships[state.seat(seat)]


def in_play(state: State, name: str) -> bool:
    return state.system(name) is not None


def play(state: State, line: str, by: str = "red") -> State:
    """The state after a whole line (engine/kit/steps.py: all or nothing)."""
    return GAME.play_line(state, line, by)[-1].state

"""Positions for Launch Pad 23's tests, written as the spec's position file."""

from __future__ import annotations

from typing import Any

from engine.launchpad23.game import GAME
from engine.launchpad23.rules import die
from engine.launchpad23.state import COLOUR_FACES, PYRAMID_FACES, State

TWO = ("red", "blue")
THREE = ("red", "yellow", "green")
THROWS = {0: ("S", "red"), 1: ("S", "red"), 2: ("S", "red"), 3: ("S/M", "red"), 4: ("S/L", "atom")}  # by moves_left


def position(
    board: dict[str, list[str]],
    *,
    players: tuple[str, ...] = TWO,
    to_move: str = "red",
    throw: tuple[str, str] | None = None,
    phase: str = "move",
    moves_left: int = 2,
    rerolled: bool = False,
    seed: str = "demo",
    dice: int = 2,
    resigned: tuple[str, ...] = (),
) -> dict[str, Any]:
    return {
        "format": "launchpad23-position/1",
        "game": "launchpad23",
        "players": list(players),
        "phase": phase,
        "starts": {seat: "M" for seat in players},
        "first_player": players[0],
        "to_move": to_move,
        "throw": dict(zip(("size", "colour"), throw or THROWS[moves_left], strict=True)),
        "rerolled": rerolled,
        "moves_left": moves_left,
        "board": board,
        "dice": dice,
        "resigned": list(resigned),
        "winner": None,
        "reason": None,
        "seed": seed,
    }


def state(board: dict[str, list[str]], **given: Any) -> State:
    return GAME.from_position(position(board, **given))


def seed_throwing(number: int, size: str, colour: str) -> str:
    """A seed whose die `number` shows `size` and die `number + 1` shows `colour`."""
    for k in range(100000):
        seed = f"seed{k}"
        if die(seed, number, PYRAMID_FACES) == size and die(seed, number + 1, COLOUR_FACES) == colour:
            return seed
    raise AssertionError("no such seed")


def texts(moves: list[Any]) -> list[str]:
    return [str(move) for move in moves]

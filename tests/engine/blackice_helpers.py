"""Black ICE test helpers: a position built from a few facts (red to move, red's actions given)."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

from engine.blackice.game import GAME
from engine.blackice.state import Lock, State, sorted_codes
from engine.kit.events import Event
from engine.kit.steps import play_line

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
    played = play_line(GAME, state, line, by)
    return played[-1].state, tuple(event for step in played for event in step.events)


def moves(state: State, seat: str = "red") -> list[str]:
    return [str(move) for move in GAME.legal_moves(state, seat)]


ALL_STEPS = [
    *(f"peek {p}" for p in (1, 2, 3)),
    *(f"swap {what} {a} {b}" for what in ("locks", "keys") for a, b in ((1, 2), (1, 3), (2, 3))),
    *(f"set {p} {c}" for p in (1, 2, 3) for c in ("red", "yellow", "green", "blue")),
    *(f"reset {p}" for p in (1, 2, 3)),
    *(f"copy {p}" for p in (1, 2, 3)),
    "declare",
    "pass",
]


def redealt(state: State, viewer: str | None, chooser: random.Random) -> State:
    """`state` with every Code `viewer` has no mark on dealt again, with the Box, from the 12 less
    those it sees (the seed kept): a state `viewer` must not be able to tell from `state`."""
    pool = ["red", "yellow", "green", "blue"] * 3
    for lock in state.locks:
        if viewer in lock.peeked_by:
            pool.remove(lock.code)
    chooser.shuffle(pool)
    locks = tuple(lock if viewer in lock.peeked_by else Lock(pool.pop(), lock.peeked_by) for lock in state.locks)
    return state.evolve(locks=locks, box=sorted_codes(pool))


def pick(state: State, chooser: random.Random, declare: float = 0.02) -> tuple[str, Any]:
    """The mover and a random listed step, `declare` rarely (a random declaration is nearly always
    wrong, which would end every game at once), resignation never."""
    seat = GAME.movers(state)[0]
    listed = [m for m in GAME.legal_moves(state, seat) if not GAME.is_resign(m)]
    others = [m for m in listed if str(m) != "declare"]
    if others and (len(others) < len(listed) and chooser.random() > declare or len(others) == len(listed)):
        return seat, chooser.choice(others)
    return seat, chooser.choice(listed)


def playout(
    seed: str, plies: int, chooser: random.Random | None = None, check: Callable[[State], None] | None = None
) -> tuple[State, list[tuple[str, str]]]:
    """A random game of at most `plies` steps (see `pick`), `check` run on each state before its step."""
    chooser = chooser or random.Random(seed)
    state = GAME.new_game(PLAYERS, seed, {})
    played: list[tuple[str, str]] = []
    for _ in range(plies):
        if GAME.result(state) is not None:
            break
        if check is not None:
            check(state)
        seat, move = pick(state, chooser)
        state = GAME.apply(state, move, seat)
        played.append((seat, str(move)))
    return state, played

"""The `blackice-position/1` file: the whole truth, Codes, Box and seed included (the server's
snapshot and `python -m engine`'s position). A seat downloads its view (views.py), never this."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..errors import PositionError
from ..interface import COLOURS as SEATS
from ..interface import Result
from ..kit import files
from .rules import duplicates_wild
from .state import BOX, COLOURS, FACES, GAME_ID, Keys, Lock, State

FORMAT = "blackice-position/1"
REASONS = ("declaration", "wrong declaration", "resignation", "timeout", "draw")


def to_position(state: State) -> dict[str, Any]:
    outcome = state.outcome
    return {
        "format": FORMAT,
        "game": GAME_ID,
        "players": list(state.players),
        "first_player": state.first_player,
        "to_move": state.to_move,
        "locks": [{"code": lock.code, "peeked_by": list(lock.peeked_by)} for lock in state.locks],
        "box": list(state.box),
        "keys": {seat: list(state.keys_of(seat)) for seat in state.players},
        "throw": list(state.throw),
        "actions": list(state.actions),
        "used": list(state.used),
        "draws": state.draws,
        "turn": state.turn,
        "winner": None if outcome is None else outcome.winner,
        "reason": None if outcome is None else outcome.reason,
        "seed": state.seed,
    }


def from_position(data: Any) -> State:
    """The State of a position file; PositionError naming the first fault."""
    if not isinstance(data, dict):
        raise PositionError("a position must be a JSON object")
    if data.get("game") != GAME_ID or data.get("format") != FORMAT:
        raise PositionError(f"this is not a {FORMAT} file (game {data.get('game')!r}, format {data.get('format')!r})")
    players = _players(data.get("players"))
    locks = _locks(data.get("locks"), players)
    box = _codes(data.get("box"), "box")
    if Counter([lock.code for lock in locks] + list(box)) != Counter(BOX):
        raise PositionError("the Codes in the Locks and the Box must be exactly 3 of each colour")
    throw, actions, used = _dice(data)
    winner, reason = data.get("winner"), data.get("reason")
    outcome = _outcome(winner, reason, players)
    loser = (
        []
        if outcome is None or outcome.reason not in ("resignation", "timeout")
        else [p for p in players if p != winner]
    )
    return State(
        players=players,
        seed=files.text(data.get("seed"), "seed"),
        first_player=_seat(data.get("first_player"), players, "first_player"),
        to_move=_seat(data.get("to_move"), players, "to_move"),
        locks=locks,
        box=tuple(sorted(box, key=COLOURS.index)),
        keys=_keys(data.get("keys"), players),
        throw=throw,
        actions=actions,
        used=used,
        draws=_count(data.get("draws"), "draws"),
        # The spec's file has no turn number (the kit's `turn` needs one): written always, and read as a
        # throw count from `draws` when absent (each throw takes 3 draws, a Reset 1 more).
        turn=_count(data.get("turn", _count(data.get("draws"), "draws") // 3), "turn"),
        resigned=tuple(loser),
        outcome=outcome,
    )


def _players(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) != 2 or len(set(value)) != 2 or any(p not in SEATS for p in value):
        raise PositionError(f"players must be two distinct colours among {', '.join(SEATS)}, not {value!r}")
    return tuple(value)


def _seat(value: Any, players: tuple[str, ...], what: str) -> str:
    if value not in players:
        raise PositionError(f"{what} must be a seated colour ({', '.join(players)}), not {value!r}")
    return str(value)


def _locks(value: Any, players: tuple[str, ...]) -> tuple[Lock, ...]:
    if not isinstance(value, list) or len(value) != 3 or not all(isinstance(lock, dict) for lock in value):
        raise PositionError("locks must list Locks 1, 2, 3 as {code, peeked_by}")
    locks = []
    for place, lock in enumerate(value, start=1):
        code = _codes([lock.get("code")], f"Lock {place}")[0]
        marks = lock.get("peeked_by")
        if not isinstance(marks, list) or len(set(map(str, marks))) != len(marks):
            raise PositionError(f"Lock {place}: peeked_by must be a list of distinct seats, not {marks!r}")
        seen = {_seat(seat, players, f"Lock {place} peeked_by") for seat in marks}
        locks.append(Lock(code, tuple(seat for seat in players if seat in seen)))
    return tuple(locks)


def _codes(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or any(code not in COLOURS for code in value):
        raise PositionError(f"{what}: a Code is one of {', '.join(COLOURS)}, not in {value!r}")
    return tuple(value)


def _keys(value: Any, players: tuple[str, ...]) -> tuple[Keys, ...]:
    if not isinstance(value, dict) or set(value) != set(players):
        raise PositionError(f"keys must give the Nodes of each seated colour ({', '.join(players)}), not {value!r}")
    seats: list[Keys] = []
    for seat in players:
        nodes = value[seat]
        if not isinstance(nodes, list) or len(nodes) != 3 or any(k is not None and k not in COLOURS for k in nodes):
            raise PositionError(f"keys of {seat}: three Nodes, each a colour or null, not {nodes!r}")
        seats.append((nodes[0], nodes[1], nodes[2]))
    return tuple(seats)


def _dice(data: dict[str, Any]) -> tuple[tuple[str, ...], tuple[str, ...], tuple[bool, ...]]:
    throw, actions, used = data.get("throw"), data.get("actions"), data.get("used")
    for name, faces in (("throw", throw), ("actions", actions)):
        if not isinstance(faces, list) or len(faces) != 3 or any(face not in FACES for face in faces):
            raise PositionError(f"{name} must be three die faces ({', '.join(FACES)}), not {faces!r}")
    assert isinstance(throw, list) and isinstance(actions, list)
    ruled = duplicates_wild(throw)
    for rule, face in zip(ruled, actions, strict=True):
        if face != rule and not (face == "wild" and rule in ("tip", "dig", "aim")):
            raise PositionError(f"actions {actions} do not follow from the throw {throw} by the duplicate rule")
    if not isinstance(used, list) or len(used) != 3 or not all(isinstance(u, bool) for u in used):
        raise PositionError(f"used must be three true/false, not {used!r}")
    return tuple(throw), tuple(actions), tuple(used)


def _outcome(winner: Any, reason: Any, players: tuple[str, ...]) -> Result | None:
    if reason is None and winner is None:
        return None
    if reason not in REASONS:
        raise PositionError(f"reason must be one of {', '.join(REASONS)} or null, not {reason!r}")
    if reason == "draw":
        if winner is not None:
            raise PositionError("a draw has no winner")
        return Result((), "draw")
    if reason == "timeout" and winner is None:
        return Result((), "timeout")
    return Result((_seat(winner, players, "winner"),), str(reason))


def _count(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise PositionError(f"{what} must be a whole number 0 or more, not {value!r}")
    return value

"""What each seat may know (../shared/spec/blackice.md, "view --as SEAT", REC-B11).

A Code shows only to a seat whose mark is on its Lock: the mark moves with the Lock on a Swap, so the
peeker still knows a swapped Code, and vanishes on a Reset. The Box shows only its size; the seed
never shows while the game is on. Once it is over, everything shows.
"""

from __future__ import annotations

from typing import Any, cast

from ..interface import SeatSummary, Table, View
from ..shuffle import commitment
from .rules import can_declare
from .state import GAME_ID, PLACES, State

FORMAT = "blackice-view/1"


def view(state: State, viewer: str | None, *, everything: bool = False) -> View:
    over = state.outcome is not None
    shown = everything or over
    locks = [
        {"code": lock.code if shown or viewer in lock.peeked_by else None, "peeked_by": list(lock.peeked_by)}
        for lock in state.locks
    ]
    data: dict[str, Any] = {
        "format": FORMAT,
        "game": GAME_ID,
        "viewer": viewer,
        "players": list(state.players),
        "phase": "over" if over else "play",
        "to_move": None if over else state.to_move,
        "movers": [] if over else [state.to_move],
        "turn": state.turn,
        "resigned": list(state.resigned),
        "winner": state.outcome.winner if state.outcome else None,
        "reason": state.outcome.reason if state.outcome else None,
        "seed_commitment": commitment(state.seed),
        "first_player": state.first_player,
        "locks": locks,
        "box_size": len(state.box),
        "keys": {seat: list(state.keys_of(seat)) for seat in state.players},
        "throw": list(state.throw),
        "actions": list(state.actions),
        "used": list(state.used),
        "draws": state.draws,
        "can_declare": not over and can_declare(state, state.to_move),
    }
    if shown:
        data["box"] = list(state.box)
        data["seed"] = state.seed
    return cast(View, data)


def table(shown: View) -> Table:
    data = cast(dict[str, Any], shown)
    seats = tuple(SeatSummary(seat, (f"Nodes {_nodes(data['keys'][seat])}",)) for seat in data["players"])
    notes = tuple(_lock_line(place, lock) for place, lock in zip(PLACES, data["locks"], strict=True))
    return Table(
        status=_status(data) + _throw(data), seats=seats, notes=(*notes, f"Black Box: {data['box_size']} Codes.")
    )


def board_text(shown: View) -> str:
    data = cast(dict[str, Any], shown)
    lines = [_status(data)]
    lines += [_lock_line(place, lock) for place, lock in zip(PLACES, data["locks"], strict=True)]
    lines += [f"{seat}'s Nodes: {_nodes(data['keys'][seat])}" for seat in data["players"]]
    if data["phase"] == "play":
        dice = ", ".join(
            f"{face}{' (used)' if used else ''}" for face, used in zip(data["actions"], data["used"], strict=True)
        )
        lines.append(f"Throw {' '.join(data['throw'])}; actions {dice}")
    lines.append(f"Black Box: {data['box_size']} Codes")
    return "\n".join(lines) + "\n"


def _status(data: dict[str, Any]) -> str:
    if data["phase"] == "over":
        return f"Over: {data['winner']} wins ({data['reason']})." if data["winner"] else f"Over ({data['reason']})."
    mover = data["to_move"]
    return "Your turn." if mover == data["viewer"] else f"{mover} to move."


def _throw(data: dict[str, Any]) -> str:
    """The turn's throw, as it fell and as actions (a duplicate or null face made `wild`)."""
    if data["phase"] != "play":
        return ""
    thrown, actions = " ".join(data["throw"]), " ".join(data["actions"])
    return f" Threw {thrown}" + ("." if thrown == actions else f": actions {actions}.")


def _lock_line(place: int, lock: dict[str, Any]) -> str:
    marks = f", peeked by {' and '.join(lock['peeked_by'])}" if lock["peeked_by"] else ""
    return f"Lock {place}: {lock['code'] or 'hidden'}{marks}"


def _nodes(keys: list[str | None]) -> str:
    return " ".join(key or "-" for key in keys)

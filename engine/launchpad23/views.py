"""What a seat sees: the position with no seed until the end (spec `view --as SEAT`), and during setup
nothing of the others' opening picks, not even whether they have chosen (issue 27, REC-L3 as the
service rules it: docs/launchpad23.md); the table summary for pages and emails."""

from __future__ import annotations

from typing import Any, cast

from ..interface import SeatSummary, Table, View
from ..kit.draw import SIZE_NAMES
from ..shuffle import commitment
from .position import to_position
from .state import KINDS, State

VIEW_FORMAT = "launchpad23-view/1"


class LaunchpadView(View, total=False):
    starts: dict[str, str | None]
    first_player: str | None
    throw: dict[str, str] | None
    rerolled: bool
    moves_left: int
    board: dict[str, list[str]]
    dice: int
    pads: dict[str, str]
    bank: dict[str, int]
    seed: str


def view(state: State, viewer: str | None, movers: tuple[str, ...], *, revealed: bool = False) -> View:
    data: dict[str, Any] = to_position(state)
    over = state.phase == "over"
    if state.phase == "start" and not revealed:
        data["starts"] = {seat: _start_seen(size, seat, viewer) for seat, size in data["starts"].items()}
    data.update(format=VIEW_FORMAT, viewer=viewer, movers=list(movers), turn=state.turns)
    data.update(pads={seat: state.pad(seat) for seat in state.seated()})
    data.update(bank={str(kind): state.in_bank(kind) for kind in KINDS}, seed_commitment=commitment(state.seed))
    if not over and not revealed:
        del data["seed"]  # it decides every future throw
    return cast(View, data)


def _start_seen(size: str | None, seat: str, viewer: str | None) -> str | None:
    """Only the viewer's own pick shows: another seat's is null whether it has chosen or not."""
    return size if seat == viewer else None


def table(shown: View) -> Table:
    data = cast(LaunchpadView, shown)
    seats = tuple(SeatSummary(seat, _facts(data, seat), _note(data, seat)) for seat in data["players"])
    own = data.get("starts", {}).get(data["viewer"] or "")
    private = f"You chose a {SIZE_NAMES[own]} opening piece." if data["phase"] == "start" and own else ""
    return Table(status=_status(data), seats=seats, private_note=private, notes=_notes(data))


def _status(data: LaunchpadView) -> str:
    if data["phase"] == "over":
        return f"{data['winner']} won ({data['reason']})." if data["winner"] else f"No winner ({data['reason']})."
    if data["phase"] == "start":
        if data["viewer"] in data["movers"]:
            return "Choose your opening piece."
        return "Waiting for the opening picks: they show when every player has chosen."
    mover, throw = data["to_move"], data.get("throw") or {}
    thrown = f"{throw.get('size')} + {throw.get('colour')}"
    if data["phase"] == "add":
        doing = "add a part or reroll" if data["viewer"] == mover else f"{mover} adds a part"
        return f"Threw {thrown}: {doing}."
    left = data.get("moves_left", 0)
    who = "Your" if data["viewer"] == mover else f"{mover}'s"
    return f"{who} turn: threw {thrown}, {left} move{'' if left == 1 else 's'} left."


def _facts(data: LaunchpadView, seat: str) -> tuple[str, ...]:
    pad = data.get("pads", {}).get(seat)
    if pad is None:
        return ("resigned",) if seat in data["resigned"] else ()
    pieces = data.get("board", {}).get(pad, [])
    return (f"pad {pad}", f"pad holds {' '.join(pieces) or 'nothing'}")


def _note(data: LaunchpadView, seat: str) -> str:
    """Nothing during setup: who has chosen is secret until all have."""
    return ""


def _notes(data: LaunchpadView) -> tuple[str, ...]:
    board = data.get("board", {})
    lines = [f"{cell}: {' '.join(pieces)}" for cell, pieces in sorted(board.items())]
    bank = " ".join(f"{kind}x{n}" for kind, n in data.get("bank", {}).items() if n)
    return (*lines, f"Bank: {bank or 'empty'}")

"""What a seat sees (everything but the seed until the end), the table summary and the text board."""

from __future__ import annotations

from typing import Any, cast

from ..interface import SeatSummary, Table, View
from ..shuffle import commitment
from .pieces import PIECES
from .position import to_position
from .state import State

VIEW_FORMAT = "homeworlds-view/1"


class HomeworldsView(View, total=False):
    first_player: str
    stage: str
    sacrifice: dict[str, Any] | None
    this_turn: list[str]
    systems: list[dict[str, Any]]
    last_turn: dict[str, Any] | None
    options: dict[str, str]
    bank: dict[str, int]
    seed: str


def view(state: State, viewer: str | None) -> View:
    data = to_position(state)
    data.update(format=VIEW_FORMAT, viewer=viewer, phase="over" if state.stage == "over" else "play")
    data.update(movers=[] if state.to_move is None else [state.to_move], resigned=list(state.resigned))
    data.update(bank=dict(state.bank), seed_commitment=commitment(state.seed))
    if state.stage != "over":
        del data["seed"]  # the only secret: it decided who started
    return cast(View, data)


def table(shown: View) -> Table:
    data = cast(HomeworldsView, shown)
    seats = tuple(SeatSummary(seat, _facts(data, seat)) for seat in data["players"])
    return Table(status=_status(data), seats=seats, notes=tuple(board_text(shown).splitlines()))


def _status(data: HomeworldsView) -> str:
    if data["phase"] == "over":
        return f"{data['winner']} won ({data['reason']})." if data["winner"] else f"A draw ({data['reason']})."
    mover, turn = data["to_move"], data["turn"]
    if data["viewer"] == mover:
        return f"Your turn (turn {turn})." if data["stage"] != "setup" else "Make your homeworld."
    return f"Waiting for {mover} (turn {turn})."


def _facts(data: HomeworldsView, seat: str) -> tuple[str, ...]:
    ships = sum(len(system["ships"].get(seat, [])) for system in data["systems"])
    home = next((system["name"] for system in data["systems"] if system["home"] == seat), None)
    return (f"home {home}" if home else "no homeworld", f"{ships} ship{'' if ships == 1 else 's'}")


def board_text(shown: View) -> str:
    """Every system (name, stars, each player's ships) and the bank: enough to play by email."""
    data = cast(HomeworldsView, shown)
    lines = [_system_line(system, data["players"]) for system in data["systems"]]
    bank = " ".join(f"{piece}x{data['bank'][piece]}" for piece in PIECES if data["bank"][piece])
    lines.append(f"Bank: {bank or 'empty'}")
    if data.get("sacrifice"):
        given = data["sacrifice"] or {}
        lines.append(f"Sacrifice: {given['left']} {given['colour']} action(s) left")
    return "\n".join(lines)


def _system_line(system: dict[str, Any], players: list[str]) -> str:
    home = f" ({system['home']}'s homeworld)" if system["home"] else ""
    ships = "; ".join(f"{seat}: {' '.join(system['ships'].get(seat, [])) or '-'}" for seat in players)
    return f"{system['name']}{home}: stars {' '.join(system['stars'])} | {ships}"

"""What a seat (or a spectator) sees of a Martian Chess game, and the game in words.

Nothing is hidden in Martian Chess except the seed, which decided who started: it appears in a
view only once the game is over (games.md). Pages, emails and exports build on `view` alone.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict, cast

from ..interface import SeatSummary, Table, View
from ..kit.events import Event
from ..shuffle import commitment
from .board import cell_name, files, zone_cells
from .position import to_position
from .rules import movers
from .state import GAME_ID, State

FORMAT = "martianchess-view/1"


class LastMove(TypedDict):
    by: str
    move: str


class MartianChessView(View):
    """One seat's view; keys after View's are this game's (read by its picture, text board and script)."""

    files: int  # 4 for two players, 8 for four
    board: dict[str, str]  # "c2" -> "S" | "M" | "L"
    zones: dict[str, list[str]]  # colour -> the cells of their zone
    captured: dict[str, list[str]]
    scores: dict[str, int]
    last_crossing: dict[str, str] | None
    last_move: LastMove | None
    seed: NotRequired[str]  # once the game is over


def view(state: State, viewer: str | None) -> MartianChessView:
    position = to_position(state)
    data = {
        "format": FORMAT,
        "game": GAME_ID,
        "viewer": viewer if viewer in state.players else None,
        "players": list(state.players),
        "phase": state.phase,
        "to_move": state.to_move,
        "movers": list(movers(state)),
        "turn": state.turn,
        "resigned": list(state.resigned),
        "winner": state.winner,
        "reason": state.reason,
        "seed_commitment": commitment(state.seed),
        "files": files(len(state.players)),
        "board": position["board"],
        "zones": {c: [cell_name(x) for x in zone_cells(i, len(state.players))] for i, c in enumerate(state.players)},
        "captured": position["captured"],
        "scores": state.scores(),
        "last_crossing": position["last_crossing"],
        "last_move": position["last_move"],
    }
    if state.phase == "over":
        data["seed"] = state.seed
    return cast(MartianChessView, data)


# --- the table beside the board ------------------------------------------------------------------------


def _points(n: int) -> str:
    return "1 point" if n == 1 else f"{n} points"


def status_line(shown: MartianChessView) -> str:
    viewer, reason, winner = shown["viewer"], shown["reason"], shown["winner"]
    if reason is not None:
        who = "You" if winner == viewer and winner else (winner or "").capitalize()
        if reason == "draw":
            return "The game is over: a draw by agreement."
        if winner is None:
            return f"The game is over: no winner ({reason})."
        if reason == "score":
            return f"The game is over: {who} won with {_points(shown['scores'][winner])}."
        return f"The game is over: {who} won by {reason}."
    mover = shown["to_move"] or ""
    turn = shown["turn"]
    return f"Your move (move {turn})." if mover == viewer else f"{mover.capitalize()} to move (move {turn})."


def table(shown: MartianChessView) -> Table:
    seats = []
    for colour in shown["players"]:
        zone = shown["zones"][colour]
        pieces = sum(1 for cell in zone if cell in shown["board"])
        taken = " ".join(shown["captured"][colour]) or "none"
        left = "1 piece" if pieces == 1 else f"{pieces} pieces"
        facts = (_points(shown["scores"][colour]), f"captured: {taken}", f"zone {zone[0]}-{zone[-1]}: {left}")
        note = "resigned (zone stays)" if colour in shown["resigned"] else ""
        seats.append(SeatSummary(colour=colour, facts=facts, note=note))
    notes = []
    if shown["last_move"] is not None:
        notes.append(f"Last move: {shown['last_move']['by']} {shown['last_move']['move']}.")
    return Table(status=status_line(shown), seats=tuple(seats), notes=tuple(notes))


# --- moves in words ----------------------------------------------------------------------------------


def describe(by: str, happened: tuple[Event, ...]) -> str:
    """E.g. "red moved a Queen from a1 to c3, capturing a Drone (2)": the step's events (rules.step) in
    words, the end said from the mover's side ("they win"); everything is public."""
    said = [e.text for e in happened if e.kind != "end"]
    for end in (e for e in happened if e.kind == "end"):
        said.append(f"the game is over and {'they win' if end.seat == by else f'{end.seat} wins'}")
    return "; ".join(said)


# --- the board as text, for emails -----------------------------------------------------------------------

INITIALS = {"red": "r", "yellow": "y", "green": "g", "blue": "b", "black": "k"}


def board_text(shown: MartianChessView) -> str:
    """Rank 8 at the top; a piece is its size letter (S Pawn, M Drone, L Queen), an empty cell a dot.
    Canals are drawn as | and - between the zones."""
    width = shown["files"]
    board = shown["board"]
    lines = []
    for rank in range(8, 0, -1):
        cells = ["abcdefgh"[f] + str(rank) for f in range(width)]
        row = [board.get(cell, ".") for cell in cells]
        if width == 8:
            row.insert(4, "|")
        lines.append(f"{rank}  " + " ".join(row))
        if rank == 5:
            lines.append("   " + "-" * (2 * len(row) - 1))
    footer = "   " + " ".join([*"abcd", " ", *"efgh"] if width == 8 else list("abcd"))
    zones = "; ".join(f"{c} {cells[0]}-{cells[-1]}" for c, cells in shown["zones"].items())
    scores = ", ".join(f"{c} {s}" for c, s in shown["scores"].items())
    return "\n".join([*lines, footer, f"zones: {zones}", f"scores: {scores}"]) + "\n"

"""What a seat (or a spectator) sees of a Pharaoh game: everything but the seed, until the end.

Pages, emails, the API and exports build on `view` alone; the table and the text board read only it.
"""

from __future__ import annotations

from typing import NotRequired, cast

from ..interface import SeatSummary, Table, View
from ..shuffle import commitment
from .board import EDGES, edges_of, goal_lines
from .position import to_position
from .rules import movers
from .state import GAME_ID, State

FORMAT = "pharaoh-view/1"


class PharaohView(View):
    """One seat's view; the keys after View's are this game's (its picture, text board and script read them)."""

    first_player: str
    throw: int
    points: int
    dice: int
    board: dict[str, str]  # cell -> "colour:size"
    supplies: dict[str, list[str]]  # colour -> sizes off the board
    edges: dict[str, list[str]]  # colour -> its three edge cells
    goal_lines: list[list[str]]  # the lines that count in this game
    seed: NotRequired[str]  # once the game is over


def view(state: State, viewer: str | None) -> PharaohView:
    position = to_position(state)
    data = {
        "format": FORMAT,
        "game": GAME_ID,
        "viewer": viewer if viewer in state.players else None,
        "players": list(state.players),
        "phase": "over" if state.over else "play",
        "to_move": state.to_move,
        "movers": list(movers(state)),
        "turn": state.dice,
        "resigned": list(state.resigned),
        "winner": state.winner,
        "reason": state.reason,
        "seed_commitment": commitment(state.seed),
        "first_player": state.first_player,
        "throw": state.throw,
        "points": state.points,
        "dice": state.dice,
        "board": position["board"],
        "supplies": {colour: list(state.supply(colour)) for colour in state.players},
        "edges": {colour: list(EDGES[edge]) for colour, edge in edges_of(state.players).items()},
        "goal_lines": [list(line) for line in goal_lines(len(state.players))],
    }
    if state.over:
        data["seed"] = state.seed
    return cast(PharaohView, data)


def _points(n: int) -> str:
    return "1 point" if n == 1 else f"{n} points"


def status_line(shown: PharaohView) -> str:
    viewer, reason, winner = shown["viewer"], shown["reason"], shown["winner"]
    if reason is not None:
        if reason == "draw":
            return "The game is over: a draw by agreement."
        if winner is None:
            return f"The game is over: no winner ({reason})."
        who = "You" if winner == viewer else winner.capitalize()
        return f"The game is over: {who} won by {reason}."
    mover = shown["to_move"] or ""
    left = f"threw {shown['throw']}, {_points(shown['points'])} left"
    if mover == viewer:
        return f"Your turn (turn {shown['turn']}): you {left}."
    return f"{mover.capitalize()}'s turn (turn {shown['turn']}): {mover} {left}."


def table(shown: PharaohView) -> Table:
    seats = []
    edge_names = dict(zip(shown["players"], _edge_names(shown), strict=True))
    for colour in shown["players"]:
        mine = (f"{piece[-1]} {cell}" for cell, piece in shown["board"].items() if piece.startswith(f"{colour}:"))
        placed = " ".join(mine)
        supply = " ".join(shown["supplies"][colour])
        facts = (f"edge: {edge_names[colour]}", f"on the board: {placed or 'none'}", f"supply: {supply or 'empty'}")
        note = "resigned" if colour in shown["resigned"] else ""
        seats.append(SeatSummary(colour=colour, facts=facts, note=note))
    lines = "; ".join(" ".join(line) for line in shown["goal_lines"])
    return Table(status=status_line(shown), seats=tuple(seats), notes=(f"Goal-lines that count: {lines}.",))


def _edge_names(shown: PharaohView) -> list[str]:
    by_cells = {tuple(cells): name for name, cells in EDGES.items()}
    cells = [shown["edges"][colour] for colour in shown["players"]]
    return [f"{by_cells[tuple(edge)]} {' '.join(edge)}" for edge in cells]

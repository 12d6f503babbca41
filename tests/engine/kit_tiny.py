"""A tiny game on the kit, for the drawing kit's and the click script's tests only (registered
nowhere): two seats on a 3x3 grid; a step brings a piece from your supply onto an empty cell
(`enter S a1`: click the Small of your supply, then a1), moves one of your pieces to an empty
neighbouring cell (`a1-a2`), or passes. The first to reach the far corner (the first seat c3, the second a1) wins."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, cast

from engine.errors import IllegalMoveError, NotationError
from engine.interface import GameInfo, MoveKind, Result, SeatSummary, Table, View
from engine.kit import draw
from engine.kit.base import KitGame
from engine.kit.events import Event, Outcome

CELLS = tuple(f"{f}{r}" for r in (1, 2, 3) for f in "abc")
GOALS = ("c3", "a1")  # the first seat's far corner, the second's


@dataclass(frozen=True)
class TinyState:
    players: tuple[str, ...]
    seed: str
    board: tuple[tuple[str, str, str], ...] = ()  # (cell, colour, size)
    to_move: int = 0
    turns: int = 1
    resigned: tuple[str, ...] = ()
    outcome: Result | None = None


@dataclass(frozen=True)
class Enter:
    size: str
    cell: str

    def __str__(self) -> str:
        return f"enter {self.size} {self.cell}"


@dataclass(frozen=True)
class Step:
    start: str
    end: str

    def __str__(self) -> str:
        return f"{self.start}-{self.end}"


@dataclass(frozen=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


TinyMove = Enter | Step | Pass


def neighbours(cell: str) -> list[str]:
    f, r = "abc".index(cell[0]), int(cell[1])
    around = ((f - 1, r), (f + 1, r), (f, r - 1), (f, r + 1))
    return [f"{'abc'[x]}{y}" for x, y in around if 0 <= x < 3 and 1 <= y <= 3]


class TinyGame(KitGame[TinyState, TinyMove]):
    info = GameInfo(id="tiny", name="Tiny", player_counts=(2,), hidden_information=False)
    KINDS: ClassVar[tuple[MoveKind, ...]] = (
        MoveKind("enter", "Enter"),
        MoveKind("step", "Step"),
        MoveKind("pass", "Pass", quick=True),
    )
    HELP = (("a1-a2", "move your piece"), ("enter S a1", "bring your Small onto a1"), ("pass", "do nothing"))
    RULES = "Reach the far corner."

    def start(self, players: Sequence[str], seed: str, options: Mapping[str, str]) -> Outcome[TinyState]:
        return Outcome(TinyState(tuple(players), seed), ())

    def parse_steps(self, text: str) -> list[TinyMove]:
        words = text.strip().split()
        if words == ["pass"]:
            return [Pass()]
        if len(words) == 3 and words[0] == "enter" and words[1] in ("S", "M") and words[2] in CELLS:
            return [Enter(words[1], words[2])]
        cells = text.strip().split("-")
        if len(cells) == 2 and all(c in CELLS for c in cells):
            return [Step(cells[0], cells[1])]
        raise NotationError(f"cannot read {text!r}")

    def play(self, state: TinyState, move: TinyMove, by: str) -> Outcome[TinyState]:
        if move not in self.legal_moves_of(state, by):
            raise IllegalMoveError(f"{move} is not legal")
        board = state.board
        if isinstance(move, Enter):
            board = (*board, (move.cell, by, move.size))
        elif isinstance(move, Step):
            board = tuple((move.end if c == move.start else c, col, s) for c, col, s in board)
        goal = GOALS[state.players.index(by)]
        won = any(cell == goal and colour == by for cell, colour, _ in board)
        after = replace(state, board=board, to_move=1 - state.to_move, turns=state.turns + 1)
        if won:
            after = replace(after, outcome=Result((by,), "corner"))
        return Outcome(after, (Event("move", f"{by} plays {move}", by),))

    def legal_moves_of(self, state: TinyState, seat: str) -> list[TinyMove]:
        if self.movers(state) != (seat,):
            return []
        taken = {cell for cell, _, _ in state.board}
        mine = [(cell, size) for cell, colour, size in state.board if colour == seat]
        moves: list[TinyMove] = []
        for size in ("S", "M"):
            if size not in {s for _, s in mine}:
                moves.extend(Enter(size, cell) for cell in CELLS if cell not in taken)
        for cell, _ in mine:
            moves.extend(Step(cell, end) for end in neighbours(cell) if end not in taken)
        return [*moves, Pass()]

    def click_path(self, move: TinyMove) -> tuple[str, ...]:
        """`enter S a1`: the viewer's own supply Small (the scene names only the viewer's), then a1."""
        if isinstance(move, Enter):
            return (f"supply:{move.size}", move.cell)
        return super().click_path(move)

    def movers(self, state: TinyState) -> tuple[str, ...]:
        return () if state.outcome else (state.players[state.to_move],)

    def turn(self, state: TinyState) -> int:
        return state.turns

    def result(self, state: TinyState) -> Result | None:
        return state.outcome

    def leave(self, state: TinyState, seat: str) -> Outcome[TinyState]:
        return Outcome(replace(state, resigned=(*state.resigned, seat)), ())

    def finish(self, state: TinyState, result: Result) -> TinyState:
        return replace(state, outcome=result)

    def view(self, state: TinyState, viewer: str | None) -> View:
        shown = {
            "format": "tiny-view/1",
            "game": "tiny",
            "viewer": viewer,
            "players": list(state.players),
            "phase": "over" if state.outcome else "play",
            "to_move": None if state.outcome else state.players[state.to_move],
            "movers": list(self.movers(state)),
            "turn": state.turns,
            "resigned": list(state.resigned),
            "winner": state.outcome.winner if state.outcome else None,
            "reason": state.outcome.reason if state.outcome else None,
            "seed_commitment": "",
            "board": [list(entry) for entry in state.board],
        }
        return cast(View, shown)

    def scene(self, view: View) -> draw.Scene:
        board: list[list[str]] = view["board"]  # type: ignore[typeddict-item]
        cells = tuple(
            draw.Cell(
                cell, spots=tuple(draw.Pyramid(c, cast(draw.Size, s)) for at, c, s in board if at == cell), tint=""
            )
            for cell in CELLS
        )
        zones = tuple(self._supply(view, colour, i) for i, colour in enumerate(view["players"]))
        to_move = view["to_move"]
        status = draw.Label(8, 360, f"{to_move} to move" if to_move else "over", size=15)
        return draw.Scene(
            320, 372, (draw.Grid(30, 8, 3, 3, 64, cells=cells, seen="top"), *zones, status), title="Tiny board"
        )

    def _supply(self, view: View, colour: str, index: int) -> draw.Zone:
        board: list[list[str]] = view["board"]  # type: ignore[typeddict-item]
        placed = {s for _, c, s in board if c == colour}
        spots = tuple(
            draw.Pyramid(colour, size, target=f"supply:{size}" if colour == view["viewer"] else "")
            for size in draw.SIZES[:2]
            if size not in placed
        )
        return draw.Zone(8 + index * 156, 236, 148, f"{colour} supply", spots, tint=colour)

    def table(self, view: View) -> Table:
        return Table(status="", seats=tuple(SeatSummary(colour, ()) for colour in view["players"]))

    def to_position(self, state: TinyState) -> dict[str, Any]:
        outcome = state.outcome
        return {
            "players": list(state.players),
            "seed": state.seed,
            "board": [list(entry) for entry in state.board],
            "to_move": state.to_move,
            "turns": state.turns,
            "resigned": list(state.resigned),
            "result": None if outcome is None else {"winners": list(outcome.winners), "reason": outcome.reason},
        }

    def from_position(self, data: Any) -> TinyState:
        result = data["result"]
        return TinyState(
            players=tuple(data["players"]),
            seed=data["seed"],
            board=tuple(tuple(entry) for entry in data["board"]),
            to_move=data["to_move"],
            turns=data["turns"],
            resigned=tuple(data["resigned"]),
            outcome=None if result is None else Result(tuple(result["winners"]), result["reason"]),
        )


GAME = TinyGame()

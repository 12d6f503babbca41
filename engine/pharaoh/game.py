"""Pharaoh on the kit: the core (engine/kit/core.py `Rules`) and the Chance capability.

The kit's `KitGame` turns it into the service's interface and gives resignation, draws,
time-outs, the `pharaoh-game/1` record and its replay. Several steps make a turn; a line of them
separated by `;` goes through the kit's `play_line`, which drops a `pass` after the turn ended
(`ignorable`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, cast

from ..interface import GameInfo, MoveKind, Result, Table, View
from ..kit import draw
from ..kit.base import KitGame
from ..kit.events import Outcome
from . import notation, picture, position, rules, views
from .notation import Move, Pass
from .state import GAME_ID, PLAYER_COUNTS, REASONS, RULES_VERSION, State

INFO = GameInfo(
    id=GAME_ID,
    name="Pharaoh",
    player_counts=PLAYER_COUNTS,
    options=(),
    summary="Throw the die, spend its points entering and moving your three pyramids, and line them up through c3.",
    hidden_information=False,
    rules_version=RULES_VERSION,
    has_hands=False,
    board_hint="Edges are tinted by owner, dots mark the goal-lines that count; supplies wait under the die.",
    chance="who starts and every throw of the die",
    reasons=REASONS,
)


class Pharaoh(KitGame[State, Move]):
    info = INFO
    KINDS: ClassVar[tuple[MoveKind, ...]] = (
        MoveKind("enter", "Enter a piece from your supply", quick=True),
        MoveKind("move", "Move a piece", quick=True),
        MoveKind("pass", "Pass (end your turn)", quick=True),
    )
    HELP: ClassVar[tuple[tuple[str, str], ...]] = (
        ("enter M c1", "bring your Medium from your supply onto c1, one of your edge cells (also M@c1, M c1)"),
        ("c1-c2", "move your piece on c1 to the neighbouring c2, capturing there if allowed (also c1c2, c1xc2)"),
        ("c1-c2-c3", "a path: the two steps c1-c2 and c2-c3"),
        ("enter S b1; b1-b2", "several steps on one line, separated by ;"),
        ("pass", "end your turn now (unspent points are lost)"),
    )
    RULES: ClassVar[str] = (
        "Each player has a Small, a Medium and a Large pyramid, all starting off the board, and an edge of"
        " three cells of the 5 x 5 board (corners blocked). On your turn the engine throws one die: its"
        " number is your points for the turn. Spend them in any order: entering a piece from your supply"
        " onto your edge costs 1, 2 or 3 (S, M, L); moving a piece to a neighbouring cell costs the same"
        " orthogonally and twice that diagonally. You may land on another player's piece of the same size"
        " or smaller: it is captured and goes back to its owner's supply; never on your own piece or a"
        " larger one, and no hopping. Write pass to stop; the turn also ends when the points left pay for"
        " nothing. Win by standing your three pieces on a goal-line through the centre c3: the row b3 c3 d3"
        " with two players, also the column c2 c3 c4 with three, and both diagonals too with four."
    )

    # --- the core --------------------------------------------------------------------------------
    def start(self, players: Sequence[str], seed: str, options: Mapping[str, str]) -> Outcome[State]:
        return rules.new_game(players, seed)

    def parse_steps(self, text: str) -> list[Move]:
        return notation.parse_steps(text)

    def play(self, state: State, move: Move, by: str) -> Outcome[State]:
        return rules.play(state, move, by)

    def legal_moves_of(self, state: State, seat: str) -> list[Move]:
        return rules.legal_moves(state, seat)

    def movers(self, state: State) -> tuple[str, ...]:
        return rules.movers(state)

    def turn(self, state: State) -> int:
        return state.dice  # one throw a turn

    def result(self, state: State) -> Result | None:
        if state.reason is None:
            return None
        return Result(winners=(state.winner,) if state.winner else (), reason=state.reason)

    def leave(self, state: State, seat: str) -> Outcome[State]:
        return rules.leave(state, seat)

    def finish(self, state: State, result: Result) -> State:
        return rules.finish(state, result.winners, result.reason)

    def view(self, state: State, viewer: str | None) -> View:
        return views.view(state, viewer)

    def table(self, view: View) -> Table:
        return views.table(cast(views.PharaohView, view))

    def to_position(self, state: State) -> dict[str, Any]:
        return position.to_position(state)

    def from_position(self, data: Any) -> State:
        return position.from_position(data)

    # --- Chance ----------------------------------------------------------------------------------
    def reseed(self, state: State, seed: str) -> State:
        """Future throws come from `seed` (the bots sample chance this way); the past stays."""
        return state.evolve(seed=seed)

    # --- several steps a turn --------------------------------------------------------------------
    def move_kind(self, move: Any) -> str:
        return "move" if isinstance(move, notation.Step) else str(move).split()[0]

    def ignorable(self, move: Any, state: State, by: str) -> bool:
        """A `pass` after the turn (or the game) has ended is dropped from a line (pharaoh.md)."""
        return isinstance(move, Pass)

    # --- pictures: one description for the page, the email and the text board -------------------
    def scene(self, view: View) -> draw.Scene:
        return picture.scene(cast(views.PharaohView, view))

    def click_path(self, move: Move) -> tuple[str, ...]:
        return picture.click_path(move)


GAME = Pharaoh()

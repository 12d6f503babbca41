"""Martian Chess behind the one game interface (engine/interface.py): what the service calls."""

from __future__ import annotations

from typing import cast

from ..interface import BoardScript, GameInfo, MoveKind, Result, Table, View
from ..kit.modules import ModuleGame, Modules
from . import notation, picture, position, record, rules, views
from .notation import Move, Step
from .state import GAME_ID, PLAYER_COUNTS, REASONS, RULES_VERSION, State

INFO = GameInfo(
    id=GAME_ID,
    name="Martian Chess",
    player_counts=PLAYER_COUNTS,
    options=(),
    summary="Move any piece in your zone, capture across the canals, and score the most points.",
    hidden_information=False,
    rules_version=RULES_VERSION,
    has_hands=False,
    board_hint="Zones are tinted by owner; hover a cell for its piece and zone.",
    chance="who starts",
    reasons=REASONS,
)

KINDS = (MoveKind("move", "Move a piece", quick=True), MoveKind("pass", "Pass (no legal move)", quick=True))

HELP = (
    ("c2-d3", "move the piece on c2 to d3: a plain move, a capture or a field promotion (also c2d3, c2xd3, c2 d3)"),
    ("pass", "only when you have no legal move"),
    ("resign", "leave the game"),
)

RULES = (
    "You control all and only the pieces in your zone, whatever their colour. On your turn move one:"
    " a Pawn one step diagonally, a Drone one or two steps along a file or rank, a Queen any distance"
    " in a straight line, never jumping. Moving onto a piece in another zone captures it (Pawn 1,"
    " Drone 2, Queen 3 points); a piece that crosses a canal changes owner. With no Queen you may"
    " merge a Drone and a Pawn into one; with no Drone, two Pawns into one. With two players you may"
    " not move a piece straight back across the canal it just crossed. The game ends when any zone is"
    " empty: the highest score wins, a tie goes to whoever made the last move."
)


class MartianChess(ModuleGame):
    info = INFO
    modules = Modules(rules=rules, notation=notation, position=position, record=record)
    KINDS, HELP, RULES = KINDS, HELP, RULES

    def result(self, state: State) -> Result | None:
        if state.phase != "over":
            return None
        winners = (state.winner,) if state.winner else ()
        return Result(winners=winners, reason=state.reason or "", scores=state.scores())

    def move_kind(self, move: Move) -> str:
        return "move" if isinstance(move, Step) else str(move)  # "pass", "resign"

    # what a seat may see: everything but the seed, until the end (nothing hidden: no Hidden capability)
    def view(self, state: State, viewer: str | None) -> View:
        return views.view(state, viewer)

    def table(self, view: View) -> Table:
        return views.table(cast(views.MartianChessView, view))

    def describe(self, move: Move, by: str, before: State, after: State, viewer: str | None) -> str:
        return views.describe(by, self.step(before, move, by).events)

    # pictures
    def board_svg(self, view: View, *, interactive: bool = False) -> str:
        return picture.board_svg(cast(views.MartianChessView, view), interactive=interactive)

    def board_text(self, view: View) -> str:
        return views.board_text(cast(views.MartianChessView, view))

    def board_script(self, view: View) -> BoardScript:
        """The script builds moves from the legal-move list alone, and reads the pieces and zones from
        the picture's data-cell/data-size/data-zone: it needs nothing else (all of it public)."""
        return BoardScript(module="games/martianchess/board.js", data={"phase": view["phase"]})


GAME = MartianChess()

"""Martian Chess on the kit: the core (engine/kit/core.py `Rules`) and the Scores capability.

The kit's `KitGame` turns it into the service's interface and gives resignation, draws, time-outs,
the `martianchess-game/1` record (with its `rules` field) and its replay, the scores checked. The
game draws its own pictures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, cast

from ..errors import PositionError
from ..interface import BoardScript, GameInfo, MoveKind, Result, Table, View
from ..kit import files
from ..kit.base import KitGame
from ..kit.events import Event, Outcome
from . import events, notation, picture, position, rules, views
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


class MartianChess(KitGame[State, Move]):
    info = INFO
    KINDS: ClassVar[tuple[MoveKind, ...]] = KINDS
    HELP: ClassVar[tuple[tuple[str, str], ...]] = HELP
    RULES: ClassVar[str] = RULES

    # --- the core --------------------------------------------------------------------------------
    def start(self, players: Sequence[str], seed: str, options: Mapping[str, str]) -> Outcome[State]:
        return Outcome(rules.new_game(players, seed))

    def parse_steps(self, text: str) -> list[Move]:
        return [notation.parse(text)]

    def play(self, state: State, move: Move, by: str) -> Outcome[State]:
        return rules.play(state, move, by)

    def legal_moves_of(self, state: State, seat: str) -> list[Move]:
        return rules.legal_moves(state, seat)

    def movers(self, state: State) -> tuple[str, ...]:
        return rules.movers(state)

    def turn(self, state: State) -> int:
        return state.turn

    def result(self, state: State) -> Result | None:
        if state.phase != "over":
            return None
        winners = (state.winner,) if state.winner else ()
        return Result(winners=winners, reason=state.reason or "", scores=state.scores())

    def leave(self, state: State, seat: str) -> Outcome[State]:
        return rules.leave(state, seat)

    def finish(self, state: State, result: Result) -> State:
        return rules.finish(state, result)

    # what a seat may see: everything but the seed, until the end (nothing hidden: no Hidden capability)
    def view(self, state: State, viewer: str | None) -> View:
        return views.view(state, viewer)

    def table(self, view: View) -> Table:
        return views.table(cast(views.MartianChessView, view))

    def to_position(self, state: State) -> dict[str, Any]:
        return position.to_position(state)

    def from_position(self, data: Any) -> State:
        return position.from_position(data)

    # --- Scores: the captures, however the game ended (rules.md B15) ------------------------------
    def scores(self, state: State) -> dict[str, int]:
        return state.scores()

    # --- the game's own words ---------------------------------------------------------------------
    def move_kind(self, move: Any) -> str:
        return "move" if isinstance(move, Step) else str(move)  # "pass", "resign"

    def leaving_events(self, state: State, seat: str, reason: str) -> tuple[Event, ...]:
        return (events.resigned(seat, len(state.players) == 4),)

    def last_seat_events(self, winner: str, reason: str) -> tuple[Event, ...]:
        return ()  # the log says who resigned; the result says who is left

    def describe(self, move: Any, by: str, before: State, after: State, viewer: str | None) -> str:
        return views.describe(by, self.step(before, move, by).events)

    # --- the record: `martianchess-game/1` names its rules version --------------------------------
    def record_head(self, players: Sequence[str], options: Mapping[str, str], seed: str) -> dict[str, Any]:
        head = super().record_head(players, self.info.check_options(options), seed)
        return {"format": head["format"], "game": head["game"], "rules": RULES_VERSION, **head}

    def read_record_head(self, record: dict[str, Any]) -> tuple[tuple[str, ...], str, dict[str, str]]:
        files.check_header(record, GAME_ID, self.record_format, "a game record")
        if record.get("rules", RULES_VERSION) != RULES_VERSION:
            raise PositionError(f"rules must be {RULES_VERSION!r}, not {record.get('rules')!r}")
        return position.read_players(record.get("players")), files.text(record.get("seed"), "seed"), {}

    # --- pictures: the game's own ----------------------------------------------------------------
    def board_svg(self, view: View, *, interactive: bool = False) -> str:
        return picture.board_svg(cast(views.MartianChessView, view), interactive=interactive)

    def board_text(self, view: View) -> str:
        return views.board_text(cast(views.MartianChessView, view))

    def board_script(self, view: View) -> BoardScript:
        """The script builds moves from the legal-move list alone, and reads the pieces and zones from
        the picture's data-cell/data-size/data-zone: it needs nothing else (all of it public)."""
        return BoardScript(module="games/martianchess/board.js", data={"phase": view["phase"]})


GAME = MartianChess()

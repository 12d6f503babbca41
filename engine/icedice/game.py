"""IceDice on the kit (engine/kit/): the core the kit turns into the service's interface, and Chance."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, cast

from ..interface import GameInfo, MoveKind, Result, Table, View
from ..kit import draw
from ..kit.base import KitGame
from ..kit.events import Outcome
from . import notation, picture, position, rules, views
from .notation import Move, Roll, Stop, Take
from .state import GAME_ID, PLAYER_COUNTS, REASONS, RULES_VERSION, State

INFO = GameInfo(
    id=GAME_ID,
    name="IceDice",
    player_counts=PLAYER_COUNTS,
    summary="Push your luck with two dice: bank pyramids, steal from rivals, and be first to three Trios.",
    hidden_information=False,
    rules_version=RULES_VERSION,
    board_hint="The dice show the last throw; each Vault is grouped by colour, so a Trio is one full row.",
    chance="who starts and every throw of the two dice",
    reasons=REASONS,
)

RULES = (
    "Collect three Trios (a Small, a Medium and a Large of one colour) in your Vault. On your turn"
    " the dice are thrown for you: the pyramid die shows a size (a face with two lets you pick either),"
    " the colour die a colour or the wild atom. Take a piece of that size and colour from the Bank onto"
    " your Counter; when the Bank has none, steal one from an opponent's Vault. Then roll again or stop"
    " to move your Counter into your Vault. If the colour die shows a colour already on your Counter you"
    " bust and the whole Counter goes back to the Bank. Five colours on the Counter is a rainbow bonus:"
    " they go into your Vault at once and you throw again. The first to hold three Trios wins."
)


class IceDice(KitGame[State, Move]):
    info: ClassVar[GameInfo] = INFO
    KINDS: ClassVar[tuple[MoveKind, ...]] = (
        MoveKind("take", "Take an offered piece", quick=True),
        MoveKind("roll", "Roll again", quick=True),
        MoveKind("stop", "Stop and bank the Counter", quick=True),
    )
    HELP: ClassVar[tuple[tuple[str, str], ...]] = (
        ("take M green", "put a green Medium from the Bank on your Counter (also take green M)"),
        ("take S green from blue", "steal a green Small from blue's Vault (only when the Bank has none)"),
        ("roll", "throw both dice again (last on its line)"),
        ("stop", "move your Counter into your Vault and end your turn (last on its line)"),
        ("take S green from blue; stop", "a take and the decision after it on one line"),
    )
    RULES: ClassVar[str] = RULES

    # --- the core -------------------------------------------------------------------------------
    def start(self, players: Sequence[str], seed: str, options: Mapping[str, str]) -> Outcome[State]:
        return rules.new_game(players, seed)

    def parse_steps(self, text: str) -> list[Move]:
        return [notation.parse(text)]

    def play(self, state: State, move: Move, by: str) -> Outcome[State]:
        return rules.play(state, move, by)

    def canonical(self, state: State, text: str) -> str:
        """A step as the record keeps it: a steal always names its seat, even when the player left
        `from SEAT` out because only one opponent had the piece (the spec's canonical form)."""
        steps = self.parse_steps(text)
        if len(steps) == 1 and isinstance(steps[0], Take) and state.phase == "take":
            return str(rules.canonical_take(state, steps[0]))
        return text

    def legal_moves_of(self, state: State, seat: str) -> list[Move]:
        return rules.legal_moves(state, seat)

    def movers(self, state: State) -> tuple[str, ...]:
        return () if state.to_move is None else (state.to_move,)

    def turn(self, state: State) -> int:
        return views.turn_of(state)

    def result(self, state: State) -> Result | None:
        if state.reason is None:
            return None
        return Result(winners=(state.winner,) if state.winner else (), reason=state.reason)

    def leave(self, state: State, seat: str) -> Outcome[State]:
        return rules.leave(state, seat)

    def finish(self, state: State, result: Result) -> State:
        return rules.finish(state, result.winner, result.reason)

    def ends_line(self, move: Any) -> bool:
        """`roll` and `stop` must be last on their line: what follows a throw is chance (icedice.md)."""
        return isinstance(move, (Roll, Stop))

    # --- Chance ---------------------------------------------------------------------------------
    def reseed(self, state: State, seed: str) -> State:
        """Future throws come from `seed` (the bots sample chance this way); past ones stay as they were."""
        return state.evolve(seed=seed)

    # --- seeing ---------------------------------------------------------------------------------
    def view(self, state: State, viewer: str | None) -> View:
        return views.view(self, state, viewer)

    def table(self, view: View) -> Table:
        return views.table(cast(views.IceDiceView, view))

    def scene(self, view: View) -> draw.Scene:
        return picture.scene(cast(views.IceDiceView, view))

    def click_path(self, move: Move) -> tuple[str, ...]:
        """A take is clicked on the Bank's cell of its kind (then the Vault, for a steal); roll and stop
        are buttons."""
        return picture.click_path(move) if isinstance(move, Take) else ()

    # --- files ----------------------------------------------------------------------------------
    def to_position(self, state: State) -> dict[str, Any]:
        return position.to_position(state)

    def from_position(self, data: Any) -> State:
        return position.from_position(data)


GAME = IceDice()

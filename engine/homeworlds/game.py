"""Homeworlds on the game kit: the core (engine/homeworlds/rules.py, moves.py) behind `KitGame`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..interface import Choice, GameInfo, MoveKind, Option, Result, Table, View
from ..kit import draw
from ..kit.base import KitGame, Resign
from ..kit.events import Outcome
from ..kit.steps import Played, play_line
from . import moves, picture, position, rules, views
from .notation import Done, Step, parse
from .state import GAME_ID, RULES_VERSION, State

INFO = GameInfo(
    id=GAME_ID,
    name="Homeworlds",
    player_counts=(2,),
    options=(
        Option(
            "catastrophes",
            "Catastrophes (which rules? the Primer, or Playing with Pyramids)",
            (
                Choice("anytime", "any time in your turn (the Primer; BGA, SDG)"),
                Choice("end", "only before or after your actions (Playing with Pyramids)"),
            ),
            "anytime",
        ),
        Option(
            "suicide",
            "Suicide (which rules? the Primer, or homeworlds-cli)",
            (
                Choice("legal", "you may empty your homeworld; ending a turn so loses (the Primer)"),
                Choice("illegal", "you may not empty your homeworld (homeworlds-cli)"),
            ),
            "legal",
        ),
        Option(
            "setup",
            "Setup (which rules? the Primer, or Playing with Pyramids)",
            (
                Choice("standard", "two stars and a large ship (the Primer)"),
                Choice("free", "one or two stars, a ship of any size (Playing with Pyramids)"),
            ),
            "standard",
        ),
    ),
    summary="Build a fleet from the bank, explore the stars and take or destroy the other player's homeworld.",
    hidden_information=False,
    rules_version=RULES_VERSION,
    board_hint="Ships point away from their owner; piece colours are technology, not owners.",
    chance="who starts",
    reasons=("homeworld", "both homeworlds", "resignation", "timeout", "draw"),
)


class Homeworlds(KitGame[State, Step]):
    info = INFO
    NO_WINNER_REASONS = ("both homeworlds",)
    KINDS = (
        MoveKind("homeworld", "Make your homeworld"),
        MoveKind("build", "Build (green)"),
        MoveKind("trade", "Trade (blue)"),
        MoveKind("move", "Move (yellow)"),
        MoveKind("discover", "Discover (yellow)"),
        MoveKind("attack", "Attack (red)"),
        MoveKind("sacrifice", "Sacrifice a ship"),
        MoveKind("catastrophe", "Catastrophe"),
        MoveKind("pass", "Pass", quick=True),
        MoveKind("done", "End the turn", quick=True),
    )
    HELP = (
        ("homeworld y2 b1 g3", "your first turn: two stars, then a large ship"),
        ("build g1 North", "build the smallest piece of a colour you have there"),
        ("trade g1 y1 North", "your g1 at North becomes a y1"),
        ("move y1 North Lorem", "your y1 goes to a connected system"),
        ("discover y1 North g2 Lorem", "your y1 leaves North for a new system Lorem whose star is g2"),
        ("attack r2 Lorem", "the enemy r2 at Lorem becomes yours"),
        ("sacrifice y3 North", "return your y3: 3 yellow actions follow, as separate steps"),
        ("catastrophe Lorem red", "4 or more reds at Lorem all go back to the bank"),
        ("pass", "the whole turn: nothing"),
        ("done", "end your turn now"),
    )
    RULES = (
        "Each turn take one action with a ship, in a system where you have the colour (a star or your own"
        " ship): green builds, blue trades, yellow moves or discovers, red captures. Or sacrifice a ship"
        " for as many actions of its colour as its size. Four pieces of a colour in one system may be"
        " destroyed by a catastrophe. You lose when you have no ship at your homeworld at a turn's end."
    )

    def start(self, players: Sequence[str], seed: str, options: Mapping[str, str]) -> Outcome[State]:
        return rules.start(players, seed, options)

    def parse_steps(self, text: str) -> list[Step]:
        return [parse(text)]

    def play(self, state: State, move: Step, by: str) -> Outcome[State]:
        return rules.play(state, move, by)

    def legal_moves_of(self, state: State, seat: str) -> list[Step]:
        return moves.legal_steps(state, seat)

    def movers(self, state: State) -> tuple[str, ...]:
        return () if state.to_move is None else (state.to_move,)

    def turn(self, state: State) -> int:
        return state.turn

    def result(self, state: State) -> Result | None:
        if state.stage != "over":
            return None
        return Result(winners=() if state.winner is None else (state.winner,), reason=state.reason or "")

    def leave(self, state: State, seat: str) -> Outcome[State]:
        return Outcome(state.evolve(resigned=(*state.resigned, seat)))

    def finish(self, state: State, result: Result) -> State:
        over = state.evolve(stage="over", to_move=None, sacrifice=None, this_turn=())
        return over.evolve(winner=result.winner, reason=result.reason)

    def view(self, state: State, viewer: str | None) -> View:
        return views.view(state, viewer)

    def table(self, view: View) -> Table:
        return views.table(view)

    def to_position(self, state: State) -> dict[str, Any]:
        return position.to_position(state)

    def from_position(self, data: Any) -> State:
        return position.from_position(data)

    def scene(self, view: View) -> draw.Scene:
        return picture.scene(view)

    def board_text(self, view: View) -> str:
        """The game's own notation (`g1`, not the drawing kit's `gS`), so a reply can copy it."""
        return views.board_text(view)

    def click_path(self, move: Step) -> tuple[str, ...]:
        return picture.click_path(move)

    def play_line(self, state: State, line: str, by: str) -> list[Played[State]]:
        """REC-H14: the kit's play_line (as every channel reads lines; one trailing `done` after the turn
        has ended by itself is dropped, so `build g1 North; done` is always safe), each text as recorded."""
        played = play_line(self, state, line, by, ignorable=self.ignorable)
        befores = [state, *(step.state for step in played)][: len(played)]
        texts = [self.canonical(before, step.text) for step, before in zip(played, befores, strict=True)]
        return [replace(step, text=text) for step, text in zip(played, texts, strict=True)]

    def ignorable(self, step: Step | Resign, state: State, by: str) -> bool:
        """A `done` after the turn ended by itself is dropped (the kit's play_line asks the game)."""
        return isinstance(step, Done)

    def canonical(self, state: State, text: str) -> str:
        """A step's recorded text: canonical, its systems spelled as at their discovery (`north`: North)."""
        move = self.parse(text)
        return str(move) if isinstance(move, Resign) else str(rules.spelled(state, move))

    def make_record(
        self,
        players: Sequence[str],
        options: Mapping[str, str],
        seed: str,
        moves: Sequence[tuple[str, str]],
        result: Mapping[str, Any] | None,
    ) -> dict[str, Any]:
        record = super().make_record(players, options, seed, moves, result)
        return {"format": record.pop("format"), "game": record.pop("game"), "rules": RULES_VERSION, **record}


GAME = Homeworlds()

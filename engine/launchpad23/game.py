"""Launch Pad 23 on the kit: `Launchpad23` implements the core and the `Sealed`, `Hidden` and
`Chance` capabilities (the secret opening pick; the IceDice dice from the seed)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..errors import IllegalMoveError
from ..interface import GameInfo, MoveKind, Result, Table, View
from ..kit import draw
from ..kit.base import KitGame
from ..kit.core import Randomness
from ..kit.events import Outcome
from ..kit.steps import Played, play_line, split_line
from . import picture, position, rules, views
from .notation import Move, Shift, Start, Word, parse
from .state import SIZES, State

RULES = (
    "Build a rocket on your launchpad: five pieces of one size, one of each colour. Each turn throw "
    "the IceDice dice, add the part they offer to the Factory (from the Bank, or off another "
    "player's pad when the Bank has none), then make 2 to 4 moves of one piece to a side-adjacent "
    "cell, or a total system failure that empties your pad."
)


class Launchpad23(KitGame[State, Move]):
    info = GameInfo(
        id="launchpad23",
        name="Launch Pad 23",
        player_counts=(2, 3, 4),
        summary="Race to stack a five-colour rocket on your launchpad, parts from the IceDice dice.",
        hidden_information=True,
        rules_version="launchpad23/1",
        chance="who starts and every throw of the dice",
        reasons=("rocket", "resignation", "timeout", "draw"),
    )
    KINDS = (
        MoveKind("start", "Opening piece"),
        MoveKind("add", "Add a part"),
        MoveKind("reroll", "Reroll", quick=True),
        MoveKind("move", "Move a piece"),
        MoveKind("failure", "Total system failure", quick=True),
        MoveKind("pass", "Pass", quick=True),
    )
    HELP = (
        ("add M red", "put a red Medium from the Bank on the Factory"),
        ("add M red from blue", "take a red Medium off blue's pad and put it on the Factory"),
        ("M red b2-b1", "move a red Medium from b2 to the adjacent b1"),
        ("start M", "setup: your opening piece is a Medium of your colour (hidden until all have chosen)"),
        ("reroll", "throw both dice again instead of adding (once per turn; last on its line)"),
        ("failure", "total system failure: empty your pad into the Bank (one move)"),
        ("pass", "end your turn now"),
    )
    RULES = RULES

    # --- the core ---------------------------------------------------------------------------------
    def start(self, players: Sequence[str], seed: str, options: Mapping[str, str]) -> Outcome[State]:
        return Outcome(State(players=tuple(players), seed=seed, starts=tuple(None for _ in players)))

    def parse_steps(self, text: str) -> list[Move]:
        return [parse(text)]

    def play(self, state: State, move: Move, by: str) -> Outcome[State]:
        if by not in state.seated():
            raise IllegalMoveError(f"{by} is not playing in this game")
        if state.phase == "start":
            self.check_commitment(state, by, move)
            return self.resolve(state, {by: move})
        if isinstance(move, Start):
            raise IllegalMoveError("the opening pieces are already chosen")
        return rules.play_turn(state, move, by)

    def legal_moves_of(self, state: State, seat: str) -> list[Move]:
        if state.phase == "start":
            return [Start(size) for size in SIZES] if seat in self.sealed_seats(state) else []
        if state.to_move != seat or state.phase == "over":
            return []
        if state.phase == "add":
            return list(rules.part_choices(state))
        return [*rules.moves(state), Word("pass")]

    def movers(self, state: State) -> tuple[str, ...]:
        if state.phase == "start":
            return self.sealed_seats(state)
        return () if state.to_move is None or state.phase == "over" else (state.to_move,)

    def turn(self, state: State) -> int:
        return state.turns

    def result(self, state: State) -> Result | None:
        return Result(winners=state.winners, reason=state.reason) if state.reason else None

    def leave(self, state: State, seat: str) -> Outcome[State]:
        return rules.leave(state, seat)

    def finish(self, state: State, result: Result) -> State:
        return replace(state, phase="over", winners=result.winners, reason=result.reason, to_move=None)

    def view(self, state: State, viewer: str | None) -> View:
        return views.view(state, viewer, self.movers(state))

    def table(self, view: View) -> Table:
        return views.table(view)

    def to_position(self, state: State) -> dict[str, Any]:
        return position.to_position(state)

    def from_position(self, data: Any) -> State:
        return position.from_position(data)

    def scene(self, view: View) -> draw.Scene:
        return picture.scene(view)

    def continues_turn(self, before: State, after: State) -> bool:
        """A pick in setup is no one's turn: the seat that chose is not asked again."""
        return before.phase != "start" and super().continues_turn(before, after)

    def move_kind(self, move: Any) -> str:
        """A piece's move starts with its size (`M red b2-b1`): its kind is `move`."""
        return "move" if isinstance(move, Shift) else super().move_kind(move)

    # --- Sealed: the secret opening pick ----------------------------------------------------------
    def sealed_seats(self, state: State) -> tuple[str, ...]:
        if state.phase != "start":
            return ()
        return tuple(seat for seat in state.seated() if state.start_of(seat) is None)

    def committed_note(self, state: State, seat: str) -> str:
        """Whether a player has chosen is public (launchpad23.md, setup); the piece is not."""
        return "has chosen"

    def check_commitment(self, state: State, seat: str, move: Any) -> None:
        if not isinstance(move, Start):
            raise IllegalMoveError("first choose your opening piece: `start S`, `start M` or `start L`")
        if seat not in self.sealed_seats(state):
            raise IllegalMoveError(f"{seat} has already chosen an opening piece: a pick cannot be changed")

    def resolve(self, state: State, commitments: Mapping[str, Any]) -> Outcome[State]:
        return rules.choose(state, commitments)

    # --- Chance and Hidden ------------------------------------------------------------------------
    def reseed(self, state: State, seed: str) -> State:
        return replace(state, seed=seed)

    def determinize(self, state: State, seat: str, rng: Randomness) -> State:
        """Future throws from a new seed; others' unrevealed opening picks drawn again."""
        reseeded = self.reseed(state, f"determinized:{rng.randrange(1 << 62)}")
        if state.phase != "start":
            return reseeded
        pairs = zip(state.players, state.starts, strict=True)
        guessed = tuple(size if size is None or s == seat else SIZES[rng.randrange(3)] for s, size in pairs)
        return replace(reseeded, starts=guessed)

    def reveal(self, state: State) -> View:
        return views.view(state, None, self.movers(state), revealed=True)

    def public_move_text(self, move: Any, by: str, now: State, viewer: str | None) -> str:
        """An opening pick stays hidden from the others until every pick is on the board."""
        if isinstance(move, Start) and viewer != by and now.phase == "start":
            return "start (hidden)"
        return str(move)

    # --- lines ------------------------------------------------------------------------------------
    def play_line(self, state: State, line: str, by: str) -> list[Played[State]]:
        """`;` steps all or nothing; `reroll` only last (its throw is unseen); a trailing `pass` after
        the turn or the game has ended is ignored."""
        texts = split_line(line)
        for number, text in enumerate(texts[:-1], start=1):
            if text.strip().lower() == "reroll":
                raise IllegalMoveError(f"step {number} (reroll): `reroll` must be last on its line")
        return play_line(self, state, line, by, ignorable=lambda move, _s, _b: move == Word("pass"))


GAME = Launchpad23()

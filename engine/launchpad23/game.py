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
from . import picture, position, rules, views
from .notation import Move, Shift, Start, Word, parse
from .state import SIZES, State

RULES = (
    "Build a rocket on your launchpad: five pieces of one size, one of each colour, and nothing else. "
    "First each player picks the size of an opening piece of their own colour in secret: nobody sees "
    "a pick, or whether it is made, until all have chosen; then the pieces go onto the pads. Each turn "
    "throw the IceDice dice, add the part they offer to the Factory (from the Bank, or off another "
    "player's pad when the Bank has none; or reroll once when a kind is missing), then make 2 to 4 "
    "moves of one piece to a side-adjacent cell (never off another player's pad), or a total system "
    "failure that empties your pad. A rocket wins the moment it stands, in anyone's turn."
)


class Launchpad23(KitGame[State, Move]):
    """No `OpenCommitments` (committed_note) on purpose: issue 27 keeps even whether a player has chosen
    an opening piece secret until all have, over the spec's public "has chosen"."""

    info = GameInfo(
        id="launchpad23",
        name="Launch Pad 23",
        player_counts=(2, 3, 4),
        summary="Race to stack a five-colour rocket on your launchpad, parts from the IceDice dice.",
        hidden_information=True,
        rules_version="launchpad23/1",
        chance="who starts and every throw of the dice",
        reasons=("rocket", "resignation", "timeout", "draw"),
        board_hint="Pads are tinted by owner; the dice show the standing throw, the Bank its pieces below.",
        # Until every pick is in, nobody may know who has chosen: the lists name them all as choosing.
        movers_words={"start": "Choosing opening pieces"},
    )
    KINDS = (
        MoveKind("start", "Opening piece", quick=True),
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
        return views.view(state, viewer, self.waiting_for(state, viewer))

    def waiting_for(self, state: State, viewer: str | None) -> tuple[str, ...]:
        """The movers as `viewer` may know them: in setup every seated player but the viewer once it
        has chosen (whether another has chosen is secret until all have, issue 27)."""
        if state.phase != "start":
            return self.movers(state)
        return tuple(s for s in state.seated() if s != viewer or state.start_of(s) is None)

    def table(self, view: View) -> Table:
        return views.table(view)

    def to_position(self, state: State) -> dict[str, Any]:
        return position.to_position(state)

    def from_position(self, data: Any) -> State:
        return position.from_position(data)

    def scene(self, view: View) -> draw.Scene:
        return picture.scene(view)

    def click_path(self, move: Move) -> tuple[str, ...]:
        """The piece, then the cell it goes to; a part's piece in the Bank or on the pad it comes off."""
        return picture.click_path(move)

    def continues_turn(self, before: State, after: State) -> bool:
        """A pick in setup is no one's turn: the seat that chose is not asked again."""
        return before.phase != "start" and super().continues_turn(before, after)

    def describe(self, move: Any, by: str, before: State, after: State, viewer: str | None) -> str:
        """A pick that opened the game says so with the opening, the first player and the first throw,
        though the service (which holds picks unseen) steps it from a state holding none of the others'."""
        if isinstance(move, Start) and before.phase == "start" and after.phase != "start":
            others = tuple(size if seat != by else None for seat, size in zip(after.players, after.starts, strict=True))
            before = replace(before, starts=others)
        return super().describe(move, by, before, after, viewer)

    def move_kind(self, move: Any) -> str:
        """A piece's move starts with its size (`M red b2-b1`): its kind is `move`."""
        return "move" if isinstance(move, Shift) else super().move_kind(move)

    # --- Sealed: the secret opening pick ----------------------------------------------------------
    def sealed_seats(self, state: State) -> tuple[str, ...]:
        if state.phase != "start":
            return ()
        return tuple(seat for seat in state.seated() if state.start_of(seat) is None)

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
        """Future throws from a new seed; in setup the others as not yet chosen: `seat` knows neither
        their picks nor whether they have made them, and any order of picks resolves alike."""
        reseeded = self.reseed(state, f"determinized:{rng.randrange(1 << 62)}")
        if state.phase != "start":
            return reseeded
        own = tuple(size if s == seat else None for s, size in zip(state.players, state.starts, strict=True))
        return replace(reseeded, starts=own)

    def reveal(self, state: State) -> View:
        return views.view(state, None, self.movers(state), revealed=True)

    def public_move_text(self, move: Any, by: str, now: State, viewer: str | None) -> str:
        """An opening pick stays hidden from the others until every pick is on the board."""
        if isinstance(move, Start) and viewer != by and now.phase == "start":
            return "start (hidden)"
        return str(move)

    # --- lines: the kit's play_line (engine/kit/steps.py) asks these -----------------------------
    def ends_line(self, move: Any) -> bool:
        """`reroll` is last on its line: its throw is not yet seen."""
        return isinstance(move, Word) and move.verb == "reroll"

    def ignorable(self, move: Any, state: State, by: str) -> bool:
        """A trailing `pass` after the turn or the game has ended is dropped (spec "Notation")."""
        return isinstance(move, Word) and move.verb == "pass"


GAME = Launchpad23()

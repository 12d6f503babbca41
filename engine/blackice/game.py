"""Black ICE on the game kit: the rules (rules.py) behind `KitGame`, with the `Hidden` Codes and
the `Chance` of the dice and Resets."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..interface import GameInfo, MoveKind, Result, Table, View
from ..kit import draw
from ..kit.base import KitGame, Resign
from ..kit.core import Randomness
from ..kit.events import Outcome
from . import picture, position, rules, views
from .notation import PASS, Move, parse
from .state import BOX, GAME_ID, RULES_VERSION, Lock, State, sorted_codes

INFO = GameInfo(
    id=GAME_ID,
    name="Black ICE",
    player_counts=(2,),
    summary='Crack the three hidden Codes: peek, swap, set your Keys and declare "I win!" first.',
    hidden_information=True,
    rules_version=RULES_VERSION,
    board_hint="A Lock shows its Code only to a player whose mark is on it.",
    chance="who starts, the hidden Codes, every throw of the dice and every Reset's new Code",
    reasons=("declaration", "wrong declaration", "resignation", "timeout", "draw"),
)


class BlackIce(KitGame[State, Move]):
    info = INFO
    KINDS = (
        MoveKind("copy", "Copy (aim)"),
        MoveKind("peek", "Peek (tip)"),
        MoveKind("reset", "Reset (dig)"),
        MoveKind("set", "Set (hop)"),
        MoveKind("swap", "Swap"),
        MoveKind("declare", "I win!", quick=True),
        MoveKind("pass", "Pass", quick=True),
    )
    HELP = (
        ("peek 2", "look at the Code in Lock 2"),
        ("swap locks 1 3", "exchange Locks 1 and 3"),
        ("swap keys 1 2", "exchange your Keys on Nodes 1 and 2"),
        ("set 2 red", "put a red Key on your Node 2"),
        ("reset 3", "reload Lock 3 with a new Code"),
        ("copy 2", "match your Node 2 to your opponent's Node 2"),
        ("declare", '"I win!"'),
        ("pass", "end your turn, giving up unused actions"),
    )
    RULES = (
        "Three Codes hide under the Locks. Each turn throw three dice (a repeated face, or one that could"
        " do nothing, is wild) and take up to three actions: peek at a Lock, swap two Locks or two of your"
        ' Keys, set a Key, reset a Lock your opponent peeked, copy your opponent\'s Key. Declare "I win!"'
        " with a Key on each Node: if your Keys match the Codes you win, otherwise your opponent wins."
    )

    # --- the core -----------------------------------------------------------------------------
    def start(self, players: Sequence[str], seed: str, options: Mapping[str, str]) -> Outcome[State]:
        return rules.start(players, seed)

    def parse_steps(self, text: str) -> list[Move]:
        return [parse(text)]

    def play(self, state: State, move: Move, by: str) -> Outcome[State]:
        return rules.play(state, move, by)

    def legal_moves_of(self, state: State, seat: str) -> list[Move]:
        return rules.legal_steps(state, seat)

    def movers(self, state: State) -> tuple[str, ...]:
        return () if state.outcome is not None else (state.to_move,)

    def turn(self, state: State) -> int:
        return state.turn

    def result(self, state: State) -> Result | None:
        return state.outcome

    def leave(self, state: State, seat: str) -> Outcome[State]:
        return Outcome(state.evolve(resigned=(*state.resigned, seat)))

    def finish(self, state: State, result: Result) -> State:
        return state.evolve(outcome=result)

    def view(self, state: State, viewer: str | None) -> View:
        return views.view(state, viewer)

    def table(self, view: View) -> Table:
        return views.table(view)

    def scene(self, view: View) -> draw.Scene:
        return picture.scene(view)

    def board_text(self, view: View) -> str:
        return views.board_text(view)

    def click_path(self, move: Move) -> tuple[str, ...]:
        return picture.click_path(move)

    def to_position(self, state: State) -> dict[str, Any]:
        return position.to_position(state)

    def from_position(self, data: Any) -> State:
        return position.from_position(data)

    def ignorable(self, move: Any, state: State, by: str) -> bool:
        """The kit's `play_line` (every channel's) drops this step when it ends a line after the turn:
        REC-B9, a `pass` after the turn ended by itself; after `declare` it is refused."""
        return bool(move == PASS and state.outcome is None)

    # --- Hidden: the Codes a seat has not peeked ------------------------------------------------
    def determinize(self, state: State, seat: str, rng: Randomness) -> State:
        """Every Code `seat` has no mark on dealt again, with the Box, from the 12 less those it knows;
        the seed replaced (future dice and Resets). Nothing here reads a Code `seat` cannot see."""
        known = [lock.code for lock in state.locks if seat in lock.peeked_by]
        pool = list(BOX)
        for code in known:
            pool.remove(code)
        rng.shuffle(pool)
        locks = []
        for lock in state.locks:
            locks.append(lock if seat in lock.peeked_by else Lock(pool.pop(), lock.peeked_by))
        dealt = state.evolve(locks=tuple(locks), box=sorted_codes(pool))
        return self.reseed(dealt, f"determinized:{rng.randrange(1 << 62)}")

    def reveal(self, state: State) -> View:
        return views.view(state, None, everything=True)

    def public_move_text(self, move: Move | Resign, by: str, now: State, viewer: str | None) -> str:
        """A step's notation names no Code (a Peek's Code is only in its event's secret)."""
        return str(move)

    # --- Chance: the dice and Resets to come -----------------------------------------------------
    def reseed(self, state: State, seed: str) -> State:
        return state.evolve(seed=seed)


GAME = BlackIce()

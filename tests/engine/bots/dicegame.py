"""Pig with a sealed bid: a tiny dice game on the kit, to prove the kit's bots need nothing but the
interface (several steps a turn, a die, a secret simultaneous step, two to five players).

Every seat first bids 1, 2 or 3 in secret (a sealed step); the highest bid starts (the first seat
among equals), and each seat must reach TARGET plus its own bid. On a turn the seat may `roll` the
die as often as it likes, adding the throw to its turn's total, and `stop` to bank the total: a 1
loses the turn's total and ends the turn. The die is thrown from the seed (the kit's `Chance`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.errors import IllegalMoveError, NotationError
from engine.interface import BoardScript, GameInfo, MoveKind, Result, SeatSummary, Table, View
from engine.kit.base import KitGame
from engine.kit.events import Event, Outcome

TARGET = 12


@dataclass(frozen=True)
class Roll:
    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True)
class Stop:
    def __str__(self) -> str:
        return "stop"


@dataclass(frozen=True)
class Bid:
    points: int

    def __str__(self) -> str:
        return f"bid {self.points}"


Move = Roll | Stop | Bid


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    seed: str
    resigned: tuple[str, ...] = ()
    targets: tuple[int, ...] = ()  # empty while the bids are sealed
    scores: tuple[int, ...] = ()
    to_move: int = 0
    turn_total: int = 0
    throws: int = 0
    turn: int = 0
    outcome: Result | None = None

    def index(self, seat: str) -> int:
        return self.players.index(seat)


class SealedPig(KitGame[State, Move]):
    info = GameInfo(id="sealedpig", name="Sealed Pig", player_counts=(2, 3, 4, 5), hidden_information=False)
    KINDS = (MoveKind("roll", "Roll", quick=True), MoveKind("stop", "Stop", quick=True), MoveKind("bid", "Bid"))
    HELP = (("roll", "throw the die"), ("stop", "bank the turn's total"), ("bid 2", "bid 2 in secret"))
    RULES = "Bid in secret, then roll as often as you dare and stop to bank; a 1 loses the turn's total."

    def start(self, players: Sequence[str], seed: str, options: Mapping[str, str]) -> Outcome[State]:
        return Outcome(State(players=tuple(players), seed=seed))

    def parse_steps(self, text: str) -> list[Move]:
        words = text.split()
        if words == ["roll"]:
            return [Roll()]
        if words == ["stop"]:
            return [Stop()]
        if len(words) == 2 and words[0] == "bid" and words[1] in ("1", "2", "3"):
            return [Bid(int(words[1]))]
        raise NotationError(f"not a move: {text!r}")

    # --- the sealed bid ---------------------------------------------------------------------------
    def sealed_seats(self, state: State) -> tuple[str, ...]:
        return self._in_play(state) if not state.targets and state.outcome is None else ()

    def check_commitment(self, state: State, seat: str, move: Any) -> None:
        if seat not in self.sealed_seats(state) or not isinstance(move, Bid):
            raise IllegalMoveError("bid 1, 2 or 3")

    def resolve(self, state: State, commitments: Mapping[str, Any]) -> Outcome[State]:
        bids = [commitments[seat].points if seat in commitments else 0 for seat in state.players]
        starter = bids.index(max(bids))
        targets = tuple(TARGET + bid for bid in bids)
        events = tuple(Event("bid", f"{seat} bid {bid}", seat) for seat, bid in zip(state.players, bids, strict=True))
        scores = (0,) * len(state.players)
        return Outcome(replace(state, targets=targets, scores=scores, to_move=starter, turn=1), events)

    # --- chance -----------------------------------------------------------------------------------
    def reseed(self, state: State, seed: str) -> State:
        return replace(state, seed=seed)

    def die(self, state: State) -> int:
        digest = hashlib.sha256(f"{state.seed}:{state.throws}".encode()).digest()
        return digest[0] % 6 + 1

    # --- a turn -----------------------------------------------------------------------------------
    def play(self, state: State, move: Move, by: str) -> Outcome[State]:
        if by not in self.movers(state) or not state.targets or isinstance(move, Bid):
            raise IllegalMoveError(f"{by} may not {move} now")
        if isinstance(move, Stop):
            if not state.turn_total:
                raise IllegalMoveError("nothing to bank yet")
            return self._bank(state, by)
        thrown = self.die(state)
        state = replace(state, throws=state.throws + 1)
        event = Event("throw", f"{by} threw {thrown}", by, {"dice": [thrown]})
        if thrown == 1:
            return Outcome(self._next(replace(state, turn_total=0)), (event,))
        return Outcome(replace(state, turn_total=state.turn_total + thrown), (event,))

    def _bank(self, state: State, by: str) -> Outcome[State]:
        i = state.index(by)
        scores = tuple(s + state.turn_total if j == i else s for j, s in enumerate(state.scores))
        state = replace(state, scores=scores, turn_total=0)
        if scores[i] >= state.targets[i]:
            return Outcome(replace(state, outcome=Result(winners=(by,), reason="score")))
        return Outcome(self._next(state))

    def _next(self, state: State) -> State:
        order = [(state.to_move + k) % len(state.players) for k in range(1, len(state.players) + 1)]
        following = next(i for i in order if state.players[i] not in state.resigned)
        return replace(state, to_move=following, turn=state.turn + 1)

    def legal_moves_of(self, state: State, seat: str) -> list[Move]:
        if seat not in self.movers(state):
            return []
        if not state.targets:
            return [Bid(1), Bid(2), Bid(3)]
        return [Roll(), Stop()] if state.turn_total else [Roll()]

    def movers(self, state: State) -> tuple[str, ...]:
        if state.outcome is not None:
            return ()
        if not state.targets:
            return self._in_play(state)
        return (state.players[state.to_move],)

    def _in_play(self, state: State) -> tuple[str, ...]:
        return tuple(seat for seat in state.players if seat not in state.resigned)

    def turn(self, state: State) -> int:
        return state.turn

    def result(self, state: State) -> Result | None:
        return state.outcome

    def leave(self, state: State, seat: str) -> Outcome[State]:
        left = replace(state, resigned=(*state.resigned, seat))
        if state.targets and state.players[state.to_move] == seat:
            left = self._next(replace(left, turn_total=0))
        return Outcome(left)

    def finish(self, state: State, result: Result) -> State:
        return replace(state, outcome=result)

    # --- what a seat sees: everything (the bids are sealed outside the state) ----------------------
    def view(self, state: State, viewer: str | None) -> View:
        result = state.outcome
        return View(
            format="sealedpig-view/1",
            game="sealedpig",
            viewer=viewer,
            players=list(state.players),
            phase="over" if result else ("bid" if not state.targets else "play"),
            to_move=None if result or not state.targets else state.players[state.to_move],
            movers=list(self.movers(state)),
            turn=state.turn,
            resigned=list(state.resigned),
            winner=result.winner if result else None,
            reason=result.reason if result else None,
            seed_commitment="",
        )

    def table(self, view: View) -> Table:
        return Table(status=view["phase"], seats=tuple(SeatSummary(colour=seat, facts=()) for seat in view["players"]))

    def to_position(self, state: State) -> dict[str, Any]:
        return {
            "players": list(state.players),
            "seed": state.seed,
            "targets": list(state.targets),
            "scores": list(state.scores),
            "to_move": state.to_move,
            "turn_total": state.turn_total,
            "throws": state.throws,
            "turn": state.turn,
        }

    def from_position(self, data: Any) -> State:
        fields = {key: tuple(value) if isinstance(value, list) else value for key, value in data.items()}
        return State(**fields)

    def board_svg(self, view: View, *, interactive: bool = False) -> str:
        return "<svg/>"

    def board_text(self, view: View) -> str:
        return view["phase"]

    def board_script(self, view: View) -> BoardScript:
        return BoardScript(module="")


GAME = SealedPig()


def playing(players: int = 2, seed: str = "pig", **changes: Any) -> State:
    """A state after the bids (all 1: red starts), with `changes` applied."""
    seats = ("red", "yellow", "green", "blue", "black")[:players]
    state = GAME.resolve(GAME.new_game(seats, seed, {}), {seat: Bid(1) for seat in seats}).state
    return replace(state, **changes)

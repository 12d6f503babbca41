"""Tiny games on the kit, for its own tests: `Race` (a die a turn, several steps, a sealed opening)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.errors import IllegalMoveError, NotationError, PositionError
from engine.interface import BoardScript, GameInfo, MoveKind, Result, SeatSummary, Table, View
from engine.kit.base import KitGame
from engine.kit.events import Event, Outcome
from engine.shuffle import shuffled

GOAL = 10


@dataclass(frozen=True)
class Step:
    """`add N` moves the mover's runner N; `pass` ends the turn; `bid N` is the sealed opening."""

    verb: str
    amount: int = 0

    def __str__(self) -> str:
        return self.verb if self.verb == "pass" else f"{self.verb} {self.amount}"


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    seed: str
    bids: tuple[tuple[str, int], ...] = ()  # the sealed opening, once resolved
    runners: tuple[tuple[str, int], ...] = ()
    to_move: str | None = None
    points: int = 0  # what is left of this turn's throw
    throws: int = 0
    turns: int = 0
    resigned: tuple[str, ...] = ()
    winners: tuple[str, ...] = ()
    reason: str | None = None

    def at(self, seat: str) -> int:
        return dict(self.runners).get(seat, 0)


class Race(KitGame[State, Step]):
    """Players bid 1-3 in secret; the highest bid (ties: seating) starts. Each turn throws a die of
    points; `add N` spends N; first runner to GOAL wins."""

    info = GameInfo(
        id="race",
        name="Race",
        player_counts=(2, 3),
        hidden_information=False,
        reasons=("finish", "resignation", "timeout", "draw"),
    )
    KINDS = (MoveKind("bid", "Bid"), MoveKind("add", "Add"), MoveKind("pass", "Pass", quick=True))
    HELP = (("add 2", "move your runner 2"), ("pass", "end your turn"))
    RULES = "Throw, run, reach ten first."

    def start(self, players: Sequence[str], seed: str, options: Mapping[str, str]) -> Outcome[State]:
        return Outcome(State(players=tuple(players), seed=seed, runners=tuple((p, 0) for p in players)))

    def parse_steps(self, text: str) -> list[Step]:
        words = text.strip().lower().split()
        if words == ["pass"]:
            return [Step("pass")]
        if len(words) == 2 and words[0] in ("add", "bid") and words[1].isdigit():
            return [Step(words[0], int(words[1]))]
        if words and words[0] == "path" and all(w.isdigit() for w in words[1:]):
            return [Step("add", int(w)) for w in words[1:]]
        raise NotationError(f"cannot read {text!r}")

    # the sealed opening
    def sealed_seats(self, state: State) -> tuple[str, ...]:
        return () if state.bids else tuple(p for p in state.players if p not in state.resigned)

    def check_commitment(self, state: State, seat: str, move: Step) -> None:
        if move.verb != "bid" or not 1 <= move.amount <= 3:
            raise IllegalMoveError("bid 1, 2 or 3")

    def resolve(self, state: State, commitments: Mapping[str, Any]) -> Outcome[State]:
        bids = tuple((seat, commitments[seat].amount) for seat in state.players if seat in commitments)
        first = max(bids, key=lambda bid: bid[1])[0]
        opened = replace(state, bids=bids)
        shown = Event("bids", ", ".join(f"{s} bid {n}" for s, n in bids), data={"bids": dict(bids)})
        turn = self._throw(opened, first)
        return Outcome(turn.state, (shown, *turn.events))

    def _throw(self, state: State, seat: str) -> Outcome[State]:
        die = shuffled([1, 2, 3, 4, 5, 6], state.seed, 100 + state.throws)[0]
        thrown = replace(state, to_move=seat, points=die, throws=state.throws + 1, turns=state.turns + 1)
        return Outcome(thrown, (Event("throw", f"{seat} threw {die}", seat, {"dice": [die]}),))

    def reseed(self, state: State, seed: str) -> State:
        return replace(state, seed=seed)

    def play(self, state: State, move: Step, by: str) -> Outcome[State]:
        if state.to_move != by:
            raise IllegalMoveError(f"it is not {by}'s turn")
        if move.verb == "pass":
            return self._next(state, by, (Event("pass", f"{by} passes", by),))
        if move.verb != "add" or not 1 <= move.amount <= state.points:
            raise IllegalMoveError(f"you have {state.points} points")
        runners = tuple((s, n + move.amount if s == by else n) for s, n in state.runners)
        moved = replace(state, runners=runners, points=state.points - move.amount)
        ran = Event("add", f"{by} runs {move.amount}", by)
        if moved.at(by) >= GOAL:
            return Outcome(replace(moved, winners=(by,), reason="finish", to_move=None), (ran,))
        return self._next(moved, by, (ran,)) if moved.points == 0 else Outcome(moved, (ran,))

    def _next(self, state: State, by: str, events: tuple[Event, ...]) -> Outcome[State]:
        seats = [p for p in state.players if p not in state.resigned]
        following = seats[(seats.index(by) + 1) % len(seats)] if by in seats else seats[0]
        turn = self._throw(state, following)
        return Outcome(turn.state, (*events, *turn.events))

    def legal_moves_of(self, state: State, seat: str) -> list[Step]:
        if self.sealed_seats(state):
            return [Step("bid", n) for n in (1, 2, 3)] if seat in self.sealed_seats(state) else []
        if state.to_move != seat:
            return []
        return [*(Step("add", n) for n in range(1, state.points + 1)), Step("pass")]

    def movers(self, state: State) -> tuple[str, ...]:
        if state.reason:
            return ()
        return self.sealed_seats(state) or ((state.to_move,) if state.to_move else ())

    def turn(self, state: State) -> int:
        return state.turns

    def result(self, state: State) -> Result | None:
        return Result(winners=state.winners, reason=state.reason) if state.reason else None

    def leave(self, state: State, seat: str) -> Outcome[State]:
        left = replace(state, resigned=(*state.resigned, seat))
        if state.to_move == seat and len(left.resigned) < len(left.players) - 1:
            return self._next(left, seat, ())
        return Outcome(left)

    def finish(self, state: State, result: Result) -> State:
        return replace(state, winners=result.winners, reason=result.reason, to_move=None)

    def view(self, state: State, viewer: str | None) -> View:
        return {
            "format": "race-view/1",
            "game": "race",
            "viewer": viewer,
            "players": list(state.players),
            "phase": "over" if state.reason else "play",
            "to_move": state.to_move,
            "movers": list(self.movers(state)),
            "turn": state.turns,
            "resigned": list(state.resigned),
            "winner": state.winners[0] if len(state.winners) == 1 else None,
            "reason": state.reason,
            "seed_commitment": "",
        }

    def table(self, view: View) -> Table:
        return Table(status="", seats=tuple(SeatSummary(colour=p, facts=()) for p in view["players"]))

    def to_position(self, state: State) -> dict[str, Any]:
        return {"format": "race-position/1", "game": "race", "runners": dict(state.runners)}

    def from_position(self, data: Any) -> State:
        raise PositionError("race positions are not read back")

    def board_svg(self, view: View, *, interactive: bool = False) -> str:
        return "<svg/>"

    def board_text(self, view: View) -> str:
        return ""

    def board_script(self, view: View) -> BoardScript:
        return BoardScript(module="")


RACE = Race()

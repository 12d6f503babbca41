"""`KitGame`: the service's interface (engine/interface.py) made from a game's small core once.

A game subclasses `KitGame`, implements `Rules` (engine/kit/core.py) and whichever capabilities
its rules need; the base gives it resignation, agreed draws, abandonment and time-outs, the
`ID-game/1` record with replay and result checking, descriptions written from events, and what a
game without a capability answers (no hands, nothing hidden but the seed).
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any, ClassVar, Generic, TypeVar, cast

from ..errors import IllegalMoveError, NotationError, PositionError, ReplayError
from ..interface import BoardScript, GameInfo, MoveKind, Result, Table, View
from ..records import check_scores, read_moves, read_scores
from . import draw, files
from .core import Scores, Sealed
from .events import Event, Outcome, lines

S = TypeVar("S")
M = TypeVar("M")


class Resign:
    """The kit's own step `resign`: every game has it, no game parses or lists it itself."""

    def __str__(self) -> str:
        return "resign"

    def __repr__(self) -> str:
        return "RESIGN"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Resign)

    def __hash__(self) -> int:
        return hash("resign")


RESIGN = Resign()
KIT_SCRIPT = "js/kit_board.js"  # the one click-to-move script every game on the kit may use
WINNERLESS = ("draw", "timeout")  # results a record may state for a game its moves left unfinished
# A step's event lines, one after another in its description: "red rolls; red threw M + atom; red took
# M green (the only choice)". A space alone ran the lines together into one unreadable sentence.
STEP_JOIN = "; "


class KitGame(ABC, Generic[S, M]):
    info: ClassVar[GameInfo]
    KINDS: ClassVar[tuple[MoveKind, ...]]  # the notation's verbs, in the legal-move list's order
    HELP: ClassVar[tuple[tuple[str, str], ...]]  # (example, meaning) rows; "resign" is added
    RULES: ClassVar[str]  # a few plain sentences: the goal and a turn
    # Reasons the game's own rules end with no winner (Homeworlds' "both homeworlds"): a record may state them.
    NO_WINNER_REASONS: ClassVar[tuple[str, ...]] = ()
    # Reasons the game's own rules end with several winners (Deck Town's "tie"): a record lists them as `tied`.
    TIE_REASONS: ClassVar[tuple[str, ...]] = ()

    # --- the core (engine/kit/core.py: Rules) --------------------------------------------------
    @abstractmethod
    def start(self, players: Sequence[str], seed: str, options: Mapping[str, str]) -> Outcome[S]: ...

    @abstractmethod
    def parse_steps(self, text: str) -> list[M]: ...

    @abstractmethod
    def play(self, state: S, move: M, by: str) -> Outcome[S]: ...

    @abstractmethod
    def legal_moves_of(self, state: S, seat: str) -> list[M]:
        """Every legal step of `seat`, resignation left out (the base adds it)."""

    @abstractmethod
    def movers(self, state: S) -> tuple[str, ...]: ...

    @abstractmethod
    def turn(self, state: S) -> int: ...

    @abstractmethod
    def result(self, state: S) -> Result | None: ...

    @abstractmethod
    def leave(self, state: S, seat: str) -> Outcome[S]: ...

    @abstractmethod
    def finish(self, state: S, result: Result) -> S: ...

    @abstractmethod
    def view(self, state: S, viewer: str | None) -> View: ...

    @abstractmethod
    def table(self, view: View) -> Table: ...

    @abstractmethod
    def to_position(self, state: S) -> dict[str, Any]: ...

    @abstractmethod
    def from_position(self, data: Any) -> S: ...

    # --- pictures: one description (engine/kit/draw), unless the game draws its own ------------
    def scene(self, view: View) -> draw.Scene:
        """The board as the drawing kit's description; a game implements this, or else overrides
        `board_svg`, `board_text` and `board_script` with pictures of its own."""
        raise NotImplementedError(f"{type(self).__name__} describes no scene: it must draw its own board")

    def board_svg(self, view: View, *, interactive: bool = False) -> str:
        return draw.svg(self.scene(view), interactive=interactive)

    def board_text(self, view: View) -> str:
        return draw.text(self.scene(view))

    def board_script(self, view: View) -> BoardScript:
        """The kit's click script; the page adds each legal step's click path (`click_steps`)."""
        return BoardScript(module=KIT_SCRIPT, data={})

    def click_path(self, move: M) -> tuple[str, ...]:
        """The targets a player clicks, in order, to make `move`: by default the move's words that
        name a target of the board (`c1-c2` is c1 then c2). A game whose moves name their targets
        otherwise (`enter M c1`: the supply's Medium, then c1) says so here."""
        return tuple(word for word in re.split(r"[\s;-]+", str(move)) if word)

    def click_steps(self, view: View, moves: Sequence[str]) -> list[dict[str, Any]]:
        """For the click script: each legal step's text and click path, kept to the targets the
        viewer's scene has (a move with none, `pass` or `roll`, gets an empty path: a button). A game
        that draws its own picture names its `data-target`s itself: its paths are kept whole. A game
        with its own board script (Zark City's) builds moves from clicks itself: it gets none."""
        if type(self).board_script is not KitGame.board_script:
            return []
        drawn = type(self).scene is not KitGame.scene
        targets = draw.targets(self.scene(view)) if drawn else None
        steps: list[dict[str, Any]] = []
        for text in moves:
            move = self.parse(text)
            path = () if isinstance(move, Resign) else self.click_path(move)
            steps.append({"text": text, "path": [name for name in path if targets is None or name in targets]})
        return steps

    # --- play, with resignation as the kit's own step -------------------------------------------
    def new_game(self, players: Sequence[str], seed: str, options: Mapping[str, str]) -> S:
        return self.begin(players, seed, options).state

    def begin(self, players: Sequence[str], seed: str, options: Mapping[str, str]) -> Outcome[S]:
        """The opening state and the events of the setup (a first throw), options checked."""
        return self.start(players, seed, self.info.check_options(options))

    def parse(self, text: str) -> M | Resign:
        """One step; a path standing for several steps is refused here (a line takes it: `steps`)."""
        if text.strip().lower() == "resign":
            return RESIGN
        steps = self.parse_steps(text)
        if len(steps) != 1:
            raise NotationError(f"{text.strip()!r} is {len(steps)} steps: give them one by one, or on a line with ;")
        return steps[0]

    def step(self, state: S, move: M | Resign, by: str) -> Outcome[S]:
        """`apply` with its events."""
        if isinstance(move, Resign):
            return self.resign_step(state, by, "resignation")
        self.refuse(state, "move")
        return self.play(state, move, by)

    def apply(self, state: S, move: M | Resign, by: str) -> S:
        return self.step(state, move, by).state

    def legal_moves(self, state: S, colour: str) -> list[M | Resign]:
        if self.result(state) is not None or not self._seated(state, colour):
            return []
        return [*self.legal_moves_of(state, colour), RESIGN]

    def phase(self, state: S) -> str:
        return "over" if self.result(state) is not None else "play"

    def simultaneous(self, state: S) -> bool:
        return self.has_sealed_steps and bool(cast(Sealed, self).sealed_seats(state))

    def is_resign(self, move: Any) -> bool:
        return isinstance(move, Resign)

    def continues_turn(self, before: S, after: S) -> bool:
        return self.result(after) is None and self.turn(before) == self.turn(after)

    def move_kind(self, move: Any) -> str:
        return str(move).split()[0]

    def only_kind(self, state: S, colour: str) -> str | None:
        """The kind every legal move of `colour` now is of, resignation aside, when they are all of one
        kind ("place": place your starter); None when they have a choice of kinds, or no move. From the
        whole list here; a game with many moves a turn may know it sooner (Zark City)."""
        kinds = {self.move_kind(move) for move in self.legal_moves(state, colour) if not self.is_resign(move)}
        return kinds.pop() if len(kinds) == 1 else None

    # --- leaving and ending, once for every game ------------------------------------------------
    def resign(self, state: S, colour: str, reason: str = "resignation") -> S:
        return self.resign_step(state, colour, reason).state

    def resign_step(self, state: S, colour: str, reason: str) -> Outcome[S]:
        """`colour` leaves; when one seat is left it wins by `reason` (resignation or timeout)."""
        self.refuse(state, "resign", colour)
        left = self.leave(state, colour)
        events = (*self.leaving_events(state, colour, reason), *left.events)
        remaining = [seat for seat in _players(left.state) if self._seated(left.state, seat)]
        if len(remaining) == 1 and self.result(left.state) is None:
            ended = self.finish(left.state, Result(winners=(remaining[0],), reason=reason))
            return Outcome(ended, (*events, *self.last_seat_events(remaining[0], reason)))
        return Outcome(left.state, events)

    def leaving_events(self, state: S, seat: str, reason: str) -> tuple[Event, ...]:
        """What the log says as `seat` leaves, before `leave`'s own events: a game may word it itself."""
        words = "resigns" if reason == "resignation" else f"is out ({reason})"
        return (Event("resign", f"{seat} {words}", seat),)

    def last_seat_events(self, winner: str, reason: str) -> tuple[Event, ...]:
        """What the log says when the last seat left wins (a game whose log never said it says nothing)."""
        return (Event("end", f"{winner} wins", winner),)

    def agree_draw(self, state: S) -> S:
        self.refuse(state, "draw")
        return self.finish(state, Result(winners=(), reason="draw"))

    def abandon(self, state: S, reason: str = "timeout") -> S:
        """Every remaining seat out of time at once: no winner (resigning them one by one would crown
        whoever happened to go last)."""
        self.refuse(state, "abandon")
        if reason != "timeout":
            raise NotationError(f"abandon ends a game by timeout (a draw is agree_draw), not {reason!r}")
        return self.finish(state, Result(winners=(), reason=reason))

    def refuse(self, state: S, action: str, seat: str | None = None) -> None:
        """IllegalMoveError when `action` (a `move`, `resign`, `draw`, `abandon`) cannot happen: the game
        is over, or `seat` does not play. These are the kit's words; a game with its own overrides them."""
        if self.result(state) is not None:
            raise IllegalMoveError("the game is over")
        if seat is not None and not self._seated(state, seat):
            raise IllegalMoveError(f"{seat} is not playing in this game")

    def _seated(self, state: S, colour: str) -> bool:
        return colour in _players(state) and colour not in getattr(state, "resigned", ())

    # --- what a seat may see --------------------------------------------------------------------
    # Hands, hidden information and card faces are capabilities a game implements itself
    # (engine/kit/core.py): the base defines none of their methods, so `isinstance` tells the truth.
    def describe(self, move: M | Resign, by: str, before: S, after: S, viewer: str | None) -> str:
        """The step in words as `viewer` may read them: its events' lines."""
        events = self.step(before, move, by).events
        return STEP_JOIN.join(lines(events, viewer, revealed=self.result(after) is not None)) or f"{by}: {move}"

    def describe_revealed(self, move: M | Resign, by: str, before: S, after: S) -> str:
        """A step of a finished game in words, with every secret its events kept (a Peek's Code, a
        Reset's new Code): nothing is hidden once the game is over (the replay and the printable log).
        A game that writes its own sentences (`describe`) keeps them, as a spectator reads them."""
        if type(self).describe is not KitGame.describe:
            return self.describe(move, by, before, after, None)
        events = self.step(before, move, by).events
        return STEP_JOIN.join(lines(events, None, revealed=True)) or f"{by}: {move}"

    # --- help -----------------------------------------------------------------------------------
    def rules_summary(self) -> str:
        return self.RULES

    def notation_help(self) -> tuple[tuple[str, str], ...]:
        return (*self.HELP, ("resign", "leave the game"))

    def move_kinds(self) -> tuple[MoveKind, ...]:
        return (*self.KINDS, MoveKind("resign", "Resign", quick=True))

    # --- the game record: `ID-game/1`, one entry per step ----------------------------------------
    @property
    def record_format(self) -> str:
        return f"{self.info.id}-game/1"

    def make_record(
        self,
        players: Sequence[str],
        options: Mapping[str, str],
        seed: str,
        moves: Sequence[tuple[str, str]],
        result: Mapping[str, Any] | None,
    ) -> dict[str, Any]:
        record = self.record_head(players, options, seed)
        record["moves"] = [{"by": by, "move": text} for by, text in moves]
        record["result"] = None if result is None else dict(result)
        return record

    def record_head(self, players: Sequence[str], options: Mapping[str, str], seed: str) -> dict[str, Any]:
        """A record's fields before its moves, in the order the file lists them. A game whose record
        format names more (a rules version, a deck) says so here, and reads them in `read_record_head`."""
        head: dict[str, Any] = {"format": self.record_format, "game": self.info.id, "players": list(players)}
        if self.info.options:
            head["options"] = self.info.check_options(options)
        head["seed"] = seed
        return head

    def read_record_head(self, record: dict[str, Any]) -> tuple[tuple[str, ...], str, dict[str, str]]:
        """A record's players, seed and options, each checked (PositionError names what is wrong)."""
        files.check_header(record, self.info.id, self.record_format, "a game record")
        players = files.read_players(record.get("players"), self.info.name, self.info.player_counts)
        seed = record.get("seed")
        if not isinstance(seed, str):
            raise PositionError(f"seed must be text, not {seed!r}")
        options = record.get("options", {})
        if not isinstance(options, dict):
            raise PositionError(f"options must be an object, not {options!r}")
        return players, seed, options

    def read_seat(self, value: Any, what: str, players: tuple[str, ...]) -> str:
        """A colour a record names (a move's `by`, the winner), which must be seated in the game."""
        return _seated_in(value, what, players)

    def record_result(self, state: S) -> dict[str, Any] | None:
        result = self.result(state)
        if result is None:
            return None
        stated: dict[str, Any] = {"winner": result.winner, "reason": result.reason}
        if len(result.winners) > 1:  # a tie: several winners
            stated["tied"] = list(result.winners)
        if isinstance(self, Scores) and (scores := self.scores(state)) is not None:
            stated["scores"] = dict(scores)
        return stated

    def replay(self, record: Any) -> S:
        """The final state of a record: a fold of `apply` from the setup; ReplayError(index) at the
        first illegal step, ReplayError(None) when the stated result is not what happened."""
        if not isinstance(record, dict):
            raise PositionError("a game record must be a JSON object")
        players, seed, options = self.read_record_head(record)
        moves = read_moves(record.get("moves"), players, self.parse, self.read_seat, self._example())
        result = self.read_result(record.get("result"), players)
        state = self.new_game(players, seed, options)
        state = self._fold(state, moves)
        return state if result is None else self.check_result(state, result, len(moves))

    def _fold(self, state: S, moves: Sequence[tuple[str, M | Resign]]) -> S:
        pending: dict[str, Any] = {}  # a sealed step's commitments, resolved when the last arrives
        for index, (by, move) in enumerate(moves):
            try:
                state = self._replay_step(state, move, by, pending)
            except IllegalMoveError as error:
                raise ReplayError(index, f"move {index} ({by}: {move}): {error}") from None
        return state

    @cached_property
    def has_sealed_steps(self) -> bool:
        """Whether the game is `Sealed`: asked once, as a Protocol check costs more than a replayed step."""
        return isinstance(self, Sealed)

    def _replay_step(self, state: S, move: M | Resign, by: str, pending: dict[str, Any]) -> S:
        # `has_sealed_steps` stands for the Protocol check, which costs more than a replayed step.
        sealed = cast(Sealed, self) if self.has_sealed_steps and not isinstance(move, Resign) else None
        if sealed is not None and (seats := sealed.sealed_seats(state)):
            if by in pending:
                raise IllegalMoveError(f"{by} has already committed a move here: it cannot be changed")
            sealed.check_commitment(state, by, move)
            pending[by] = move
            if set(pending) < set(seats):
                return state
            resolved: S = sealed.resolve(state, dict(pending)).state
            pending.clear()
            return resolved
        if pending and isinstance(move, Resign):
            return self._resign_while_sealed(state, by, pending)
        return self.apply(state, move, by)

    def _resign_while_sealed(self, state: S, by: str, pending: dict[str, Any]) -> S:
        """A seat leaves during a sealed step: its commitment is dropped, and when the others have all
        committed, theirs are resolved now (as a live game whose state kept them would do)."""
        left = self.apply(state, RESIGN, by)
        pending.pop(by, None)
        if not isinstance(self, Sealed) or self.result(left) is not None:
            pending.clear()
            return left
        sealed = set(self.sealed_seats(left))
        if not sealed or not sealed <= set(pending):
            if not sealed:
                pending.clear()
            return left
        resolved: S = self.resolve(left, {seat: pending[seat] for seat in sealed}).state
        pending.clear()
        return resolved

    def check_result(self, state: S, result: Mapping[str, Any], plies: int) -> S:
        """The final state if the game really ended as `result` says, scores included (B15)."""
        ended = self._ended_as_stated(state, result, plies)
        if isinstance(self, Scores):
            check_scores(result.get("scores"), self.scores(ended), plies)
        return ended

    def _ended_as_stated(self, state: S, result: Mapping[str, Any], plies: int) -> S:
        winner, reason = result.get("winner"), result.get("reason")
        winners = (winner,) if winner is not None else tuple(result.get("tied", ()))
        actual = self.result(state)
        if not winners and reason in WINNERLESS and actual is None:
            return self.agree_draw(state) if reason == "draw" else self.abandon(state, str(reason))
        if actual is not None and (actual.winners, actual.reason) == (winners, reason):
            return state
        # A timeout is recorded as the loser's `resign`: the replay ends it as a resignation.
        if actual is not None and reason == "timeout" and (actual.winners, actual.reason) == (winners, "resignation"):
            return self.finish(state, Result(winners=actual.winners, reason="timeout"))
        said = f"{winner} won by {reason}" if winner else ("a draw" if reason == "draw" else f"no winner ({reason})")
        raise ReplayError(None, f"the record says {said}, but after {plies} moves {_outcome(actual)}")

    def read_result(self, value: Any, players: tuple[str, ...]) -> dict[str, Any] | None:
        """A record's stated result, read before the replay (PositionError names the fault). A game
        whose result names more (Buyer's Market's shared `winners`) reads it here and checks it in
        `check_result`."""
        return self._read_result(value, players)

    def _read_result(self, value: Any, players: tuple[str, ...]) -> dict[str, Any] | None:
        if value is None:
            return None
        if not isinstance(value, dict) or value.get("reason") not in self.info.reasons:
            reasons = ", ".join(self.info.reasons)
            raise PositionError(f"result must be {{winner, reason}} with a reason in {reasons}, not {value!r}")
        reason = value["reason"]
        stated = self._read_tie(value, players) if reason in self.TIE_REASONS else self._read_winner(value, players)
        if "scores" in value:
            if not isinstance(self, Scores):
                raise PositionError(f"{self.info.name} keeps no scores: a result has none")
            stated["scores"] = read_scores(value.get("scores"), players)
        return stated

    def _read_winner(self, value: dict[str, Any], players: tuple[str, ...]) -> dict[str, Any]:
        winner, reason = value.get("winner"), value["reason"]
        if value.get("tied"):  # every stated fact is checked (rules.md B15): only a tie lists tied players
            raise PositionError(f"result: a {reason} result lists no tied players")
        winnerless = (*WINNERLESS, *self.NO_WINNER_REASONS)
        if (winner is None and reason not in winnerless) or (winner is not None and reason == "draw"):
            raise PositionError(f"result: a {reason} result {'has no' if winner is None else 'has a'} winner")
        if winner is not None:
            self.read_seat(winner, "result winner", players)
        return {"winner": winner, "reason": reason}

    def _read_tie(self, value: dict[str, Any], players: tuple[str, ...]) -> dict[str, Any]:
        """A shared win (a Result with several winners): no single winner, two or more seats tied."""
        tied = value.get("tied")
        if value.get("winner") is not None or not isinstance(tied, list) or len(tied) < 2:
            raise PositionError("result: a tie names no winner and lists two or more players as tied")
        seats = [self.read_seat(seat, "result tied", players) for seat in tied]
        return {"winner": None, "reason": value["reason"], "tied": seats}

    def _example(self) -> str:
        return self.HELP[0][0] if self.HELP else "pass"


def _players(state: Any) -> tuple[str, ...]:
    return tuple(getattr(state, "players", ()))


def _seated_in(value: Any, what: str, players: tuple[str, ...]) -> str:
    if value not in players:
        raise PositionError(f"{what} must be one of the players ({', '.join(players)}), not {value!r}")
    return str(value)


def _outcome(result: Result | None) -> str:
    if result is None:
        return "the game is not over"
    if len(result.winners) > 1:
        return f"{' and '.join(result.winners)} tied"
    if result.winner is None:
        return "the game ended in a draw" if result.reason == "draw" else f"it ended with no winner ({result.reason})"
    return f"{result.winner} won by {result.reason}"

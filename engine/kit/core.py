"""The kit's small core every game implements, and the capabilities a game opts into.

A game is one object over its own immutable State and Move types (Move's `str` is its canonical
notation). `Rules` is all a game must answer; `KitGame` (engine/kit/base.py) turns it into the
service's interface and gives resignation, draws, abandonment, time-outs, records, replay and
result checking once. A capability is a Protocol a game implements only when its rules need it,
checked with `isinstance` (no stubs): cards and hands, hidden information, secret simultaneous
steps, chance, scores. The apps ask through `has`, which remembers each class's answer.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableSequence, Sequence
from typing import Any, Protocol, TypeVar, cast, runtime_checkable

from ..interface import Card, GameInfo, Result, Table, View
from .events import Outcome

S = TypeVar("S")
M = TypeVar("M")


@runtime_checkable
class KitState(Protocol):
    """What the base reads of every game's State: the seats, who left, and the seed."""

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def resigned(self) -> tuple[str, ...]: ...

    @property
    def seed(self) -> str: ...


class Randomness(Protocol):
    """A seeded source of choices (the bots' `engine.bots.rng.Rng`, or `random.Random`)."""

    def random(self) -> float: ...

    def randrange(self, stop: int, /) -> int: ...

    def shuffle(self, items: MutableSequence[Any], /) -> None: ...


class Rules(Protocol[S, M]):
    """The core: what every game answers about its own State and Move."""

    info: GameInfo

    def start(self, players: Sequence[str], seed: str, options: Mapping[str, str]) -> Outcome[S]:
        """The opening State (options already checked) and what happened setting it up (first throw)."""
        ...

    def parse_steps(self, text: str) -> list[M]:
        """One written step, which may stand for several (a path `c1-c2-c3`); NotationError if unreadable."""
        ...

    def play(self, state: S, move: M, by: str) -> Outcome[S]:
        """One step: the next State and its events; IllegalMoveError naming the rule if it is refused."""
        ...

    def legal_moves(self, state: S, seat: str) -> list[M]:
        """Every legal step of `seat` now, canonical and sorted; resignation is the kit's, not listed."""
        ...

    def movers(self, state: S) -> tuple[str, ...]:
        """Who may take a step now (several at once in a sealed step)."""
        ...

    def turn(self, state: S) -> int:
        """A number that grows when a new turn starts: the steps of one turn share it."""
        ...

    def result(self, state: S) -> Result | None:
        """None while the game is on."""
        ...

    def leave(self, state: S, seat: str) -> Outcome[S]:
        """`seat` leaves (resigned or timed out) from a game still on: the game's rules for its pieces
        and turn order; the base decides whether the game ends."""
        ...

    def finish(self, state: S, result: Result) -> S:
        """The state ended as `result` says (resignation, time-out, agreed draw)."""
        ...

    def view(self, state: S, viewer: str | None) -> View: ...

    def table(self, view: View) -> Table: ...

    def to_position(self, state: S) -> dict[str, Any]: ...

    def from_position(self, data: Any) -> S: ...


@runtime_checkable
class CardFaces(Protocol):
    """Cards named on the table (in hands, on the board, on pallets): how a code reads to people."""

    def card(self, code: str) -> Card: ...


@runtime_checkable
class Hands(Protocol):
    """Cards a seat holds that only its holder sees."""

    def card(self, code: str) -> Card: ...

    def hand_svg(self, view: View) -> str: ...

    def spent_cards(self, move: Any) -> tuple[str, ...]:
        """Cards a step shows to everyone as it is played (paid, built, discarded)."""
        ...


@runtime_checkable
class Hidden(Protocol):
    """Secrets beyond future chance: hands, a box of Codes, picks not yet revealed."""

    def determinize(self, state: Any, seat: str, rng: Randomness) -> Any:
        """A state `seat` cannot tell from `state`: every secret dealt again from what `seat` may know."""
        ...

    def reveal(self, state: Any) -> View:
        """The whole truth as a view, only for replaying a finished game."""
        ...

    def public_move_text(self, move: Any, by: str, now: Any, viewer: str | None) -> str:
        """A logged step's notation as `viewer` may see it while the game stands at `now`."""
        ...


@runtime_checkable
class Sealed(Protocol):
    """Secret simultaneous steps: each seat in `sealed_seats` commits one move unseen; when the last
    commitment arrives, `resolve` applies them all at once. Until then no one's choice shows."""

    def sealed_seats(self, state: Any) -> tuple[str, ...]:
        """The seats that must each commit a move now; empty when the state is not a sealed step."""
        ...

    def check_commitment(self, state: Any, seat: str, move: Any) -> None:
        """IllegalMoveError if `seat` may not commit `move` here (checked on arrival, kept sealed)."""
        ...

    def resolve(self, state: Any, commitments: Mapping[str, Any]) -> Outcome[Any]:
        """One apply of every seat's commitment, when all have arrived."""
        ...


@runtime_checkable
class OpenCommitments(Protocol):
    """A sealed step whose rules make public *that* a seat has committed, never what: the pages say so
    beside the seat, the others stop waiting on it (its clock stops) and open pages refresh. A game
    without it keeps even that secret until the step resolves."""

    def committed_note(self, state: Any, seat: str) -> str:
        """What everyone may read beside `seat` once its commitment is in ("has chosen a starter"), or
        "" where the rules keep even that secret."""
        ...


@runtime_checkable
class Chance(Protocol):
    """Dice, draws from the seed: `reseed` swaps the source of future chance (the bots sample it)."""

    def reseed(self, state: Any, seed: str) -> Any: ...


@runtime_checkable
class Scores(Protocol):
    """A game that scores: the result carries every seat's points (None: this end was not scored)."""

    def scores(self, state: Any) -> Mapping[str, int] | None: ...


@runtime_checkable
class Simultaneous(Protocol):
    """A step every mover takes at once, in secret, on the sequential log (Zark City's starter choice):
    while it lasts nobody new is asked to move, and its end is a new step for everyone."""

    def simultaneous(self, state: Any) -> bool: ...


@runtime_checkable
class TurnSteps(Protocol):
    """Several decisions in one turn: `after` asks the same player again inside the turn (Zark City's
    end-of-turn discard, Buyer's Market's pile after a purchase); the running clock covers it."""

    def continues_turn(self, before: Any, after: Any) -> bool: ...


@runtime_checkable
class TimeoutMoves(Protocol):
    """A decision the rules make for a seat whose time ran out, instead of resigning it: a decision
    another seat owes inside someone's turn (World War 5's retreat, REC-W5: the first option in map
    order), which the game does not end over."""

    def timeout_move(self, state: Any, seat: str) -> Any | None:
        """The step played for `seat` now that its time ran out, or None: it resigns, as in every game."""
        ...


# What the apps ask of a game through its capabilities, with what a game without one means.

_HAS: dict[tuple[type, type], bool] = {}


def has(game: object, capability: type) -> bool:
    """`isinstance(game, capability)`, remembered for the game's class: Python 3.11's check of a runtime
    Protocol looks up every member of it each time (some 5 µs, dozens of times a game page). A
    capability is methods only, which a game's class defines: its instances all answer alike."""
    key = (type(game), capability)
    known = _HAS.get(key)
    if known is None:
        known = _HAS[key] = isinstance(game, capability)
    return known


def timeout_move(game: object, state: Any, seat: str) -> Any | None:
    """The step the rules play for a seat out of time, or None (it resigns) in a game without one."""
    return cast(TimeoutMoves, game).timeout_move(state, seat) if has(game, TimeoutMoves) else None


def card_of(game: object, code: str) -> Card:
    """How a card code reads: the game's own words, or the code itself."""
    return cast(CardFaces, game).card(code) if has(game, CardFaces) else Card(code=code, label=code, name=code)


def hand_svg(game: object, view: View) -> str:
    """The viewer's hand drawn, or "" in a game without hands."""
    return cast(Hands, game).hand_svg(view) if has(game, Hands) else ""


def public_text(game: Any, move: Any, by: str, now: Any, viewer: str | None) -> str:
    """A logged step's notation as `viewer` may see it: all of it, in a game with no secrets."""
    return cast(Hidden, game).public_move_text(move, by, now, viewer) if has(game, Hidden) else str(move)


def all_revealed(game: Any, state: Any) -> View:
    """The whole truth of a finished game: the spectator's view, in a game with no secrets."""
    shown: View = cast(Hidden, game).reveal(state) if has(game, Hidden) else game.view(state, None)
    return shown


@runtime_checkable
class RevealedWords(Protocol):
    """What every game on the kit answers (KitGame.describe_revealed): a finished game's step in words
    with the secrets its events kept."""

    def describe_revealed(self, move: Any, by: str, before: Any, after: Any) -> str: ...


def finished_words(game: Any, move: Any, by: str, before: Any, after: Any) -> str:
    """A step of a finished game in words: on the kit, every secret its events kept is told (a Peek's
    Code); another game's words are a spectator's (its replay lists the draws apart)."""
    if has(game, RevealedWords):
        return cast(RevealedWords, game).describe_revealed(move, by, before, after)
    words: str = game.describe(move, by, before, after, None)
    return words


def committed_note(game: object, state: Any, seat: str) -> str:
    """The public line for a seat whose sealed commitment is in: "" (secret) in a game that opens none."""
    return cast(OpenCommitments, game).committed_note(state, seat) if has(game, OpenCommitments) else ""


def is_simultaneous(game: object, state: Any) -> bool:
    return has(game, Simultaneous) and cast(Simultaneous, game).simultaneous(state)


def continues_turn(game: object, before: Any, after: Any) -> bool:
    return has(game, TurnSteps) and cast(TurnSteps, game).continues_turn(before, after)

"""The one interface every game offers the service (../shared/spec/games.md), and its typed results.

games/, notifications/, archive/, the templates and the board scripts talk to a game only through
a `Game` found in the registry (`engine.registry`); none of them knows a game by name. A game's
state and move types are its own: the service holds them opaquely and hands them back.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypedDict, runtime_checkable

# What a step did (engine/kit/events.py), re-exported: the apps read events through this interface only.
from .kit.events import Event as Event
from .kit.events import Faces as Faces
from .kit.events import Outcome as Outcome
from .kit.events import Seen as Seen
from .kit.events import Throw as Throw
from .kit.events import drawn as drawn
from .kit.events import faces_of as faces_of
from .kit.events import faces_svg as faces_svg
from .kit.events import throw_svg as throw_svg
from .kit.events import throw_words as throw_words
from .kit.events import thrown as thrown

# Seats are colours in every game (games.md), in this seating order.
COLOURS = ("red", "yellow", "green", "blue", "black")


@dataclass(frozen=True)
class Choice:
    value: str
    label: str


@dataclass(frozen=True)
class Option:
    """A setting chosen when a game is created, e.g. Zark City's deck."""

    name: str
    label: str
    choices: tuple[Choice, ...]
    default: str

    def check(self, value: str) -> str:
        if value not in {c.value for c in self.choices}:
            allowed = ", ".join(c.value for c in self.choices)
            raise ValueError(f"{self.label} must be one of {allowed}, not {value!r}")
        return value

    def label_of(self, value: str) -> str:
        return next((c.label for c in self.choices if c.value == value), value)


@dataclass(frozen=True)
class GameInfo:
    """What the lobby, the archive filters and `python -m engine games` show about a game."""

    id: str  # games.md: zarkcity, decktown, buyersmarket, martianchess
    name: str  # "Zark City"
    player_counts: tuple[int, ...]  # the table sizes the game seats, e.g. (2, 3, 4, 5)
    options: tuple[Option, ...] = ()
    summary: str = ""  # one sentence for the lobby
    hidden_information: bool = True  # hands or other secrets: pages must send no-store headers
    rules_version: str = ""
    # Cards a seat holds that only its holder sees (`Table.hand`): pages and emails show a hand line, and
    # speak of hands at all (the reply help, the replay header), only then.
    has_hands: bool = False
    board_hint: str = ""  # one sentence under the board picture, e.g. "Hover a card for its pieces."
    # What the seed decides, in words after "the seed decides" (the verify page, the archive): "who starts".
    chance: str = ""
    # Every `Result.reason` the game can end with: the archive's result filter offers their union.
    reasons: tuple[str, ...] = ("resignation", "timeout", "draw")
    # What lists call the players to move in a phase, where "To move" would mislead (Zark City's starter
    # choice: "Choosing starters"); phases not named here are "To move".
    movers_words: Mapping[str, str] = field(default_factory=dict)

    def movers_label(self, phase: str) -> str:
        return self.movers_words.get(phase, "To move")

    def default_options(self) -> dict[str, str]:
        return {o.name: o.default for o in self.options}

    def check_options(self, given: Mapping[str, str]) -> dict[str, str]:
        """Every option with a valid value (defaults filled in); ValueError naming an unknown or bad one."""
        known = {o.name: o for o in self.options}
        for name in given:
            if name not in known:
                raise ValueError(f"{self.name} has no option {name!r}")
        return {name: option.check(str(given.get(name, option.default))) for name, option in known.items()}

    def options_text(self, options: Mapping[str, str]) -> str:
        """E.g. "Pyramid Arcade deck": the chosen options in words, for lists and emails."""
        return ", ".join(o.label_of(options.get(o.name, o.default)) for o in self.options)


@dataclass(frozen=True)
class Result:
    """How a finished game ended. `winners` is empty for a draw or a game everyone lost."""

    winners: tuple[str, ...]
    reason: str  # e.g. "power block", "resignation", "timeout", "draw", "score"
    scores: Mapping[str, int] | None = None  # for games that score

    @property
    def winner(self) -> str | None:
        return self.winners[0] if len(self.winners) == 1 else None


class View(TypedDict):
    """The part of every game's per-seat view the apps may read; each game extends it.

    A view holds nothing its viewer may not know (games.md). Games add their own keys in their
    own TypedDict (e.g. `engine.zarkcity.views.ZarkCityView`); only the game's own board
    template, picture and script read those.
    """

    format: str
    game: str
    viewer: str | None
    players: list[str]
    phase: str
    to_move: str | None
    movers: list[str]
    turn: int
    resigned: list[str]
    winner: str | None
    reason: str | None
    seed_commitment: str


@dataclass(frozen=True)
class SeatSummary:
    """One seat as the game page's table and the emails show it: public facts only."""

    colour: str
    facts: tuple[str, ...]  # e.g. ("5 cards", "stash S2 M3 L3"): short, public
    note: str = ""  # e.g. "has chosen a starter"


@dataclass(frozen=True)
class HandPick:
    """A step in which the viewer ticks `count` cards of their own hand (Zark City's end-of-turn discard):
    the page offers tick-boxes rather than a list of every combination; the move is `verb` and the cards."""

    verb: str  # the move's first word, e.g. "discard"
    count: int  # how many cards to tick
    prompt: str  # what the tick-boxes are for, e.g. "Your hand is over the limit: tick 2 cards to discard"
    button: str  # the submit button, e.g. "Discard"


@dataclass(frozen=True)
class Table:
    """A viewer's summary of the position for pages and emails."""

    status: str  # "Your turn (turn 4).", "Waiting for blue to place a starter."
    seats: tuple[SeatSummary, ...]
    private_note: str = ""  # something only the viewer may read, e.g. "You chose 9S."
    hand: tuple[str, ...] = ()  # the viewer's own cards (empty for spectators and games without hands)
    # Public lines about the position beside the seats, e.g. "Deck: 30 cards.", "Discard pile: 7♥ 2♣";
    # once the game is over, what it revealed (every hand).
    notes: tuple[str, ...] = ()
    pick: HandPick | None = None  # the viewer's own step of ticking cards in hand, when it is one now


@dataclass(frozen=True)
class Card:
    """How a card code reads to people: "7♥" / "Seven of hearts", "Lunatic (6 ☾ ≈)"."""

    code: str
    label: str  # short, for lists and buttons
    name: str  # long, for titles and screen readers
    css: str = ""  # a class name suffix the game's stylesheet colours, e.g. "H" or "moons"


@dataclass(frozen=True)
class BoardScript:
    """What the game page's board script needs beyond the legal moves: all public or the viewer's own."""

    module: str  # static path of the game's ES module that builds moves from clicks
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class MoveKind:
    """A move's first word, how the page labels its list, and whether it is one click (no cards)."""

    verb: str
    label: str
    quick: bool = False


class Randomness(Protocol):
    """A seeded source of choices for `Game.determinize` (the bots' `engine.bots.rng.Rng`;
    `random.Random` fits too, for tests outside the engine)."""

    def random(self) -> float: ...

    def randrange(self, stop: int, /) -> int: ...

    def shuffle(self, items: MutableSequence[Any], /) -> None: ...


@runtime_checkable
class Clicks(Protocol):
    """A board the kit's click script plays (static/js/kit_board.js): each of the viewer's legal steps
    with the board targets clicked to make it. Games on the kit have it (engine/kit/base.py)."""

    def click_steps(self, view: View, moves: Sequence[str]) -> list[dict[str, Any]]:
        """[{"text": step, "path": [target, ...]}] for each of `moves`, the viewer's legal steps."""
        ...


@runtime_checkable
class Game(Protocol):
    """One game: pure functions of its own immutable State and Move values (STYLE.md).

    The core every game answers. What only some games have is a capability the game opts into and
    the apps check with isinstance (engine/kit/core.py): `Hands` and `CardFaces` (cards), `Hidden`
    (secrets: determinize, reveal, public_move_text), `Simultaneous`, `TurnSteps`, `Chance`."""

    info: GameInfo

    # --- play ---------------------------------------------------------------------------------
    def new_game(self, players: Sequence[str], seed: str, options: Mapping[str, str]) -> Any:
        """The starting State, with every random event derived from `seed` (games.md)."""
        ...

    def begin(self, players: Sequence[str], seed: str, options: Mapping[str, str]) -> Outcome[Any]:
        """`new_game` with the events of the setup (a first throw)."""
        ...

    def parse(self, text: str) -> Any:
        """One move in the game's notation; NotationError when unreadable. parse(str(m)) == m."""
        ...

    def apply(self, state: Any, move: Any, by: str) -> Any:
        """The next State; IllegalMoveError naming the rule when the rules forbid the move."""
        ...

    def step(self, state: Any, move: Any, by: str) -> Outcome[Any]:
        """`apply` with what happened on the way, as events marked with who may see them
        (engine/kit/events.py): the history, emails, replay, verify page and API event feed are
        written from these, never by diffing states. `apply(s, m, by) == step(s, m, by).state`."""
        ...

    def legal_moves(self, state: Any, colour: str) -> list[Any]:
        """Every legal move of `colour` now, canonical and sorted (resign last, when allowed)."""
        ...

    def movers(self, state: Any) -> tuple[str, ...]:
        """Who may move now, besides resigning: several at once in simultaneous steps."""
        ...

    def result(self, state: Any) -> Result | None:
        """None while the game is on."""
        ...

    def phase(self, state: Any) -> str: ...

    def is_resign(self, move: Any) -> bool: ...

    def move_kind(self, move: Any) -> str:
        """The verb of `move_kinds` a move belongs to (its group in the legal-move list): Zark City's is
        the notation's first word ("build 7H 1,0" -> "build"); Martian Chess's "c2-d3" is a "move"."""
        ...

    def only_kind(self, state: Any, colour: str) -> str | None:
        """The `move_kind` of every legal move of `colour` now, resignation aside, when all are of one
        kind (what a turn email asks: "place your starter"); None for a choice of kinds or no move."""
        ...

    def resign(self, state: Any, colour: str, reason: str = "resignation") -> Any: ...

    def agree_draw(self, state: Any) -> Any: ...

    def abandon(self, state: Any, reason: str = "timeout") -> Any:
        """End with no winner: every remaining player ran out of time at once."""
        ...

    # --- what a seat may see ------------------------------------------------------------------
    def view(self, state: Any, viewer: str | None) -> View: ...

    def table(self, view: View) -> Table: ...

    def describe(self, move: Any, by: str, before: Any, after: Any, viewer: str | None) -> str:
        """One move in words as `viewer` may know it (hidden cards named only to their holder)."""
        ...

    # --- pictures -----------------------------------------------------------------------------
    def board_svg(self, view: View, *, interactive: bool = False) -> str: ...

    def board_text(self, view: View) -> str: ...

    def board_script(self, view: View) -> BoardScript: ...

    # --- help ---------------------------------------------------------------------------------
    def rules_summary(self) -> str:
        """A few plain sentences: the goal and a turn."""
        ...

    def notation_help(self) -> tuple[tuple[str, str], ...]:
        """(example, meaning) rows for the game page and the `help` email reply."""
        ...

    def move_kinds(self) -> tuple[MoveKind, ...]:
        """Every verb of the notation in the order the legal-move list shows them."""
        ...

    # --- files --------------------------------------------------------------------------------
    def to_position(self, state: Any) -> dict[str, Any]: ...

    def from_position(self, data: Any) -> Any: ...

    def make_record(
        self,
        players: Sequence[str],
        options: Mapping[str, str],
        seed: str,
        moves: Sequence[tuple[str, str]],
        result: Mapping[str, Any] | None,
    ) -> dict[str, Any]: ...

    def replay(self, record: Any) -> Any: ...

    def record_result(self, state: Any) -> dict[str, Any] | None:
        """The `result` a game record of this finished state carries, in the game's own format (None while on)."""
        ...

    def check_result(self, state: Any, result: Mapping[str, Any], plies: int) -> Any:
        """The final State if a record's stated result is what really happened (ReplayError if not)."""
        ...

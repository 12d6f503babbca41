"""One line, several steps (games.md): `;` between steps of one seat, applied in order, all or nothing.

The command line's `apply`, the web form, the JSON API and an email reply's first line all read a
line here, so a refused step refuses the whole line with the same message everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ..errors import IllegalMoveError, NotationError
from .events import Event, Outcome

S = TypeVar("S")


@dataclass(frozen=True)
class Played(Generic[S]):
    """One step of a line, applied: its text as recorded, the state after it, what it did."""

    text: str
    state: S
    events: tuple[Event, ...]


def split_line(line: str) -> list[str]:
    """The steps of a line, in order; NotationError for an empty step (`a;;b`) or an empty line."""
    parts = [part.strip() for part in line.split(";")]
    if parts and parts[-1] == "" and len(parts) > 1:
        parts.pop()  # a trailing `;` is harmless
    if not parts or any(part == "" for part in parts):
        raise NotationError("a line needs one or more steps separated by ;, with none empty")
    return parts


def play_line(
    game: Any,
    state: S,
    line: str,
    by: str,
    *,
    ignorable: Callable[[Any, S, str], bool] | None = None,
) -> list[Played[S]]:
    """Every step of `line` applied in order by `by`; nothing is applied unless all are legal.

    A step's error names it ("step 2 (b3-c3): ..."). A step after `by`'s turn or the game has ended
    refuses the line, unless it is the line's last and the game says it may be dropped there
    (`ignorable`, e.g. a trailing `pass`; by default the game's own `ignorable` method, if it has one).
    `resign` stands alone on its line.
    """
    _check_line_ends(game, line)
    played: list[Played[S]] = []
    steps = read_line(game, line)
    _check_resign_alone(steps)
    for number, (text, moves) in enumerate(steps, start=1):
        for move in moves:
            if played and by not in game.movers(state):
                if number == len(steps) and _may_drop(game, ignorable, move, state, by):
                    continue  # one trailing step, never two: `x; pass; pass` has a step after the turn
                raise IllegalMoveError(_named(number, len(steps), text, "comes after your turn or the game ended"))
            try:
                outcome = _step(game, state, move, by)
            except IllegalMoveError as error:
                raise IllegalMoveError(_named(number, len(steps), text, str(error))) from None
            state = outcome.state
            played.append(Played(str(move), state, tuple(outcome.events)))
    return played


def read_line(game: Any, line: str) -> list[tuple[str, Sequence[Any]]]:
    """Each step's text and the moves it stands for, before anything is applied: NotationError naming
    the first unreadable step. A game without `parse_steps` reads each step as one move (`parse`)."""
    texts = split_line(line)
    return [(text, _moves(game, text, number, len(texts))) for number, text in enumerate(texts, start=1)]


def _step(game: Any, state: S, move: Any, by: str) -> Outcome[S]:
    """A game's `step` with its events, or its `apply` alone (a game that says nothing of events)."""
    step = getattr(game, "step", None)
    return step(state, move, by) if step is not None else Outcome(game.apply(state, move, by))


def _moves(game: Any, text: str, number: int, count: int) -> Sequence[Any]:
    try:
        parse_steps = getattr(game, "parse_steps", None)
        if text.strip().lower() == "resign" or parse_steps is None:
            return [game.parse(text)]
        return list(parse_steps(text))
    except NotationError as error:
        raise NotationError(_named(number, count, text, str(error))) from None


def _check_line_ends(game: Any, line: str) -> None:
    """A game may say a step must end its line (`ends_line`, e.g. a throw of dice: no one can write a
    plan for after it); such a step anywhere else refuses the line before anything is applied."""
    ends_line = getattr(game, "ends_line", None)
    if ends_line is None:
        return
    texts = split_line(line)
    for number, text in enumerate(texts[:-1], start=1):
        for move in _moves(game, text, number, len(texts)):
            if ends_line(move):
                raise IllegalMoveError(_named(number, len(texts), text, f"{move} must be last on its line"))


def _check_resign_alone(steps: Sequence[tuple[str, Sequence[Any]]]) -> None:
    """A resignation ends the seat's part in the game: nothing is written before or after it."""
    for number, (text, _) in enumerate(steps, start=1):
        if len(steps) > 1 and text.lower() == "resign":
            raise IllegalMoveError(_named(number, len(steps), text, "resign goes on a line of its own"))


def _named(number: int, count: int, text: str, message: str) -> str:
    return message if count == 1 else f"step {number} ({text}): {message}"


def _may_drop(game: Any, ignorable: Callable[[Any, Any, str], bool] | None, move: Any, state: Any, by: str) -> bool:
    """Whether a step after the turn ended is dropped: `ignorable` if given, else the game's own."""
    rule = ignorable if ignorable is not None else getattr(game, "ignorable", None)
    return bool(rule is not None and rule(move, state, by))

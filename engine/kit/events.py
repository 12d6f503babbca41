"""What happened, as typed events: every game's `play` says what a step did, marked with who may see it.

The history, turn emails, the replay page, the API's event feed and the verify page are written
from events, never by diffing two states or matching notation text. An event has a public line
and, when the step touched something hidden (a card drawn, a Code peeked), a secret line that only
the seats in `to` may read until the game is over and the replay reveals everything.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Generic, NamedTuple, TypedDict, TypeVar

from .draw.scene import Die
from .draw.svg import dice_svg

S = TypeVar("S")


@dataclass(frozen=True)
class Event:
    """One thing that happened: a step taken, a die thrown, a piece captured, a card drawn.

    `kind` is the game's own word ("throw", "capture", "bust", "draw"); the apps never branch on it.
    `data` holds public facts for scripts and the API (`{"dice": [5]}`); `secret_data` the facts
    behind `secret`, for the same seats. `dice`: the dice a throw showed, as the drawing kit draws
    them (their x and y are ignored); public like `text`, since a die is seen once thrown and never
    before: the history and the emails show them as die faces next to the line.
    """

    kind: str
    text: str  # the line everyone may read: "red threw 5"
    seat: str | None = None  # whose step or whose luck it was, if anyone's
    data: Mapping[str, Any] = field(default_factory=dict)
    secret: str = ""  # the line only `to` may read (and everyone once the game is over)
    secret_data: Mapping[str, Any] = field(default_factory=dict)
    to: frozenset[str] = frozenset()
    dice: tuple[Die, ...] = ()

    def seen_by(self, viewer: str | None, *, revealed: bool = False) -> Seen:
        """The event as `viewer` (None: a spectator) may read it; `revealed` once the game is over."""
        dice = _shown(self.dice)  # public: a die is seen once thrown
        if self.secret and (revealed or viewer in self.to):
            return Seen(self.kind, self.secret, self.seat, {**self.data, **self.secret_data}, dice)
        return Seen(self.kind, self.text, self.seat, dict(self.data), dice)


class Seen(NamedTuple):
    """An event after the visibility check: what one viewer reads of it."""

    kind: str
    text: str
    seat: str | None
    data: dict[str, Any]
    dice: tuple[ThrownDie, ...] = ()  # the dice it threw, as a move keeps them (`thrown`)


class Outcome(NamedTuple, Generic[S]):
    """What a step (or the setup) gives: the next state and what happened on the way, in order."""

    state: S
    events: tuple[Event, ...] = ()


def lines(events: tuple[Event, ...], viewer: str | None, *, revealed: bool = False) -> tuple[str, ...]:
    """The lines of `events` that `viewer` may read, in order (empty texts left out)."""
    seen = (event.seen_by(viewer, revealed=revealed) for event in events)
    return tuple(event.text for event in seen if event.text)


def drawn(events: tuple[Event, ...]) -> dict[str, list[str]]:
    """The hidden cards each seat took in `events` (a secret's `cards`), in the order taken: what the
    replay of a finished game and the verify page list as draws, with no hand compared to another."""
    taken: dict[str, list[str]] = {}
    for event in events:
        cards = event.secret_data.get("cards", ())
        if event.seat is not None and cards:
            taken.setdefault(event.seat, []).extend(cards)
    return taken


class ThrownDie(TypedDict):
    face: str
    title: str
    colour: str


class Throw(TypedDict):
    """One throw as the service stores it with its move (JSON): whose luck it was and the dice shown."""

    seat: str | None
    dice: list[ThrownDie]


def thrown(events: tuple[Event, ...]) -> list[Throw]:
    """The throws among `events`, in order, each with its dice: what a move keeps to show as die faces.
    Only dice already thrown are events' dice, so nothing here is a future roll."""
    return [Throw(seat=event.seat, dice=list(_shown(event.dice))) for event in events if event.dice]


def _shown(dice: tuple[Die, ...]) -> tuple[ThrownDie, ...]:
    return tuple(ThrownDie(face=d.face, title=d.title, colour=d.colour) for d in dice)


Faces = tuple[tuple[str, str, str], ...]  # a throw's dice as (face, title, colour): all its picture shows


def faces_of(throw: Throw) -> Faces:
    """A stored throw's dice as its picture depends on them (whose throw it was is only its label)."""
    return tuple((d["face"], d["title"], d["colour"]) for d in throw["dice"])


def throw_svg(throw: Throw, *, height: float = 22) -> str:
    """A stored throw as a row of small die faces, inline SVG (the game page's history)."""
    return faces_svg(faces_of(throw), height, throw["seat"])


@lru_cache(maxsize=1024)
def faces_svg(faces: Faces, height: float, seat: str | None = None) -> str:
    """Dice faces as inline SVG `height` px tall, labelled as `seat`'s throw. A game's throws are few
    (IceDice's 36 faces a seat): a history of 60 throws draws each once."""
    dice = [Die(0, 0, face, title=title, colour=colour) for face, title, colour in faces]
    return dice_svg(dice, height=height, title=_said(seat, [face for face, _, _ in faces]))


def throw_words(throw: Throw) -> str:
    """A stored throw in words, as its picture is labelled: "red threw S + green"."""
    return _said(throw["seat"], [d["face"] for d in throw["dice"]])


def _said(seat: str | None, faces: list[str]) -> str:
    return f"{seat} threw {' + '.join(faces)}" if seat else f"thrown: {' + '.join(faces)}"

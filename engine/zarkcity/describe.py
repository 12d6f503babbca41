"""One move in plain English, for the game history and notification emails.

Hidden cards are named only to the player who holds them: the cards a player drew come from the
step's draw events (the game's `step`), and are shown only when the viewer drew them.
"""

from __future__ import annotations

from ..kit.base import Resign
from ..kit.events import Event
from .events import building
from .notation import (
    Build,
    Choose,
    Convert,
    Demolish,
    Discard,
    Draw,
    Fly,
    Grow,
    Hatch,
    Move,
    MovePiece,
    Place,
    Spawn,
    cell_str,
)
from .position import SIZE_NAMES
from .state import State


def describe(
    move: Move | Resign, by: str, before: State, after: State, viewer: str | None, events: tuple[Event, ...]
) -> str:
    """E.g. "blue built 7H at 2,0; red's turn: red drew 1 card" (to red: "...; your turn: you drew 1 card: 9D").

    `events`: what the step did (the game's `step`): the cards drawn come from them."""
    turn = next((i for i, event in enumerate(events) if event.kind == "turn"), len(events))
    draws = Draws(events[:turn], events[turn:])
    parts = [_action(move, by, before, after, viewer, draws)]
    if any(event.kind == "reshuffle" for event in events):
        parts.append("the discard pile was shuffled to make a new deck")
    parts.extend(_consequences(by, before, after, viewer, draws))
    return "; ".join(parts)


class Draws:
    """The cards drawn in a step, from its draw events: during the move, and at the next turn's start."""

    def __init__(self, during: tuple[Event, ...], next_turn: tuple[Event, ...]) -> None:
        self.during, self.next_turn = during, next_turn

    @staticmethod
    def of(events: tuple[Event, ...], colour: str) -> list[str]:
        return [card for e in events if e.kind == "draw" and e.seat == colour for card in e.secret_data["cards"]]


def _who(colour: str, viewer: str | None) -> str:
    return "you" if colour == viewer else colour


def _whose(colour: str, viewer: str | None) -> str:
    return "your" if colour == viewer else f"{colour}'s"


def _cards(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


def _drew(colour: str, cards: list[str], viewer: str | None, why: str = "") -> str:
    """ "drew 2 cards", with the cards named only to the player who drew them."""
    text = f"drew {_cards(len(cards))}{why}"
    return f"{text}: {' '.join(cards)}" if cards and colour == viewer else text


def _action(move: Move | Resign, by: str, before: State, after: State, viewer: str | None, draws: Draws) -> str:
    who = _who(by, viewer)
    if isinstance(move, Choose):
        shown = viewer == by or after.starters_revealed()
        return f"{who} chose {move.card}" if shown else f"{who} chose a starter"
    if isinstance(move, Place):
        return f"{who} placed {after.board[move.at].card} at {cell_str(move.at)}"
    if isinstance(move, Draw):
        return f"{who} {_drew(by, draws.of(draws.during, by), viewer)}"
    if isinstance(move, (Grow, Spawn, Build, MovePiece, Hatch)):
        return f"{who} {building(move)}"
    if isinstance(move, (Demolish, Convert)):
        return f"{who} {_attack(move, by, viewer, draws)}"
    if isinstance(move, Fly):
        card = before.board[move.src].card
        return f"{who} flew {card} from {cell_str(move.src)} to {cell_str(move.dst)} paying {move.ace}"
    if isinstance(move, Discard):
        return f"{who} discarded {' '.join(move.cards)}"
    assert isinstance(move, Resign)
    return f"{who} ran out of time" if after.reason == "timeout" else f"{who} resigned"


def _attack(move: Demolish | Convert, by: str, viewer: str | None, draws: Draws) -> str:
    target = f"{_whose(move.owner, viewer)} {SIZE_NAMES[move.size]} on {cell_str(move.at)}"
    if isinstance(move, Demolish):
        text = f"demolished {target}"
    else:
        text = f"converted {target} into {_whose(by, viewer)} {SIZE_NAMES[move.into]}"
    text += f" paying {' '.join(move.pay)}"
    change = draws.of(draws.during, by)
    return f"{text} and {_drew(by, change, viewer, ' as change')}" if change else text


def _consequences(by: str, before: State, after: State, viewer: str | None, draws: Draws) -> list[str]:
    """What followed the move automatically: the game's end, a hand-limit discard, the next turn's draw."""
    if after.phase == "over":
        return [] if before.phase == "over" else [_result(after, viewer)]
    if after.phase == "discard" and after.to_move is not None and after.to_move != before.to_move:
        return [_must_discard(after, after.to_move, viewer)]
    if after.phase == "discard" and after.to_move == by and before.phase != "discard":
        return [_must_discard(after, by, viewer)]
    if after.phase == "act" and after.turn != before.turn and after.to_move is not None:
        return [_turn_start(after, after.to_move, viewer, draws)]
    if after.phase == "place" and before.phase == "choose" and after.first_player is not None:
        return [_reveal(after, viewer)]
    return []


def _must_discard(after: State, colour: str, viewer: str | None) -> str:
    excess = len(after.hands.get(colour, ())) - after.ruleset.hand_limit
    return f"{_who(colour, viewer)} must discard {_cards(excess)}"


def _turn_start(after: State, colour: str, viewer: str | None, draws: Draws) -> str:
    head = "your turn" if colour == viewer else f"{colour}'s turn"
    if not after.ruleset.turn_draw:
        return head  # Deck Town: a turn opens with no draw (rules.md 14.2)
    cards = draws.of(draws.next_turn, colour)
    return f"{head}: {_who(colour, viewer)} {_drew(colour, cards, viewer)}"


def _reveal(after: State, viewer: str | None) -> str:
    shown = ", ".join(f"{colour} {card}" for colour, card in after.starters)
    first = after.first_player or ""
    verb = "go" if first == viewer else "goes"
    return f"starters revealed: {shown}; {_who(first, viewer)} {verb} first"


def _result(after: State, viewer: str | None) -> str:
    if after.tied:
        return " and ".join(_who(c, viewer) for c in after.tied) + " tie: each controls an equally high poker block"
    if after.winner is None:
        return "the game is a draw" if after.reason == "draw" else "the game is over"
    who = _who(after.winner, viewer)
    verb = "win" if who == "you" else "wins"
    if after.reason in ("power block", "poker block"):
        return f"{who} {verb} with a {after.reason}"
    if after.reason == "timeout":
        return f"{who} {verb}: the last opponent ran out of time"
    return f"{who} {verb}: every other player resigned"

"""A mutable working copy of one State, private to a single rules step.

Building a frozen State costs microseconds, and one move may discard, draw, pass the turn and
draw again; the step edits a Draft and builds the new State once, at the end. The State a Draft
was made from is never changed: the board dict is copied before its first edit, hands always.
The Draft also records what happens as it happens (`events`): a draw names its cards to the drawer
only, a reshuffle is public; the step's `Outcome` carries them (engine/kit/events.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import IllegalMoveError
from ..kit.events import Event
from ..shuffle import shuffled
from .notation import Cell
from .ruleset import Ruleset
from .state import Square, State


class Draft:
    __slots__ = (
        "base",
        "board",
        "hands",
        "deck",
        "discard",
        "shuffles",
        "phase",
        "to_move",
        "pending",
        "turn",
        "starters",
        "first_player",
        "resigned",
        "winner",
        "reason",
        "tied",
        "events",
        "_own_board",
    )

    def __init__(self, state: State) -> None:
        self.base = state
        self.board: Mapping[Cell, Square] = state.board
        self.hands: dict[str, tuple[str, ...]] = dict(state.hands)
        self.deck = state.deck
        self.discard = state.discard
        self.shuffles = state.shuffles
        self.phase = state.phase
        self.to_move = state.to_move
        self.pending = state.pending
        self.turn = state.turn
        self.starters = state.starters
        self.first_player = state.first_player
        self.resigned = state.resigned
        self.winner = state.winner
        self.reason = state.reason
        self.tied = state.tied
        self.events: list[Event] = []
        self._own_board: dict[Cell, Square] | None = None

    def put(self, cell: Cell, square: Square) -> None:
        self._writable_board()[cell] = square

    def lift(self, cell: Cell) -> None:
        del self._writable_board()[cell]

    def _writable_board(self) -> dict[Cell, Square]:
        if self._own_board is None:
            self._own_board = dict(self.board)
            self.board = self._own_board
        return self._own_board

    @property
    def rules(self) -> Ruleset:
        return self.base.ruleset

    def active_players(self) -> tuple[str, ...]:
        return tuple(p for p in self.base.players if p not in self.resigned)

    def take(self, colour: str, cards: Iterable[str], rule: str) -> None:
        """Remove cards from a hand (a multiset: "JK JK" needs two jokers), or say which one is missing."""
        held = self.hands[colour]
        hand = list(held)
        for card in cards:
            if card not in hand:
                have = held.count(card)
                if have == 0:
                    raise IllegalMoveError(f"{rule}: {card} is not in your hand")
                raise IllegalMoveError(f"{rule}: {card} is in your hand only {_times(have)}")
            hand.remove(card)
        self.hands[colour] = tuple(hand)

    def to_discard(self, cards: Iterable[str]) -> None:
        self.discard += tuple(cards)

    def note(self, kind: str, text: str, seat: str | None = None, **facts: Any) -> None:
        """Record one public event (`facts` are its data)."""
        self.events.append(Event(kind, text, seat, facts))

    def draw(self, colour: str, count: int, why: str = "") -> None:
        """Draw `count` cards, reshuffling the discard pile when the deck is empty (rules.md 10).

        When deck and discard pile are both empty the remaining draws are skipped. Everyone learns how
        many cards `colour` drew (`why`: " as change"); only `colour` learns which.
        """
        if count == 0:
            return
        drawn: tuple[str, ...] = ()
        while count > 0:
            if not self.deck:
                if not self.discard:
                    break
                self.shuffles += 1
                self.note("reshuffle", "the discard pile was shuffled to make a new deck", shuffle=self.shuffles)
                self.deck = shuffled(self.discard, self.base.seed, self.shuffles)
                self.discard = ()
            taken = self.deck[:count]
            self.deck = self.deck[len(taken) :]
            drawn += taken
            count -= len(taken)
        if drawn:
            self.hands[colour] = self.hands[colour] + drawn
        self.events.append(_drew(colour, drawn, why))

    def finish(self) -> State:
        # State(**...) rather than dataclasses.replace, which costs twice as much per move.
        fields = dict(vars(self.base))
        fields.update(
            board=self.board,
            hands=self.hands,
            deck=self.deck,
            discard=self.discard,
            shuffles=self.shuffles,
            phase=self.phase,
            to_move=self.to_move,
            pending=self.pending,
            turn=self.turn,
            starters=self.starters,
            first_player=self.first_player,
            resigned=self.resigned,
            winner=self.winner,
            reason=self.reason,
            tied=self.tied,
        )
        return State(**fields)


def _drew(colour: str, cards: tuple[str, ...], why: str) -> Event:
    text = f"{colour} drew {'1 card' if len(cards) == 1 else f'{len(cards)} cards'}{why}"
    secret = f"{text}: {' '.join(cards)}" if cards else ""
    secret_data = {"cards": list(cards)}
    return Event("draw", text, colour, {"count": len(cards)}, secret, secret_data, frozenset({colour}))


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")

"""The greedy bot of the Zark City family: one move ahead, in one deal of the cards it cannot see.

It wins at once when it can; otherwise it plays the move after which no opponent could win at once
(in that deal) and its position score leads the best opponent's by the most. The score counts
control toward goals and keeps attack cards and aces in hand unless spending them gains more.
"""

from __future__ import annotations

from collections import Counter

from ..interface import Game
from ..zarkcity.notation import Choose, Move
from ..zarkcity.rules import apply
from ..zarkcity.state import State
from . import zarkplay
from .rng import Rng


def choose(state: State, seat: str, moves: list[Move], rng: Rng) -> Move:
    """The greedy move of `seat` among `moves` (legal, no resign) in the determinized `state`."""
    if state.phase == "choose":
        return _starter(state, moves)
    wins = zarkplay.winning_moves(state, seat, moves) if state.phase == "act" else []
    if wins:
        return wins[0]
    return ranked(state, seat, moves, rng)[0]


def ranked(state: State, seat: str, moves: list[Move], rng: Rng) -> list[Move]:
    """`moves` best first as the greedy bot ranks them: a move after which no rival could win at once
    (in this deal) before any other, then one that keeps what it draws, then by score lead; the
    generator breaks exact ties."""
    keyed = []
    for move in moves:
        after = apply(state, move, seat)
        if after.phase == "over":
            key = (after.winner == seat, True, 1.0 if after.winner == seat else -1.0, rng.random())
        else:
            safe = not zarkplay.threatened(after, seat)
            key = (safe, not wasted_draw(state, after, seat), lead_of(after, seat), rng.random())
        keyed.append((key, move))
    keyed.sort(key=lambda item: item[0], reverse=True)  # stable: on an equal key the earlier move first
    return [move for _, move in keyed]


def wasted_draw(before: State, after: State, seat: str) -> bool:
    """A move that draws cards only to discard as many at once (a Draw with the hand at its limit):
    it spends the turn for nothing. Scored on the dealt cards it would look like a gain every time,
    since the discard then keeps the best of a larger hand; so the bot plays it only when no other
    safe move is left."""
    drawn = sum((Counter(after.hands[seat]) - Counter(before.hands[seat])).values())
    if not drawn or after.phase != "discard" or after.to_move != seat:
        return False
    return len(after.hands[seat]) - after.ruleset.hand_limit >= drawn


def lead_of(state: State, seat: str) -> float:
    """`seat`'s score less the best opponent's."""
    shape = zarkplay.layout(state)
    mine = zarkplay.score(state, seat, shape)
    others = [zarkplay.score(state, p, shape) for p in state.active_players() if p != seat]
    return mine - max(others, default=0.0)


def _starter(state: State, moves: list[Move]) -> Move:
    """The highest number card: the highest starter goes first."""
    rank = state.ruleset.starter_rank
    cards = state.ruleset.cards
    return max(moves, key=lambda m: rank(cards[m.card]) if isinstance(m, Choose) else ())


def bot(game: Game, state: State, seat: str, moves: list[Move], rng: Rng, effort: float) -> Move:
    return choose(state, seat, moves, rng)

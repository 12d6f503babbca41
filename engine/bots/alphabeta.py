"""The alpha-beta bot of Martian Chess: a fixed-depth search with captures tried first.

Martian Chess hides nothing (the seed only chose who started), so the search reads the position as
it is. The score is the bot's points less the best rival's, plus a little for the points standing in
its own zone (what it can still capture with is what rivals capture from it, so only a little).
With four players the rivals are taken to play against the bot together (the "paranoid" search).
Ties between equally good moves are broken by the seed: the moves are shuffled before the search.
"""

from __future__ import annotations

import math

from ..interface import Game
from ..martianchess.board import POINTS, zone_of
from ..martianchess.notation import Move, Step
from ..martianchess.rules import legal_moves, play
from ..martianchess.state import State
from .rng import Rng

DEPTH = 3  # plies at effort 1.0
WIN = 1000.0
ZONE_WEIGHT = 0.1  # points in one's own zone, against points already captured


def choose(game: Game, state: State, seat: str, moves: list[Move], rng: Rng, effort: float) -> Move:
    depth = max(1, round(DEPTH * min(effort, 1.0))) if effort < 1.0 else DEPTH
    return best_move(state, seat, moves, rng, depth)


def best_move(state: State, seat: str, moves: list[Move], rng: Rng, depth: int) -> Move:
    shuffled = list(moves)
    rng.shuffle(shuffled)  # the seed decides among equally good moves
    alpha, best, best_value = -math.inf, shuffled[0], -math.inf
    for move in _ordered(state, shuffled):
        value = _search(play(state, move, seat).state, seat, depth - 1, alpha, math.inf)
        if value > best_value:
            best, best_value = move, value
        alpha = max(alpha, value)
    return best


def _search(state: State, seat: str, depth: int, alpha: float, beta: float) -> float:
    if state.phase == "over":
        return _final(state, seat, depth)
    if depth == 0:
        return evaluate(state, seat)
    mover = state.to_move
    assert mover is not None
    moves = _ordered(state, legal_moves(state, mover))
    if mover == seat:
        value = -math.inf
        for move in moves:
            value = max(value, _search(play(state, move, mover).state, seat, depth - 1, alpha, beta))
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return value
    value = math.inf
    for move in moves:
        value = min(value, _search(play(state, move, mover).state, seat, depth - 1, alpha, beta))
        beta = min(beta, value)
        if alpha >= beta:
            break
    return value


def _final(state: State, seat: str, depth: int) -> float:
    """A finished game: a win or loss outweighs any score, the sooner the better; a draw is the score."""
    margin = evaluate(state, seat)
    if state.winner == seat:
        return WIN + depth + margin
    if state.winner is not None:
        return -WIN - depth + margin
    return margin


def evaluate(state: State, seat: str) -> float:
    """The bot's points less the best rival's, and a little for the points in its zone."""
    scores = state.scores()
    rivals = [scores[p] for p in state.active_players() if p != seat]
    count = len(state.players)
    mine = state.seat(seat)
    in_zone = sum(POINTS[size] for cell, size in state.board.items() if zone_of(cell, count) == mine)
    return scores[seat] - max(rivals, default=0) + ZONE_WEIGHT * in_zone


def _ordered(state: State, moves: list[Move]) -> list[Move]:
    """Captures first, the biggest first (a stable sort keeps the seed's order among equals)."""
    return sorted(moves, key=lambda move: -_captured(state, move))


def _captured(state: State, move: Move) -> int:
    if not isinstance(move, Step):
        return 0
    target = state.board.get(move.end)
    if target is None or state.zone_owner(move.end) == state.zone_owner(move.start):
        return 0
    return POINTS[target]

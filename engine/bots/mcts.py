"""The MCTS bot of the Zark City family: Monte Carlo search over deals of the cards it cannot see,
with the greedy bot as its model of how everyone plays on.

It wins at once when it can. Otherwise it ranks its moves as the greedy bot does (in its own deal:
safe moves first, then by score lead) and keeps the best few as candidates. Each iteration deals
the cards the bot cannot see anew (`determinize`, from the bot's own view) and plays every
candidate in that same deal, so the candidates are compared on equal terms; after a candidate the
players go on by the greedy policy (which wins when it can and blocks a rival's immediate win) for
a round or two, until it is the bot's turn again, and the position is scored: won or lost when the
game has ended or the bot can then win at once, else each player's chance from its score's lead
(`zarkplay.values`). Forks, threats the greedy reply cannot stop, and the rivals' answers to them
show up this way. Halfway through, the weaker half of the candidates is dropped (successive
halving). The candidate with the best mean value is played. The budget is a number of iterations
(deals), so a seed fixes the move.
"""

from __future__ import annotations

from ..interface import Game
from ..zarkcity.movegen import legal_moves
from ..zarkcity.notation import Move, Resign
from ..zarkcity.rules import apply
from ..zarkcity.state import State
from . import greedy, zarkplay
from .rng import Rng

ITERATIONS = 15  # deals a move at effort 1.0: about a processor second a move here (docs/bots.md)
CANDIDATES = 6  # the root's moves searched, best first by the greedy bot's ranking
ROUNDS = {2: 2, 3: 1}  # players -> rounds the others play after a candidate (more players: 1)
MAX_ROLLOUT = 40  # plies a rollout may take at most (discards and setup steps included)


def bot(game: Game, state: State, seat: str, moves: list[Move], rng: Rng, effort: float) -> Move:
    if state.phase != "act":
        return greedy.choose(state, seat, moves, rng)
    wins = zarkplay.winning_moves(state, seat, moves)
    if wins:
        return wins[0]
    deals = max(1, round(ITERATIONS * effort))
    return search(game, state, seat, moves, rng, deals)


def search(game: Game, state: State, seat: str, moves: list[Move], rng: Rng, deals: int) -> Move:
    """The candidate with the best mean value over `deals` deals, each candidate played in each."""
    candidates = ranked(state, seat, moves, rng)[: max(2, min(CANDIDATES, 2 * deals))]
    if len(candidates) == 1:
        return candidates[0]
    totals = [0.0] * len(candidates)
    counts = [0] * len(candidates)
    alive = list(range(len(candidates)))
    players = len(state.active_players())
    turns = ROUNDS.get(players, 1) * players - 1  # the others' turns and, between rounds, the bot's
    for done in range(deals):
        if done == deals // 2 and len(alive) > 2:
            alive.sort(key=lambda i: (-totals[i] / max(counts[i], 1), i))
            alive = sorted(alive[: max(2, len(alive) // 2)])
        deal = game.determinize(state, seat, rng)
        for i in alive:
            totals[i] += _playout(apply(deal, candidates[i], seat), seat, turns, rng)
            counts[i] += 1
    best = max(alive, key=lambda i: (totals[i] / counts[i], -i))
    return candidates[best]


def ranked(state: State, seat: str, moves: list[Move], rng: Rng) -> list[Move]:
    """`moves` best first as the greedy bot ranks them: a move after which no rival could win at once
    (in this deal) before any other, then by score lead; the generator breaks exact ties."""
    keyed = []
    for move in moves:
        after = apply(state, move, seat)
        if after.phase == "over":
            key = (after.winner == seat, 1.0 if after.winner == seat else -1.0, rng.random())
        else:
            key = (not zarkplay.threatened(after, seat), greedy.lead_of(after, seat), rng.random())
        keyed.append((key, move))
    keyed.sort(key=lambda item: item[0], reverse=True)
    return [move for _, move in keyed]


def _playout(state: State, seat: str, turns: int, rng: Rng) -> float:
    """The value for `seat` after the others (and `seat` between them) take `turns` turns by the
    greedy policy and it is `seat`'s turn again."""
    taken = 0
    for _ in range(MAX_ROLLOUT):
        if state.phase == "over" or state.to_move is None:
            break
        mover = state.to_move
        if state.phase == "act" and mover == seat and taken >= turns:
            break
        moves: list[Move] = [m for m in legal_moves(state, mover) if not isinstance(m, Resign)]
        if not moves:
            break
        if state.phase == "act":
            taken += 1
            move = _greedy_move(state, mover, moves, rng)
        else:
            move = _cheap_move(state, mover, moves)
        state = apply(state, move, mover)
    return _value(state, seat)


def _greedy_move(state: State, mover: str, moves: list[Move], rng: Rng) -> Move:
    """The greedy bot's choice, found faster: the safety test only for the best-scoring moves."""
    wins = zarkplay.winning_moves(state, mover, moves) if zarkplay.could_win_now(state, mover) else []
    if wins:
        return wins[0]
    scored = []
    for move in moves:
        after = apply(state, move, mover)
        scored.append((_lead_after(after, mover), rng.random(), move, after))
    scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
    for _, _, move, after in scored:
        if after.phase != "over" and not zarkplay.threatened(after, mover):
            return move
    return scored[0][2]


def _lead_after(after: State, mover: str) -> float:
    if after.phase == "over":
        return 1.0 if after.winner == mover else -3.0  # a move that ends the game otherwise comes last
    return greedy.lead_of(after, mover)


def _cheap_move(state: State, mover: str, moves: list[Move]) -> Move:
    """Outside the Turn Option (discards, setup steps): the best by the cheap move score."""
    shape = zarkplay.layout(state)
    return max(moves, key=lambda m: zarkplay.move_prior(state, mover, m, shape))


def _value(state: State, seat: str) -> float:
    """`seat`'s chance from here: won or lost once over, won when it is to move and can win at once."""
    if state.phase == "act" and state.to_move == seat and zarkplay.could_win_now(state, seat):
        moves = legal_moves(state, seat)
        if zarkplay.winning_moves(state, seat, moves):
            return 1.0
    return zarkplay.values(state).get(seat, 0.0)

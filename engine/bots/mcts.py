"""The MCTS bot of the Zark City family: information-set Monte Carlo tree search (single observer,
Cowling, Powley and Whitehouse 2012) over deals of the cards it cannot see, with the greedy bot
guiding the tree and playing the rollouts.

It wins at once when it can; outside its Turn Option (starters, discards) it plays as greedy does.
Otherwise it ranks its moves as the greedy bot does (in its own deal: moves after which no rival
could win at once first, then by score lead) and keeps the best few as the root's candidates.

Each iteration deals the cards the bot cannot see anew (`determinize`, from the bot's own view, so
never the real hidden cards) and sends every candidate still in the race down the tree in that same
deal, so the candidates are compared on equal terms. Below the root, a node is a sequence of Turn
Options from the bot's point of view; the same node serves every deal, and the moves it offers are
those legal in the deal at hand (a rival's move may need a card it holds in one deal and not in
another). At a node the player to move chooses among its best few moves in this deal, greedy's
order, by UCB1 on its own mean value, each move's count of the times it was on offer standing for
the parent's visits (the availability count of ISMCTS). How many of the best moves are on offer
grows with the node's visits (progressive widening), so a rarely visited node plays greedy's move
and a busy one weighs the alternatives, such as the bot's own follow-up to a fork or a rival's
second-best defence. A move first tried leaves the tree: the greedy policy plays on until the
horizon, when it is the bot's turn again after the others' turns (two rounds with two players,
one with more), and the position is valued for every player: won or lost once the game is over,
won for the bot when it can then win at once, else each player's chance from its score's lead
(`zarkplay.values`). Every node on the path adds the value of the player who chose its move.

Halfway through, the weaker half of the root's candidates is dropped (successive halving); the
candidate with the best mean value is played. Discards and setup steps in the middle of a line are
played by a cheap card score and are not nodes. The budget is a number of deals (iterations), so a
seed fixes the move.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..interface import Game
from ..zarkcity.movegen import legal_moves
from ..zarkcity.notation import Move
from ..zarkcity.rules import apply
from ..zarkcity.state import State
from . import greedy, zarkplay
from .kit import unseen_dealt
from .rng import Rng

ITERATIONS = 15  # deals a move at effort 1.0: a Turn Option takes 0.7 processor s at 2 players, 2.3 at 4
CANDIDATES = 6  # the root's moves searched, best first by the greedy bot's ranking
ROUNDS = {2: 2, 3: 1}  # players -> rounds the others play after a candidate (more players: 1)
MAX_ROLLOUT = 40  # plies a line may take at most (discards and setup steps included)
WIDENING = 0.5  # a node visited n times offers its best 1 + floor(WIDENING * sqrt(n)) moves
EXPLORATION = 0.5  # UCB1's constant; values run from 0 to 1


@dataclass(slots=True)
class Node:
    """A move in the tree, with the statistics of the player who made it."""

    visits: int = 0
    total: float = 0.0  # the sum of the values, for the player who chose this move
    offered: int = 0  # iterations in which this move was legal and among the parent's offered moves
    children: dict[Move, Node] = field(default_factory=dict)

    def width(self) -> int:
        return 1 + int(WIDENING * math.sqrt(self.visits))

    def child(self, move: Move) -> Node:
        found = self.children.get(move)
        if found is None:
            found = self.children[move] = Node()
        return found


def bot(game: Game, state: State, seat: str, moves: list[Move], rng: Rng, effort: float) -> Move:
    if state.phase != "act":
        return greedy.choose(state, seat, moves, rng)
    wins = zarkplay.winning_moves(state, seat, moves)
    if wins:
        return wins[0]
    deals = max(1, round(ITERATIONS * effort))
    return search(game, state, seat, moves, rng, deals)


def search(game: Game, state: State, seat: str, moves: list[Move], rng: Rng, deals: int) -> Move:
    """The root candidate with the best mean value after `deals` iterations."""
    race = grow(game, state, seat, moves, rng, deals)
    best = max(range(len(race)), key=lambda i: (_mean(race[i][1]), -i))
    return race[best][0]


def grow(game: Game, state: State, seat: str, moves: list[Move], rng: Rng, deals: int) -> list[tuple[Move, Node]]:
    """The tree after `deals` iterations: the root candidates still in the race, best ranked first,
    each with its node."""
    candidates = greedy.ranked(state, seat, moves, rng)[: max(2, min(CANDIDATES, 2 * deals))]
    roots = [Node() for _ in candidates]
    alive = list(range(len(candidates)))
    if len(candidates) == 1:
        return [(candidates[0], roots[0])]
    players = len(state.active_players())
    turns = ROUNDS.get(players, 1) * players - 1  # the others' turns and, between rounds, the bot's
    for done in range(deals):
        if done == deals // 2 and len(alive) > 2:
            alive.sort(key=lambda i: (-_mean(roots[i]), i))
            alive = sorted(alive[: max(2, len(alive) // 2)])
        deal = unseen_dealt(game, state, seat, rng)  # the game's own deal of what `seat` cannot see
        for i in alive:
            _iterate(roots[i], apply(deal, candidates[i], seat), seat, turns, rng)
    return [(candidates[i], roots[i]) for i in alive]


def _iterate(node: Node, state: State, seat: str, turns: int, rng: Rng) -> None:
    """One line from `node` (a root candidate, already played into `state`): down the tree while its
    moves have been tried, one new move, greedy play to the horizon; then every node on the path adds
    the value of the player who chose it."""
    path = [(node, seat)]
    in_tree = True
    taken = 0
    for _ in range(MAX_ROLLOUT):
        if state.phase == "over" or state.to_move is None:
            break
        mover = state.to_move
        if state.phase == "act" and mover == seat and taken >= turns:
            break
        moves: list[Move] = legal_moves(state, mover)  # the rules' moves: resigning is the kit's step
        if not moves:
            break
        if state.phase != "act":
            state = apply(state, zarkplay.best_move(state, mover, moves), mover)
            continue
        taken += 1
        if in_tree:
            move, node, in_tree = _select(node, _offered(state, mover, moves, rng, node.width()), mover)
            path.append((node, mover))
        else:
            move = _offered(state, mover, moves, rng, 1)[0]
        state = apply(state, move, mover)
    values = _values(state, seat)
    for visited, chooser in path:
        visited.visits += 1
        visited.total += values.get(chooser, 0.0)


def _select(node: Node, offered: list[Move], mover: str) -> tuple[Move, Node, bool]:
    """The move to follow from `node` among `offered` (best first in this deal) and its node, and
    whether the line stays in the tree. The mover's best move, never tried yet, comes first (the
    greedy policy's choice, as in the rollouts); another untried move only while the node has tried
    fewer moves than its width allows (progressive widening); else the best by UCB1 on the mover's
    mean value among the moves offered."""
    children = [node.child(move) for move in offered]
    for child in children:
        child.offered += 1
    tried = sum(1 for child in node.children.values() if child.visits)
    for i, child in enumerate(children):
        if child.visits == 0 and (i == 0 or tried < node.width()):
            return offered[i], child, False
    visited = [i for i, child in enumerate(children) if child.visits]
    best = max(visited, key=lambda i: _ucb(children[i]))
    return offered[best], children[best], True


def _ucb(node: Node) -> float:
    return _mean(node) + EXPLORATION * math.sqrt(math.log(node.offered) / node.visits)


def _mean(node: Node) -> float:
    return node.total / node.visits if node.visits else 0.0


def _offered(state: State, mover: str, moves: list[Move], rng: Rng, width: int) -> list[Move]:
    """The mover's best `width` moves in this deal, greedy's order: a win alone when it has one, else
    the moves after which no rival could win at once, by the lead they give, then the rest."""
    wins = zarkplay.winning_moves(state, mover, moves) if zarkplay.could_win_now(state, mover) else []
    if wins:
        return wins[:1]
    scored = []
    for move in moves:
        after = apply(state, move, mover)
        scored.append((_lead_after(after, mover), rng.random(), move, after))
    scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
    safe: list[Move] = []
    unsafe: list[Move] = []
    for _, _, move, after in scored:
        if after.phase != "over" and not zarkplay.threatened(after, mover):
            safe.append(move)
            if len(safe) == width:
                return safe
        else:
            unsafe.append(move)
    return (safe + unsafe)[:width]


def _lead_after(after: State, mover: str) -> float:
    if after.phase == "over":
        return 1.0 if after.winner == mover else -3.0  # a move that ends the game otherwise comes last
    return greedy.lead_of(after, mover)


def _values(state: State, seat: str) -> dict[str, float]:
    """Every player's chance from here: won or lost once over; when it is `seat`'s turn and it can
    win at once, won for it and lost for the rest; else from the score leads."""
    can_win = state.phase == "act" and state.to_move == seat and zarkplay.could_win_now(state, seat)
    if can_win and zarkplay.winning_moves(state, seat, legal_moves(state, seat)):
        return {p: (1.0 if p == seat else 0.0) for p in state.players}
    return zarkplay.values(state)

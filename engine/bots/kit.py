"""The kit's bots: a random bot and an MCTS bot that know a game only through its interface.

They read nothing but `legal_moves`, `apply`, `movers`, `result`, `view` (the seats) and
`determinize` or `reseed` (the kit's `Hidden` and `Chance`), plus the kit's `Sealed` capability for secret simultaneous
steps (engine/kit/core.py), so every registered game gets them, and a game on the kit needs nothing
more. A game may plug in its own evaluation, `evaluate(state, seat) -> float` (the seat's chance of
winning, 0 to 1), to value a playout cut short.

A bot is made by a factory from a seed (`random_bot(seed)`, `mcts_bot(evaluate=...)(seed)`); a game's
`Package.bots` holds what a factory wraps (`random_move`, `Mcts(evaluate)`). Its `choose(game, state,
seat)` first asks the game for a state the seat cannot tell from the real one (`unseen_dealt`) and
never reads the real one again, so its move follows from its seed and what the seat may know.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..interface import Game
from ..kit.core import Chance, Hidden, Sealed
from .rng import Rng

# A game's own evaluation: `seat`'s chance of winning from `state`, 0 to 1 (a plug-in; optional).
Evaluate = Callable[[Any, str], float]
# How a bot decides: (game, a determinized state, seat, its playable moves, generator, effort) -> a move.
BotFn = Callable[[Game, Any, str, list[Any], Rng, float], Any]

ITERATIONS = 100  # determinizations (one line down the tree each) a move at effort 1.0
PLAYOUT = 100  # random steps after the tree before a line stops (then valued)
EXPLORATION = 0.7  # UCB1's constant; values run from 0 to 1


class Bot(Protocol):
    """What a factory makes: a bot that picks `seat`'s next step (one of game.movers(state))."""

    def choose(self, game: Game, state: Any, seat: str) -> Any: ...


class BotFactory(Protocol):
    """A bot's maker: seed (and a budget scale) -> a bot (`engine.bots.bot_factory` wraps `Package.bots`)."""

    def __call__(self, seed: str, *, effort: float = 1.0) -> Bot: ...


def playable_moves(game: Game, state: Any, seat: str) -> list[Any]:
    """The seat's legal moves without resigning (kept only when nothing else is legal)."""
    moves = game.legal_moves(state, seat)
    playing = [move for move in moves if not game.is_resign(move)]
    return playing or moves


def unseen_dealt(game: Game, state: Any, seat: str, rng: Rng) -> Any:
    """A state `seat` cannot tell from `state`: secrets dealt again (Hidden), future chance reseeded
    (Chance); a game with neither hides nothing that could matter to a move."""
    if isinstance(game, Hidden):
        return game.determinize(state, seat, rng)
    if isinstance(game, Chance):
        return game.reseed(state, f"determinized:{rng.randrange(1 << 62)}")
    return state


@dataclass(frozen=True)
class SeededBot:
    """A bot's decision (`decide`) behind the determinization: only what `seat` may know reaches it."""

    name: str
    decide: BotFn
    seed: str
    effort: float = 1.0

    def choose(self, game: Game, state: Any, seat: str) -> Any:
        if game.result(state) is not None or seat not in game.movers(state):
            raise ValueError(f"{seat} is not to move")
        rng = Rng.from_text(self.seed, game.info.id, self.name, seat)
        seen = unseen_dealt(game, state, seat, rng)  # from here on, only what `seat` could know
        moves = playable_moves(game, seen, seat)
        if len(moves) == 1:
            return moves[0]
        return self.decide(game, seen, seat, moves, rng, self.effort)


def factory(name: str, decide: BotFn) -> BotFactory:
    """The factory of the bot called `name` deciding by `decide`."""

    def make(seed: str, *, effort: float = 1.0) -> SeededBot:
        return SeededBot(name, decide, seed, effort)

    return make


def random_move(game: Game, state: Any, seat: str, moves: list[Any], rng: Rng, effort: float) -> Any:
    return rng.choice(moves)


random_bot = factory("random", random_move)


def mcts_bot(evaluate: Evaluate | None = None, *, iterations: int = ITERATIONS, playout: int = PLAYOUT) -> BotFactory:
    """The MCTS bot's factory; with `evaluate`, a short `playout` (even 0) is the usual choice."""
    return factory("mcts", Mcts(evaluate, iterations, playout))


def play_steps(game: Game, state: Any, chosen: Sequence[tuple[str, Any]]) -> Any:
    """The state after the movers' chosen steps: one resolve for a sealed step, else each in turn."""
    if isinstance(game, Sealed) and game.sealed_seats(state):
        return game.resolve(state, dict(chosen)).state
    for seat, move in chosen:
        state = game.apply(state, move, seat)
    return state


def choosers(game: Game, state: Any, seat: str) -> tuple[str, ...]:
    """Who decides the next step: every sealed seat at once; else one mover (`seat` first when a
    simultaneous step without the kit's sealing lets several move in turn, as Zark City's starters)."""
    if isinstance(game, Sealed):
        sealed = tuple(game.sealed_seats(state))
        if sealed:
            return sealed
    movers = game.movers(state)
    if not movers:
        return ()
    return (seat,) if seat in movers else (movers[0],)


# --- the MCTS bot ------------------------------------------------------------------------------------


@dataclass(slots=True)
class Stat:
    """One move's record at a node, for the seat that chose it."""

    visits: int = 0
    total: float = 0.0  # the sum of the chooser's values
    offered: int = 0  # iterations in which the move was legal here (ISMCTS's availability count)

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


@dataclass(slots=True)
class Node:
    """A sequence of steps from the root. Each deciding seat keeps its own statistics (several at a
    sealed step, decoupled); a child is keyed by every chooser's step, in notation."""

    stats: dict[str, dict[str, Stat]] = field(default_factory=dict)
    children: dict[tuple[tuple[str, str], ...], Node] = field(default_factory=dict)

    def stat(self, seat: str, key: str) -> Stat:
        moves = self.stats.setdefault(seat, {})
        found = moves.get(key)
        if found is None:
            found = moves[key] = Stat()
        return found

    def child(self, key: tuple[tuple[str, str], ...]) -> Node:
        found = self.children.get(key)
        if found is None:
            found = self.children[key] = Node()
        return found


@dataclass(frozen=True)
class Line:
    """One iteration's walk: each (node, chooser, step) it took in the tree, and where it ended."""

    taken: list[tuple[Node, str, str]]
    state: Any


@dataclass(frozen=True)
class Mcts:
    """Information-set MCTS (single observer, Cowling, Powley and Whitehouse 2012), open loop.

    Each iteration determinizes afresh from what the seat may know (hidden cards dealt again, future
    dice drawn from a new seed), walks the tree by UCB1 among the moves legal in that
    determinization, adds one node, plays random steps, and adds the value each seat got to the moves
    it chose. Whoever moves next chooses for itself, so a turn of several steps is the same seat
    choosing again, and each seat maximises its own value, whatever the number of players. At a
    sealed step every seat chooses at the same node by its own statistics (decoupled UCT)."""

    evaluate: Evaluate | None = None
    iterations: int = ITERATIONS
    playout: int = PLAYOUT
    exploration: float = EXPLORATION

    def __call__(self, game: Game, state: Any, seat: str, moves: list[Any], rng: Rng, effort: float) -> Any:
        """The move tried most often at the root (the best mean on a tie, then the first listed)."""
        root = self.search(game, state, seat, rng, max(1, round(self.iterations * effort)))
        mine = root.stats.get(seat, {})
        tried = [mine.get(str(move), Stat()) for move in moves]
        best = max(range(len(moves)), key=lambda i: (tried[i].visits, tried[i].mean(), -i))
        return moves[best]

    def search(self, game: Game, state: Any, seat: str, rng: Rng, iterations: int) -> Node:
        """The tree after `iterations` lines, each from a fresh determinization of `state` for `seat`."""
        root = Node()
        players = _seated(game, state, seat)
        for _ in range(iterations):
            line = self.descend(game, root, unseen_dealt(game, state, seat, rng), seat, rng)
            values = self.values(game, line.state, players, {chooser for _, chooser, _ in line.taken})
            for node, chooser, key in line.taken:
                stat = node.stat(chooser, key)
                stat.visits += 1
                stat.total += values[chooser]
        return root

    def descend(self, game: Game, node: Node, state: Any, seat: str, rng: Rng) -> Line:
        """One line: down the tree while its steps have been tried, one new node, random steps after."""
        taken: list[tuple[Node, str, str]] = []
        in_tree, outside = True, 0
        while game.result(state) is None and (in_tree or outside < self.playout):
            offered = [(chooser, playable_moves(game, state, chooser)) for chooser in choosers(game, state, seat)]
            if not offered or not all(moves for _, moves in offered):
                break  # nobody to move (a game that waits on something else): value the line here
            if in_tree:
                chosen = [(chooser, self.select(node, chooser, moves, rng)) for chooser, moves in offered]
                taken.extend((node, chooser, str(move)) for chooser, move in chosen)
                # A step never tried adds its node and leaves the tree: random play goes on from there.
                in_tree = all(node.stat(chooser, str(move)).visits for chooser, move in chosen)
                node = node.child(tuple((chooser, str(move)) for chooser, move in chosen))
            else:
                chosen = [(chooser, rng.choice(moves)) for chooser, moves in offered]
                outside += 1
            state = play_steps(game, state, chosen)
        return Line(taken, state)

    def select(self, node: Node, chooser: str, moves: list[Any], rng: Rng) -> Any:
        """An untried move at random, else the best by UCB1 on the chooser's mean value."""
        stats = [node.stat(chooser, str(move)) for move in moves]
        for stat in stats:
            stat.offered += 1
        untried = [i for i, stat in enumerate(stats) if stat.visits == 0]
        if untried:
            return moves[rng.choice(untried)]
        best = max(range(len(moves)), key=lambda i: (self._ucb(stats[i]), -i))
        return moves[best]

    def _ucb(self, stat: Stat) -> float:
        return stat.mean() + self.exploration * math.sqrt(math.log(stat.offered) / stat.visits)

    def values(self, game: Game, state: Any, players: tuple[str, ...], wanted: set[str]) -> dict[str, float]:
        """Each wanted seat's value where a line ended: a win shared among the winners, nothing for the
        rest; an even share when nobody won; a line cut short, by the game's evaluation if it has one."""
        result = game.result(state)
        if result is not None:
            if result.winners:
                return {seat: (1 / len(result.winners) if seat in result.winners else 0.0) for seat in wanted}
            return {seat: 1 / len(players) for seat in wanted}
        if self.evaluate is not None:
            return {seat: self.evaluate(state, seat) for seat in wanted}
        return {seat: 1 / len(players) for seat in wanted}


def _seated(game: Game, state: Any, seat: str) -> tuple[str, ...]:
    """The seats still playing, from the seat's own view."""
    view = game.view(state, seat)
    return tuple(player for player in view["players"] if player not in view["resigned"]) or (seat,)


# What every game gets when its package declares no bots of its own (engine.bots.declared).
KIT_BOTS: dict[str, BotFn] = {"random": random_move, "mcts": Mcts()}

"""Measure the engine's speed: apply and legal_moves on mid-game positions, and a 1,000-ply replay.

Run from the project root: python bench/engine.py   (prints one line per figure, target beside it)
The games are seeded and the policies deterministic, so every run measures the same positions.
"""

from __future__ import annotations

import gc
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

# This file is bench/engine.py: put the project root first, so `engine` is the package, not this script.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from engine.zarkcity.movegen import legal_moves  # noqa: E402
from engine.zarkcity.notation import (  # noqa: E402
    COLOURS,
    Build,
    Choose,
    Discard,
    Draw,
    Grow,
    Hatch,
    Move,
    MovePiece,
    Place,
    Spawn,
)
from engine.zarkcity.record import make_record, replay  # noqa: E402
from engine.zarkcity.rules import apply, movers, new_game  # noqa: E402
from engine.zarkcity.state import State  # noqa: E402

MID_GAME_CARDS = 20  # a mid-game position has at least this many cards on the board
POSITIONS = 60  # mid-game positions measured
APPLY_MOVES = 40  # legal moves applied per position (a seeded sample)
REPEATS = 5  # timings per (position, move) and per legal_moves call
REPLAY_PLIES = 1000
REPLAY_RUNS = 7
Policy = Callable[[State, str, list[Move], random.Random], Move]


def median_ns(call: Callable[[], object], repeats: int = REPEATS) -> int:
    """The median of `repeats` timed calls, the garbage collector off as timeit does it."""
    timings = []
    gc.disable()
    try:
        for _ in range(repeats):
            start = time.perf_counter_ns()
            call()
            timings.append(time.perf_counter_ns() - start)
    finally:
        gc.enable()
    return int(statistics.median(timings))


def ms(ns: float) -> str:
    return f"{ns / 1e6:.3f} ms"


def p95(values: list[int]) -> float:
    return statistics.quantiles(values, n=20)[-1]


# --- policies that keep a game going ------------------------------------------------------------------


def peaceful(state: State, colour: str, moves: list[Move], rng: random.Random, weights: dict[type, int]) -> Move:
    """A weighted random move of the listed kinds that does not end the game (Draw never does)."""
    kinds = [kind for kind in weights if any(type(m) is kind for m in moves)]
    while kinds:
        kind = rng.choices(kinds, [weights[k] for k in kinds])[0]
        options = [m for m in moves if type(m) is kind]
        move = rng.choice(options)
        if kind in (Build, Draw, Grow, Spawn, Hatch) or apply(state, move, colour).phase != "over":
            return move
        kinds.remove(kind)
    return Draw()


def builder(state: State, colour: str, moves: list[Move], rng: random.Random) -> Move:
    """Grow the board: mostly build, sometimes spawn, grow or move, so that pieces spread too."""
    weights = {Build: 12, Hatch: 12, Draw: 3, MovePiece: 3, Spawn: 2, Grow: 2}
    return setup_move(moves, rng) or peaceful(state, colour, moves, rng, weights)


def long_game(state: State, colour: str, moves: list[Move], rng: random.Random) -> Move:
    """A long game: mostly draw, build, move and grow; never a winning move, never a resignation."""
    weights = {Draw: 4, Build: 1, MovePiece: 4, Grow: 2, Spawn: 1, Hatch: 2}
    return setup_move(moves, rng) or peaceful(state, colour, moves, rng, weights)


def setup_move(moves: list[Move], rng: random.Random) -> Move | None:
    """Outside the act phase (choose, place, discard) every listed move is harmless: take one at random."""
    return rng.choice(moves[:-1]) if isinstance(moves[0], Choose | Place | Discard) else None


def play(state: State, policy: Policy, rng: random.Random) -> tuple[State, str, Move]:
    colour = movers(state)[0]
    move = policy(state, colour, legal_moves(state, colour), rng)
    return apply(state, move, colour), colour, move


# --- the figures ----------------------------------------------------------------------------------------


def mid_game_positions() -> list[State]:
    """Seeded games played by the builder until 20 to 27 cards lie on the board, the player to move to act."""
    found: list[State] = []
    seed = 0
    while len(found) < POSITIONS:
        rng = random.Random(seed)
        state = new_game(COLOURS[: 2 + seed % 3], f"bench-{seed}", ("standard", "arcade")[seed % 2])
        for _ in range(400):
            if len(state.board) >= MID_GAME_CARDS + seed % 8 and state.phase == "act":
                found.append(state)
                break
            state = play(state, builder, rng)[0]
        seed += 1
    return found


def bench_legal_moves(positions: list[State]) -> list[int]:
    """One figure per position: the median time to list the moves of the player to act."""
    return [median_ns(partial(legal_moves, state, movers(state)[0]), REPEATS * 4) for state in positions]


def bench_apply(positions: list[State]) -> list[int]:
    """One figure per (position, legal move), over a seeded sample of each position's moves."""
    timings: list[int] = []
    for index, state in enumerate(positions):
        colour = movers(state)[0]
        moves = legal_moves(state, colour)
        for move in random.Random(index).sample(moves, min(APPLY_MOVES, len(moves))):
            timings.append(median_ns(partial(apply, state, move, colour)))
    return timings


def long_record() -> tuple[dict[str, object], State]:
    rng = random.Random(1000)
    players, seed = COLOURS[:2], "bench-replay"
    state = new_game(players, seed)
    log = []
    for _ in range(REPLAY_PLIES):
        state, colour, move = play(state, long_game, rng)
        log.append((colour, str(move)))
    return make_record(players, "standard", seed, log, None), state


def main() -> None:
    positions = mid_game_positions()
    cards = sorted(len(s.board) for s in positions)
    hands = statistics.median_low(len(s.hands[movers(s)[0]]) for s in positions)
    moves = statistics.median_low(len(legal_moves(s, movers(s)[0])) for s in positions)
    print(
        f"{len(positions)} mid-game positions: {cards[0]}-{cards[-1]} cards on the board;"
        f" median {hands} cards in hand, {moves} legal moves"
    )
    listing = bench_legal_moves(positions)
    print(f"legal_moves median {ms(statistics.median(listing))}, p95 {ms(p95(listing))}   (target: median < 2 ms)")
    applied = bench_apply(positions)
    print(f"apply       median {ms(statistics.median(applied))}, p95 {ms(p95(applied))}   (target: median < 50 us)")
    record, final = long_record()
    assert replay(record) == final and final.phase != "over"
    median = median_ns(partial(replay, record), REPLAY_RUNS)
    note = f"{final.shuffles} shuffles, turn {final.turn}, {len(final.board)} cards on the board"
    print(
        f"replay of a {REPLAY_PLIES:,}-ply record {ms(median)} ({ms(median / REPLAY_PLIES)} a ply; {note})"
        "   (target: < 50 ms)"
    )


if __name__ == "__main__":
    main()

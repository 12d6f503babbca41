"""Measure the engine's speed, per game: legal moves and apply per step, and replaying a record.

Run from the project root: python bench/engine.py [--smoke] [--game ID]... For every registered game
(engine.registry), through the game interface alone: `legal_moves` and `apply` on mid-game states that
the kit's random bot reached, and the replay of a 200-step record the random bot played (a game that
ends sooner is replayed whole). For Homeworlds, whose random games lose a homeworld within a few turns,
the 300 real games of its golden corpus instead: `legal_moves` at every turn's start and with a
sacrifice's actions left, `apply` of every step the players took, and the replay of all 300. For the
Zark City family (Zark City, Deck Town), then, the figures of issue 2 against its targets: positions
grown by a build-first policy, and a 1,000-ply replay. Each block starts with the machine's speed
(bench/common.py `machine_speed`: 10 million additions, the load average): a figure means something
only beside it. The games are seeded and the bots and policies deterministic, so every run measures
the same positions. --smoke runs small sizes, only to show the bench works. It needs no database and
no Django, so it takes no --database; like every bench it refuses DJANGO_DEBUG=1.
"""

from __future__ import annotations

import argparse
import gc
import gzip
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path

# This file is bench/engine.py: put the project root first, so `engine` is the package, not this script.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from bench import common  # noqa: E402
from engine import registry  # noqa: E402
from engine.bots.kit import choosers, play_steps, random_bot  # noqa: E402
from engine.homeworlds.state import State as HomeworldsState  # noqa: E402
from engine.interface import COLOURS, Game  # noqa: E402
from engine.zarkcity.notation import (  # noqa: E402
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
from engine.zarkcity.state import State  # noqa: E402


@dataclass(frozen=True)
class Sizes:
    positions: int = 60  # mid-game positions measured
    apply_moves: int = 40  # legal moves applied per position (a seeded sample)
    repeats: int = 5  # timings per (position, move); legal_moves gets four times as many
    replay_plies: int = 1000
    replay_runs: int = 7


FULL, SMOKE = Sizes(), Sizes(positions=4, apply_moves=5, repeats=2, replay_plies=120, replay_runs=2)


@dataclass(frozen=True)
class StepSizes:
    """The figures of every game: per step, and a record played by the random bot."""

    games: int = 40  # seeded games, each giving one mid-game state
    apply_moves: int = 20  # legal moves applied per state (a seeded sample)
    repeats: int = 5  # timings per (state, move); legal_moves gets four times as many
    record_steps: int = 200
    replay_runs: int = 7


STEPS_FULL, STEPS_SMOKE = StepSizes(), StepSizes(games=3, apply_moves=3, repeats=2, record_steps=30, replay_runs=2)
CAP = 400  # steps a bot game may take while looking for a mid-game state or a long record
MID_GAME_CARDS = 20  # a mid-game position has at least this many cards on the board
# The option sets each game's mid-game positions cycle through (Zark City: both decks, as before).
OPTIONS: Mapping[str, tuple[dict[str, str], ...]] = {
    "zarkcity": ({"deck": "standard"}, {"deck": "arcade"}),
    "decktown": ({},),
}
# Zark City's targets (issue 2); Deck Town is measured against the same.
TARGETS = {"legal_moves": "median < 2 ms", "apply": "median < 50 us", "replay": "< 50 ms"}
Policy = Callable[[Game, State, str, list[Move], random.Random], Move]


def median_ns(call: Callable[[], object], repeats: int) -> int:
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
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]


# --- every game: per step, through the interface alone ------------------------------------------------


def bot_game(game: Game, seed: str, players: int, steps: int) -> tuple[list[tuple[str, str]], list[object]]:
    """The random bot for every seat from a new game of `seed`, up to `steps` steps: the log and the
    states (before each step, and the last one after them)."""
    colours = COLOURS[:players]
    state = game.new_game(colours, seed, {})
    log: list[tuple[str, str]] = []
    states = [state]
    while game.result(state) is None and len(log) < steps:
        chosen = []
        for seat in choosers(game, state, colours[0]):
            chosen.append((seat, random_bot(f"{seed}:{len(log)}").choose(game, state, seat)))
        state = play_steps(game, state, chosen)
        log.extend((seat, str(move)) for seat, move in chosen)
        states.append(state)
    return log, states


def mid_game_states(game: Game, count: int) -> list[object]:
    """One state from each of `count` seeded bot games (every table size in turn): the middle of the
    states where one seat is to step (not a sealed step, whose commitments `apply` does not take)."""
    found = []
    for number in range(count):
        players = game.info.player_counts[number % len(game.info.player_counts)]
        _, states = bot_game(game, f"bench-step-{number}", players, CAP)
        open_states = [s for s in states if game.result(s) is None and len(choosers(game, s, "")) == 1]
        if open_states:
            found.append(open_states[len(open_states) // 2])
    return found


def step_legal_moves(game: Game, states: list[object], sizes: StepSizes) -> list[int]:
    return [median_ns(partial(game.legal_moves, state, game.movers(state)[0]), sizes.repeats * 4) for state in states]


def step_apply(game: Game, states: list[object], sizes: StepSizes) -> list[int]:
    timings: list[int] = []
    for index, state in enumerate(states):
        seat = game.movers(state)[0]
        moves = [move for move in game.legal_moves(state, seat) if not game.is_resign(move)]
        for move in random.Random(index).sample(moves, min(sizes.apply_moves, len(moves))):
            timings.append(median_ns(partial(game.apply, state, move, seat), sizes.repeats))
    return timings


def bot_record(game: Game, steps: int) -> tuple[dict[str, object], object, int]:
    """A record of `steps` steps played by the random bot (the first seed of ten that lasts that long,
    else the longest game of the ten, whole), its final state and its number of steps."""
    players = game.info.player_counts[0]
    longest: tuple[list[tuple[str, str]], list[object], str] = ([], [], "")
    for number in range(10):
        seed = f"bench-record-{number}"
        log, states = bot_game(game, seed, players, steps)
        if len(log) > len(longest[0]):
            longest = (log, states, seed)
        if len(log) >= steps:
            break
    log, states, seed = longest
    final = states[-1]
    record = game.make_record(COLOURS[:players], {}, seed, log, game.record_result(final))
    return record, final, len(log)


def bench_steps(game: Game, sizes: StepSizes) -> None:
    """legal_moves and apply per step on mid-game states, and the replay of a bot-played record."""
    states = mid_game_states(game, sizes.games)
    listed = step_legal_moves(game, states, sizes)
    moves = statistics.median_low(len(game.legal_moves(s, game.movers(s)[0])) for s in states)
    print(f"{len(states)} mid-game states (random bot games, every table size); median {moves} legal moves")
    print(f"legal_moves median {ms(statistics.median(listed))}, p95 {ms(p95(listed))}")
    applied = step_apply(game, states, sizes)
    print(f"apply       median {ms(statistics.median(applied))}, p95 {ms(p95(applied))}")
    record, final, steps = bot_record(game, sizes.record_steps)
    replayed = game.replay(record)
    assert game.view(replayed, None) == game.view(final, None), "the replay did not reach the bots' final state"
    median = median_ns(partial(game.replay, record), sizes.replay_runs)
    ended = "the whole game" if game.result(final) is not None else "the game still on"
    print(f"replay of a {steps}-step record {ms(median)} ({ms(median / max(steps, 1))} a step; {ended})")


# --- Homeworlds: the 300 real games of its golden corpus -----------------------------------------------

# Positions people reached (Super Duper Games, tests/engine/test_homeworlds_corpus.py), in place of the
# random bot's, which loses a homeworld within a few turns and so never reaches a real middle game.
CORPUS = common.ROOT / "tests" / "engine" / "golden" / "homeworlds-sdg-sample.jsonl.gz"
STAGES = {"start": "at a turn's start", "sacrifice": "with a sacrifice's actions left"}


@dataclass(frozen=True)
class CorpusSizes:
    every: int = 1  # every n-th game of the corpus
    repeats: int = 5  # timings per state and per step
    replay_runs: int = 7


CORPUS_FULL, CORPUS_SMOKE = CorpusSizes(), CorpusSizes(every=30, repeats=2, replay_runs=2)


def corpus_records(every: int) -> list[dict[str, object]]:
    with gzip.open(CORPUS, "rt", encoding="utf-8") as lines:
        return [json.loads(line)["record"] for line in lines][::every]


def corpus_plies(game: Game, records: list[dict[str, object]]) -> list[tuple[HomeworldsState, str, object]]:
    """Every step the players took: the state before it, its player and the step."""
    plies = []
    for record in records:
        state = game.new_game(record["players"], record["seed"], record["options"])
        for entry in record["moves"]:
            move = game.parse(entry["move"])
            plies.append((state, entry["by"], move))
            state = game.apply(state, move, entry["by"])
    return plies


def bench_real_games(game: Game, sizes: CorpusSizes) -> None:
    """legal_moves at every turn's start and with a sacrifice's actions left, apply of every step the
    players took, and the replay of every game, total and per step."""
    records = corpus_records(sizes.every)
    plies = corpus_plies(game, records)
    print(f"{len(records)} real games ({CORPUS.name}), {len(plies):,} steps")
    for stage, words in STAGES.items():
        states = [(state, by) for state, by, _ in plies if state.stage == stage]
        counts = statistics.median_low(len(game.legal_moves(state, by)) for state, by in states)
        listed = [median_ns(partial(game.legal_moves, state, by), sizes.repeats) for state, by in states]
        print(
            f"legal_moves {words} ({len(states):,} states, median {counts} legal moves):"
            f" median {ms(statistics.median(listed))}, p95 {ms(p95(listed))}"
        )
    applied = [median_ns(partial(game.apply, state, move, by), sizes.repeats) for state, by, move in plies]
    print(f"apply of every step taken: median {ms(statistics.median(applied))}, p95 {ms(p95(applied))}")
    median = median_ns(lambda: [game.replay(record) for record in records], sizes.replay_runs)
    print(f"replay of all {len(records)} games {ms(median)} ({ms(median / len(plies))} a step)")


# --- policies that keep a game going ------------------------------------------------------------------


def peaceful(game: Game, state: State, colour: str, moves: list[Move], rng: random.Random, weights: dict) -> Move:
    """A weighted random move of the listed kinds that does not end the game (Draw never does)."""
    kinds = [kind for kind in weights if any(type(m) is kind for m in moves)]
    while kinds:
        kind = rng.choices(kinds, [weights[k] for k in kinds])[0]
        options = [m for m in moves if type(m) is kind]
        move = rng.choice(options)
        if kind in (Build, Draw, Grow, Spawn, Hatch) or game.phase(game.apply(state, move, colour)) != "over":
            return move
        kinds.remove(kind)
    return Draw()


def builder(game: Game, state: State, colour: str, moves: list[Move], rng: random.Random) -> Move:
    """Grow the board: mostly build, sometimes spawn, grow or move, so that pieces spread too."""
    weights = {Build: 12, Hatch: 12, Draw: 3, MovePiece: 3, Spawn: 2, Grow: 2}
    return setup_move(moves, rng) or peaceful(game, state, colour, moves, rng, weights)


def long_game(game: Game, state: State, colour: str, moves: list[Move], rng: random.Random) -> Move:
    """A long game: mostly draw, build, move and grow; never a winning move, never a resignation."""
    weights = {Draw: 4, Build: 1, MovePiece: 4, Grow: 2, Spawn: 1, Hatch: 2}
    return setup_move(moves, rng) or peaceful(game, state, colour, moves, rng, weights)


def setup_move(moves: list[Move], rng: random.Random) -> Move | None:
    """Outside the act phase (choose, place, discard) every listed move is harmless: take one at random."""
    return rng.choice(moves[:-1]) if isinstance(moves[0], Choose | Place | Discard) else None


def play(game: Game, state: State, policy: Policy, rng: random.Random) -> tuple[State, str, Move]:
    colour = game.movers(state)[0]
    move = policy(game, state, colour, game.legal_moves(state, colour), rng)
    return game.apply(state, move, colour), colour, move


# --- the figures ----------------------------------------------------------------------------------------


def mid_game_positions(game: Game, count: int) -> list[State]:
    """Seeded games played by the builder until 20 to 27 cards lie on the board, the player to move to act."""
    found: list[State] = []
    choices = OPTIONS[game.info.id]
    seed = 0
    while len(found) < count:
        rng = random.Random(seed)
        state = game.new_game(COLOURS[: 2 + seed % 3], f"bench-{seed}", choices[seed % len(choices)])
        for _ in range(400):
            if len(state.board) >= MID_GAME_CARDS + seed % 8 and state.phase == "act":
                found.append(state)
                break
            if state.phase == "over":
                break
            state = play(game, state, builder, rng)[0]
        seed += 1
    return found


def bench_legal_moves(game: Game, positions: list[State], sizes: Sizes) -> list[int]:
    """One figure per position: the median time to list the moves of the player to act."""
    return [
        median_ns(partial(game.legal_moves, state, game.movers(state)[0]), sizes.repeats * 4) for state in positions
    ]


def bench_apply(game: Game, positions: list[State], sizes: Sizes) -> list[int]:
    """One figure per (position, legal move), over a seeded sample of each position's moves."""
    timings: list[int] = []
    for index, state in enumerate(positions):
        colour = game.movers(state)[0]
        moves = game.legal_moves(state, colour)
        for move in random.Random(index).sample(moves, min(sizes.apply_moves, len(moves))):
            timings.append(median_ns(partial(game.apply, state, move, colour), sizes.repeats))
    return timings


def long_record(game: Game, plies: int) -> tuple[dict[str, object], State]:
    rng = random.Random(1000)
    players, seed, options = COLOURS[:2], "bench-replay", OPTIONS[game.info.id][0]
    state = game.new_game(players, seed, options)
    log = []
    for _ in range(plies):
        state, colour, move = play(game, state, long_game, rng)
        log.append((colour, str(move)))
    return game.make_record(players, options, seed, log, None), state


def bench_game(game: Game, sizes: Sizes) -> None:
    print(f"-- {game.info.name}: build-first positions and issue 2's targets")
    positions = mid_game_positions(game, sizes.positions)
    cards = sorted(len(s.board) for s in positions)
    hands = statistics.median_low(len(s.hands[game.movers(s)[0]]) for s in positions)
    moves = statistics.median_low(len(game.legal_moves(s, game.movers(s)[0])) for s in positions)
    print(
        f"{len(positions)} mid-game positions: {cards[0]}-{cards[-1]} cards on the board;"
        f" median {hands} cards in hand, {moves} legal moves"
    )
    listing = bench_legal_moves(game, positions, sizes)
    print(
        f"legal_moves median {ms(statistics.median(listing))}, p95 {ms(p95(listing))}"
        f"   (target: {TARGETS['legal_moves']})"
    )
    applied = bench_apply(game, positions, sizes)
    print(f"apply       median {ms(statistics.median(applied))}, p95 {ms(p95(applied))}   (target: {TARGETS['apply']})")
    record, final = long_record(game, sizes.replay_plies)
    assert game.replay(record) == final and final.phase != "over"
    median = median_ns(partial(game.replay, record), sizes.replay_runs)
    note = f"{final.shuffles} shuffles, turn {final.turn}, {len(final.board)} cards on the board"
    print(
        f"replay of a {sizes.replay_plies:,}-ply record {ms(median)} ({ms(median / sizes.replay_plies)} a ply;"
        f" {note})   (target: {TARGETS['replay']})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="small sizes: only shows that the bench runs")
    parser.add_argument("--game", choices=registry.ids(), action="append", help="only this game (repeatable)")
    args = parser.parse_args()
    common.refuse_debug()  # no Django here, but one rule for every bench: DEBUG figures are nobody's
    if args.smoke:  # the speed once: a smoke run's figures are not for reading
        print(f"machine: {common.machine_speed()}")
    for game_id in args.game or registry.ids():
        game = registry.get(game_id)
        print(f"== {game.info.name} ({game.info.id})")
        if not args.smoke:
            print(f"machine: {common.machine_speed()}")
        if game_id == "homeworlds":
            bench_real_games(game, CORPUS_SMOKE if args.smoke else CORPUS_FULL)
        else:
            bench_steps(game, STEPS_SMOKE if args.smoke else STEPS_FULL)
        if game_id in OPTIONS:
            bench_game(game, SMOKE if args.smoke else FULL)


if __name__ == "__main__":
    main()

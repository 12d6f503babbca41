"""Bots against bots: `python -m engine.bots.arena --game zarkcity --bots mcts,greedy --games 100`.

Each game seats `--players` bots. With exactly that many bots named, every game seats them all; with
more, the games cycle through every table of that size drawn from the list. The seats rotate from
game to game, so over a multiple of (tables x players) games each bot sits in each seat equally often.
Game number g is dealt from the seed "<--seed>:g", so a run is reproducible whatever `--jobs` is.
At a sealed step (engine/kit/core.py `Sealed`) every seat's bot chooses unseen, and one resolve plays them.
A bot named `kit-mcts` (or `kit-random`) is the kit's own bot of that name, whatever the game declares:
`--bots mcts,kit-mcts` measures a game's MCTS with its evaluation against the plain one.
It prints each bot's win rate per seat it filled with a 95% Wilson interval, and the processor
time its moves took (os.times: this process's own time, whatever else the machine is doing).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from .. import registry
from ..interface import Game
from ..kit.core import Sealed
from . import bot_info, bots_for, choose_move, mcts_iterations
from .kit import ITERATIONS, KIT_BOTS, factory, play_steps

Z95 = 1.959963984540054
MAX_PLIES = 1000
KIT = "kit-"  # `kit-mcts`: the kit's own bot (engine/bots/kit.py KIT_BOTS), even where a game declares its own


@dataclass(frozen=True)
class Job:
    game: str
    number: int
    seed: str
    seats: tuple[tuple[str, str], ...]  # (colour, bot) in seating order
    efforts: tuple[tuple[str, float], ...]  # (bot, its budget scale)
    max_plies: int
    options: tuple[tuple[str, str], ...] = ()  # the game's options (--option), checked by the game


@dataclass
class Outcome:
    number: int
    seats: tuple[tuple[str, str], ...]
    winners: tuple[str, ...]  # colours
    reason: str
    plies: int
    seconds: dict[str, float] = field(default_factory=dict)  # bot -> processor seconds of its moves
    moves: dict[str, int] = field(default_factory=dict)  # bot -> moves it chose


def wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% at the default z); (0, 1) with no games."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def tables(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The line-ups played in turn: the bots named, or every `players`-sized choice among them."""
    if len(bots) < players:
        raise ValueError(f"{players} players need at least {players} bots, not {len(bots)}")
    if len(bots) == players:
        return [tuple(bots)]
    return [tuple(bots[i] for i in chosen) for chosen in combinations(range(len(bots)), players)]


def seating(line_ups: list[tuple[str, ...]], number: int, colours: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """Game `number`'s seats: line-ups in turn, each rotated one seat further every time it comes back."""
    line_up = line_ups[number % len(line_ups)]
    turn = (number // len(line_ups)) % len(line_up)
    return tuple((colour, line_up[(i + turn) % len(line_up)]) for i, colour in enumerate(colours))


def play(job: Job) -> Outcome:
    """One whole game between bots; a game still on after `max_plies` moves ends with no winner."""
    game = registry.get(job.game)
    colours = [colour for colour, _ in job.seats]
    bots = dict(job.seats)
    state = game.new_game(colours, f"{job.seed}:{job.number}", dict(job.options))
    outcome = Outcome(job.number, job.seats, (), "unfinished", 0)
    while game.result(state) is None and outcome.plies < job.max_plies:
        chosen = [(seat, _chosen(job, game, state, seat, bots[seat], outcome)) for seat in _deciding(game, state)]
        state = play_steps(game, state, chosen)
        outcome.plies += len(chosen)
    result = game.result(state)
    if result is not None:
        outcome.winners, outcome.reason = result.winners, result.reason
    return outcome


def _deciding(game: Game, state: Any) -> tuple[str, ...]:
    """Every seat of a sealed step, each choosing unseen (engine/kit/core.py `Sealed`); else the first mover."""
    if isinstance(game, Sealed) and game.sealed_seats(state):
        return tuple(game.sealed_seats(state))
    return game.movers(state)[:1]


def _chosen(job: Job, game: Game, state: Any, seat: str, bot: str, outcome: Outcome) -> Any:
    """`bot`'s move for `seat`, its processor time added to the bot's."""
    seed, effort = f"{job.seed}:{job.number}:{outcome.plies}", dict(job.efforts)[bot]
    before = _cpu()
    if bot.startswith(KIT):
        text = str(factory(bot, KIT_BOTS[bot.removeprefix(KIT)])(seed, effort=effort).choose(game, state, seat))
    else:
        text = choose_move(game, bot, state, seat, seed, effort=effort)
    outcome.seconds[bot] = outcome.seconds.get(bot, 0.0) + _cpu() - before
    outcome.moves[bot] = outcome.moves.get(bot, 0) + 1
    return game.parse(text)


def _cpu() -> float:
    times = os.times()
    return times.user + times.system


def run(jobs: list[Job], workers: int) -> Iterator[Outcome]:
    """The outcomes in game order; several processes when `workers` > 1 (each game is independent)."""
    if workers <= 1:
        yield from map(play, jobs)
        return
    import multiprocessing  # only here: it is a tool of the command line, not of the engine's rules

    with multiprocessing.Pool(workers) as pool:
        yield from pool.imap(play, jobs)


@dataclass
class Tally:
    seats: int = 0
    wins: float = 0.0
    seconds: float = 0.0
    moves: int = 0


def tally(outcomes: Sequence[Outcome]) -> dict[str, Tally]:
    """Per bot: seats filled, wins (a shared win split between its winners), time and moves."""
    found: dict[str, Tally] = {}
    for outcome in outcomes:
        bots = dict(outcome.seats)
        for _, bot in outcome.seats:
            found.setdefault(bot, Tally()).seats += 1
        for colour in outcome.winners:
            found[bots[colour]].wins += 1 / len(outcome.winners)
        for bot, seconds in outcome.seconds.items():
            found[bot].seconds += seconds
            found[bot].moves += outcome.moves[bot]
    return found


def report(outcomes: Sequence[Outcome], players: int) -> str:
    lines = [f"{len(outcomes)} games, {players} players; a fair share is {100 / players:.1f}% of the seats filled"]
    lines.append(f"{'bot':<10} {'seats':>6} {'wins':>7} {'win rate':>9} {'95% CI (Wilson)':>17} {'s/move':>8}")
    for bot, row in sorted(tally(outcomes).items(), key=lambda item: -item[1].wins / max(item[1].seats, 1)):
        low, high = wilson(row.wins, row.seats)
        per_move = row.seconds / row.moves if row.moves else 0.0
        lines.append(
            f"{bot:<10} {row.seats:>6} {row.wins:>7g} {100 * row.wins / max(row.seats, 1):>8.1f}%"
            f" {100 * low:>7.1f}%-{100 * high:>5.1f}% {per_move:>8.3f}"
        )
    unfinished = sum(1 for o in outcomes if o.reason == "unfinished")
    no_winner = sum(1 for o in outcomes if not o.winners)
    plies = sum(o.plies for o in outcomes) / max(len(outcomes), 1)
    lines.append(f"average length {plies:.1f} plies; {no_winner} without a winner ({unfinished} stopped unfinished)")
    return "\n".join(lines)


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m engine.bots.arena", description=__doc__.split("\n")[0])
    parser.add_argument("--game", default=registry.DEFAULT, help=f"the game id (default {registry.DEFAULT})")
    parser.add_argument(
        "--bots", required=True, help="comma-separated bot names, e.g. mcts,greedy,random (kit-mcts: the kit's own)"
    )
    parser.add_argument("--games", type=int, default=20, help="how many games (default 20)")
    parser.add_argument("--players", type=int, default=2, help="players at each table (default 2)")
    parser.add_argument("--seed", default="arena", help="the run's seed: game g is dealt from '<seed>:g'")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing games at once (default 1)")
    parser.add_argument("--effort", type=float, default=1.0, help="every bot's budget scale (1.0: full strength)")
    parser.add_argument(
        "--mcts-iterations",
        type=int,
        default=None,
        help="the mcts bot's search iterations a move (default: its game's budget, see docs/bots.md, x --effort)",
    )
    parser.add_argument(
        "--max-plies", type=int, default=MAX_PLIES, help="a game still on after this many moves ends unwon"
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option for every game, e.g. suicide=illegal (repeatable; default the game's defaults)",
    )
    parser.add_argument("--progress", action="store_true", help="print a line as each game ends")
    return parser.parse_args(argv)


def jobs_of(args: argparse.Namespace) -> list[Job]:
    game = registry.get(args.game)
    bots = [name.strip() for name in args.bots.split(",") if name.strip()]
    for name in bots:
        if name.startswith(KIT) and name.removeprefix(KIT) not in KIT_BOTS:
            raise ValueError(f"the kit has no {name.removeprefix(KIT)} bot (it has {', '.join(KIT_BOTS)})")
        if not name.startswith(KIT) and bot_info(name) not in bots_for(game.info.id):
            raise ValueError(f"the {name} bot does not play {game.info.name}")
    if args.players not in game.info.player_counts:
        raise ValueError(f"{game.info.name} seats {', '.join(map(str, game.info.player_counts))} players")
    colours = ("red", "yellow", "green", "blue", "black")[: args.players]
    line_ups = tables(bots, args.players)
    efforts = tuple((name, _effort(args, game.info.id, name)) for name in dict.fromkeys(bots))
    options = tuple(_options(game, args.option).items())
    return [
        Job(args.game, n, args.seed, seating(line_ups, n, colours), efforts, args.max_plies, options)
        for n in range(args.games)
    ]


def _options(game: Game, given: Sequence[str]) -> dict[str, str]:
    """`--option NAME=VALUE`s, checked by the game (ValueError naming a bad one)."""
    pairs = [text.partition("=") for text in given]
    bad = [text for text, (_, equals, _) in zip(given, pairs, strict=True) if not equals]
    if bad:
        raise ValueError(f"an option is NAME=VALUE, not {bad[0]!r}")
    chosen = {name.strip(): value.strip() for name, _, value in pairs}
    game.info.check_options(chosen)
    return chosen


def _effort(args: argparse.Namespace, game_id: str, bot: str) -> float:
    """The bot's budget scale: --mcts-iterations for an MCTS (the game's or the kit's), else --effort."""
    if not args.mcts_iterations or bot not in ("mcts", KIT + "mcts"):
        return float(args.effort)
    return float(args.mcts_iterations / (ITERATIONS if bot.startswith(KIT) else mcts_iterations(game_id)))


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        jobs = jobs_of(args)
    except ValueError as error:
        print(f"arena: {error}", file=sys.stderr)
        return 2
    outcomes = []
    for outcome in run(jobs, args.jobs):
        outcomes.append(outcome)
        if args.progress:
            seats = " ".join(f"{colour}={bot}" for colour, bot in outcome.seats)
            won = ",".join(outcome.winners) or "none"
            print(f"game {outcome.number}: {seats}; won {won} ({outcome.reason}, {outcome.plies} plies)", flush=True)
    print(report(outcomes, args.players))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

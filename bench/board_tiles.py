"""The email's board picture drawn whole by librsvg and composed from tiles (notifications/tiles.py), on
many distinct boards, one process, the tiles' cache cold at the start: CPU time of each, how the
pictures differ, and what the cache holds. No database, no Django.

    .venv/bin/python bench/board_tiles.py [--games 40] [--plies 10] [--first 50]

The boards: --games Zark City games grown from seeds of their own (bench/midgame.py's `grow`, seeds
tiles-0, tiles-1, ..., to 30 to 40 cards, an even mix), each at its last --plies plies as an onlooker
sees it, and as many Deck Town positions of 15 random 3-seat games; drawn in an order that takes one
board of each game in turn, as a worker serving many games meets them. Each board is drawn both ways,
the order of the two alternating, at the email's width. Printed: the CPU time a board of each way over
the first --first boards (the cache cold) and over the rest, the largest difference of any channel of
any pixel and the mean one, the tiles kept and the bytes counted for them, and the process's RSS after
the first boards and at the end.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # run as a script: import from the project root, not bench/

from bench import common, midgame  # noqa: E402
from bench.board_memory import COLUMN, natural_width  # noqa: E402
from engine import registry  # noqa: E402
from notifications import librsvg, tiles  # noqa: E402


def main() -> None:
    common.refuse_debug()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="Zark City games (default 40)")
    parser.add_argument("--plies", type=int, default=10, help="the last N plies of each (default 10)")
    parser.add_argument("--first", type=int, default=50, help="boards counted as the cold start (default 50)")
    args = parser.parse_args()
    if not librsvg.available():
        sys.exit("librsvg is not installed here: nothing to measure")
    print(common.machine_speed(), flush=True)
    boards = distinct_boards(args.games, args.plies)
    print(f"{len(boards)} distinct boards", flush=True)
    run(boards, args.first)
    print(common.machine_speed())


def distinct_boards(games: int, plies: int) -> list[str]:
    """The bench's boards (the module's docstring): `games` Zark City games' and Deck Town's last `plies`
    plies, one board of each game in turn."""
    return list(interleaved(zark_city(games, plies), deck_town(plies)))


def zark_city(games: int, plies: int) -> Iterator[list[str]]:
    rules = registry.get("zarkcity")
    for n in range(games):
        for attempt in range(100):
            played = midgame.grow(f"tiles-{n}-{attempt}", 30 + n % 11)
            if played is not None:
                break
        else:
            continue
        yield [rules.board_svg(rules.view(state, None)) for state in played.states[-plies:]]


def deck_town(plies: int) -> Iterator[list[str]]:
    rules, chooser = registry.get("decktown"), random.Random(29)
    for n in range(15):
        state, seen = rules.new_game(["red", "yellow", "green"], f"tiles-decktown-{n}", {}), []
        while rules.result(state) is None and len(seen) < 200:
            colour = chooser.choice(rules.movers(state))
            moves = [m for m in rules.legal_moves(state, colour) if not rules.is_resign(m)]
            state = rules.apply(state, chooser.choice(moves), colour)
            seen.append(rules.board_svg(rules.view(state, None)))
        yield seen[-plies:]


def interleaved(*sources: Iterator[list[str]]) -> Iterator[str]:
    """One board of each game in turn, each distinct board once."""
    games = [game for source in sources for game in source]
    shown: set[str] = set()
    for ply in range(max(len(game) for game in games)):
        for game in games:
            if ply < len(game) and game[ply] not in shown:
                shown.add(game[ply])
                yield game[ply]


def run(boards: list[str], first: int) -> None:
    spent: dict[str, list[float]] = {"whole": [], "tiles": []}
    drawn_at_first = 0
    largest, means = 0, []
    for n, svg in enumerate(boards):
        width = min(COLUMN, round(natural_width(svg.encode())))
        ways: list[tuple[str, Callable[[str, int], bytes]]] = [
            ("whole", lambda svg, width: librsvg.png(svg.encode(), width)),
            ("tiles", tiles.png),
        ]
        drawn = {}
        for name, draw in ways if n % 2 else ways[::-1]:
            started = time.process_time()
            drawn[name] = draw(svg, width)
            spent[name].append((time.process_time() - started) * 1000)
        most, mean = difference(drawn["whole"], drawn["tiles"])
        largest, means = max(largest, most), [*means, mean]
        if n + 1 == first:
            drawn_at_first = tiles.KEPT.drawn
            kept = f"{len(tiles.KEPT)} tiles kept, {tiles.KEPT.bytes / 2**20:.1f} MB counted"
            print(f"after {first} boards: {kept}; RSS {common.own_rss_mb():.1f} MB", flush=True)
    for name, times in spent.items():
        cold, warm = times[:first], times[first:]
        print(
            f"{name}: {statistics.mean(cold):.2f} ms of CPU a board over the first {len(cold)}, "
            f"{statistics.mean(warm):.2f} over the other {len(warm)} (median {statistics.median(warm):.2f})"
        )
    print(f"difference: largest {largest} of 255, mean {statistics.mean(means):.3f} (worst board {max(means):.3f})")
    kept = tiles.KEPT
    print(f"tiles drawn after the first {first} boards: {kept.drawn - drawn_at_first}")
    print(
        f"tiles kept at the end: {len(kept)}, {kept.bytes / 2**20:.1f} MB; {kept.drawn} drawn for {kept.pasted} pasted"
    )
    print(f"RSS at the end {common.own_rss_mb():.1f} MB (the boards' SVGs held throughout)")


def difference(one: bytes, other: bytes) -> tuple[int, float]:
    """The largest difference of any channel of any pixel, and the mean over all channels."""
    from PIL import Image, ImageChops

    first, second = (Image.open(io.BytesIO(png)).convert("RGB") for png in (one, other))
    if first.size != second.size:
        raise SystemExit(f"the pictures differ in size: {first.size} and {second.size}")
    counts = ImageChops.difference(first, second).histogram()
    total = sum(value * count for value, count in zip(list(range(256)) * 3, counts, strict=True))
    return max(v for v, c in zip(list(range(256)) * 3, counts, strict=True) if c), total / (3 * sum(counts[:256]))


if __name__ == "__main__":
    main()

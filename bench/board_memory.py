"""What drawing the emails' board pictures keeps in memory: boards drawn as PNGs through
notifications/librsvg.py thousands of times in this one process, its resident memory and the C
allocator's bytes in use printed as it goes. No database, no Django.

    .venv/bin/python bench/board_memory.py [--draws 15000] [--every 1000] [--same] [--widths N] [--trim-every N]

The boards: Zark City's mid-game boards of 30 to 40 cards (bench/midgame.py's 11 games, every ply,
as each seat and an onlooker see it) and 60 games of Zark City and Deck Town of 2 and 3 seats played
at random, every ply as the player to move sees it, drawn in that order, over again when they run
out, as wide as the email draws them (notifications/pictures.py). They are written once to a file
in the temporary folder (some 400 MB) and read back one at a time, so the process holds none of them.
--same draws the widest of the first 3,000 again and again; --widths N draws that one at widths 200
to 200 + N - 1 in turn: one scale per width, to see what a new scale costs and whether it is kept.
--trim-every N hands glibc's free heap back every N drawings, as the Celery worker does every
zarkcity_site.heap.TRIM_EVERY_TASKS tasks: what that bounds, and what it costs a drawing.

Printed every --every drawings: VmRSS, and glibc's mallinfo2 (the arena, the bytes in use, the bytes
free in it): bytes in use that grow are kept by someone (a leak or a cache); free ones that grow are
the allocator's. And the distinct scales (notifications/librsvg.scale) met so far.
"""

from __future__ import annotations

import argparse
import random
import re
import struct
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # run as a script: import from the project root, not bench/

from bench import common, midgame  # noqa: E402
from engine import registry  # noqa: E402
from notifications import librsvg  # noqa: E402
from zarkcity_site import heap  # noqa: E402

SVG_SIZE = re.compile(rb'<svg\b[^>]*?\swidth="([\d.]+)"')
COLUMN = 560  # notifications.pictures.WIDTH (that module needs Django)
GAMES = (("zarkcity", 2), ("decktown", 3), ("zarkcity", 3), ("decktown", 2))
BOARDS = Path(tempfile.gettempdir()) / "zc_bench_board_memory.svgs"


def main() -> None:
    common.refuse_debug()  # no Django here, but one rule for every bench
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--draws", type=int, default=15000, help="drawings (default 15000: the boards once)")
    parser.add_argument("--every", type=int, default=1000, help="print a sample every N drawings (default 1000)")
    parser.add_argument("--same", action="store_true", help="draw one board only")
    parser.add_argument("--widths", type=int, default=0, help="with --same: at N widths in turn")
    parser.add_argument(
        "--trim-every", type=int, default=0, help="malloc_trim(0) every N drawings, as the worker (default 0: never)"
    )
    args = parser.parse_args()
    if not librsvg.available():
        sys.exit("librsvg is not installed here: nothing to measure")
    print(common.machine_speed())
    if not BOARDS.exists():
        write_boards()
    boards = one_board(args.widths) if args.same else every_board()
    run(boards, args.draws, args.every, heap.Trimmer(args.trim_every, heap.malloc_trim()))
    print(common.machine_speed())


def run(boards: Iterator[tuple[bytes, int]], draws: int, every: int, trimmer: heap.Trimmer) -> None:
    scales: set[float] = set()
    sample(0, scales, 0.0)
    started = time.process_time()
    for n in range(1, draws + 1):
        svg, width = next(boards)
        librsvg.png(svg, width)
        trimmer.task_done()
        scales.add(librsvg.scale(width, natural_width(svg)))
        if n % every == 0:
            sample(n, scales, (time.process_time() - started) * 1000 / n)


def sample(drawn: int, scales: set[float], cpu_ms: float) -> None:
    info = common.mallinfo()
    print(
        f"{drawn:6d} drawn: RSS {common.own_rss_mb():6.1f} MB, malloc arena {info.arena / 2**20:5.1f} MB,"
        f" in use {info.uordblks / 2**20:5.1f} MB, free {info.fordblks / 2**20:5.1f} MB;"
        f" {len(scales)} scales; {cpu_ms:.1f} ms of CPU a drawing",
        flush=True,
    )


def every_board() -> Iterator[tuple[bytes, int]]:
    while True:
        with BOARDS.open("rb") as stored:
            while head := stored.read(4):
                svg = stored.read(struct.unpack(">I", head)[0])
                yield svg, min(COLUMN, round(natural_width(svg)))


def one_board(widths: int) -> Iterator[tuple[bytes, int]]:
    boards = every_board()
    svg = max((next(boards)[0] for _ in range(3000)), key=len)
    n = 0
    while True:
        n += 1
        yield svg, (200 + n % widths if widths else min(COLUMN, round(natural_width(svg))))


def natural_width(svg: bytes) -> float:
    found = SVG_SIZE.search(svg)
    return float(found.group(1)) if found else float(COLUMN)


def write_boards() -> None:
    """Every distinct board once, in the order played, to BOARDS."""
    seen: set[int] = set()
    partial = BOARDS.with_suffix(".partial")
    with partial.open("wb") as stored:
        for svg in boards():
            data = svg.encode()
            if hash(data) not in seen:
                seen.add(hash(data))
                stored.write(struct.pack(">I", len(data)) + data)
    partial.rename(BOARDS)
    print(f"{len(seen)} boards written to {BOARDS}")


def boards() -> Iterator[str]:
    rules = registry.get("zarkcity")
    for played in midgame.boards(list(range(30, 41))):
        for state in played.states:
            for viewer in (None, *played.colours):
                yield rules.board_svg(rules.view(state, viewer))
    chooser = random.Random(29)
    for game_id, seats in GAMES:
        rules = registry.get(game_id)
        for n in range(15):
            state = rules.new_game(["red", "yellow", "green"][:seats], f"s{game_id}{seats}{n}", {})
            for _ in range(300):
                if rules.result(state) is not None:
                    break
                colour = chooser.choice(rules.movers(state))
                state = rules.apply(
                    state,
                    chooser.choice([m for m in rules.legal_moves(state, colour) if not rules.is_resign(m)]),
                    colour,
                )
                yield rules.board_svg(rules.view(state, colour))


if __name__ == "__main__":
    main()

"""The deflate of the email's board PNG (notifications/librsvg.py `encode`: the rows unfiltered, one zlib
stream) by the standard library's zlib and by the deflates made for speed that PyPI has, zlib-ng
(zlib_ng.zlib_ng) and ISA-L (isal.isal_zlib), on the real boards. No database, no Django.

    .venv/bin/python bench/png_deflate.py [--games 40] [--plies 10] [--repeat 3]

The boards are bench/board_tiles.py's: Zark City games of 30 to 40 cards and Deck Town games, the last
--plies positions of each as an onlooker sees them, drawn as the email draws them (notifications/tiles.py,
at the email's width). For each board, the rows the PNG deflates (each behind its filter byte 0, made as
`encode` made them before: the reference) are compressed by every candidate, and the whole of `encode`
runs as it was before (those rows, zlib at level 3) and as it is now, each in an order that turns round
from board to board, --repeat times (the least thread CPU time counted, the rest being the machine's
noise). Every stream is inflated back by the standard library and compared with the reference rows, so
`encode` now is checked to give the same pixels on every board. Printed for each: the median and mean
CPU ms a board, the median bytes and all the boards' bytes against the first's. Candidates not
installed here are said and skipped.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import statistics
import struct
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # run as a script: import from the project root, not bench/

from bench import common  # noqa: E402
from bench.board_memory import COLUMN, natural_width  # noqa: E402
from bench.board_tiles import distinct_boards  # noqa: E402
from notifications import librsvg, tiles  # noqa: E402

# The whole of `encode` (the rows put in PNG's order, then deflated), before and now.
WHOLE = ("encode before (4 passes, zlib 3)", "encode now (librsvg.encode)")
# (name, module, level): each a zlib-compatible `compress(data, level)`, of the rows as they were made before.
CANDIDATES = (
    ("zlib 3 (stdlib, before)", "zlib", 3),
    ("zlib 1 (stdlib)", "zlib", 1),
    ("zlib-ng 1", "zlib_ng.zlib_ng", 1),
    ("zlib-ng 2", "zlib_ng.zlib_ng", 2),
    ("zlib-ng 3", "zlib_ng.zlib_ng", 3),
    ("isal 0", "isal.isal_zlib", 0),
    ("isal 1", "isal.isal_zlib", 1),
    ("isal 2", "isal.isal_zlib", 2),
    ("isal 3", "isal.isal_zlib", 3),
)


def main() -> None:
    common.refuse_debug()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="Zark City games (default 40)")
    parser.add_argument("--plies", type=int, default=10, help="the last N plies of each (default 10)")
    parser.add_argument("--repeat", type=int, default=3, help="compressions of each board by each (default 3)")
    args = parser.parse_args()
    if not librsvg.available():
        sys.exit("librsvg is not installed here: nothing to measure")
    print(common.machine_speed(), flush=True)
    compressors = available()
    boards = distinct_boards(args.games, args.plies)
    print(f"{len(boards)} distinct boards", flush=True)
    run(boards, compressors, args.repeat)
    print(common.machine_speed())


def available() -> dict[str, Callable[[bytes], bytes]]:
    found: dict[str, Callable[[bytes], bytes]] = {}
    for name, module_name, level in CANDIDATES:
        try:
            module: Any = importlib.import_module(module_name)
        except ImportError:
            print(f"{name}: {module_name} is not installed here, skipped")
            continue
        found[name] = lambda data, compress=module.compress, level=level: compress(data, level)
    return found


def pixels_of(svg: str) -> tuple[int, int, bytes, int]:
    """What `encode` is handed for this board as the email draws it: width, height, cairo's pixels, stride."""
    caught: list[tuple[int, int, bytes, int]] = []
    real = librsvg.encode

    def encode(width: int, height: int, bgrx: bytes, stride: int = 0) -> bytes:
        caught.append((width, height, bytes(bgrx), stride))
        return real(width, height, bgrx, stride)

    librsvg.encode = encode  # type: ignore[assignment]  # as notifications/librsvg.py's png() calls it
    try:
        tiles.png(svg, min(COLUMN, round(natural_width(svg.encode()))))
    finally:
        librsvg.encode = real  # type: ignore[assignment]
    return caught[0]


def rows_before(width: int, height: int, bgrx: bytes, stride: int) -> bytes:
    """The rows as `encode` made them before ISA-L (d997fd0): each behind its filter byte 0, in four
    passes of Pillow. The reference every stream is checked against."""
    from PIL import Image

    image = Image.frombuffer("RGB", (width, height), bgrx, "raw", "BGRX", stride, 1)
    line = width * 3
    rgb = Image.frombuffer("L", (line, height), image.tobytes(), "raw", "L", 0, 1)
    filtered = Image.new("L", (line + 1, height), 0)
    filtered.paste(rgb, (1, 0))
    return filtered.tobytes()


def encode_before(width: int, height: int, bgrx: bytes, stride: int) -> bytes:
    """`encode` before: those rows, the standard library's zlib at level 3 (only the IDAT: the rest is alike)."""
    return zlib.compress(rows_before(width, height, bgrx, stride), 3)


def idat(png: bytes) -> bytes:
    """The IDAT of one of `encode`'s PNGs: the second chunk, after the 8-byte signature and the 25 of IHDR."""
    (length,) = struct.unpack(">I", png[33:37])
    assert png[37:41] == b"IDAT"
    return png[41 : 41 + length]


def least(repeat: int, work: Callable[[], bytes]) -> tuple[float, bytes]:
    """The least thread CPU ms of `repeat` runs of `work`, and what it made."""
    best, made = float("inf"), b""
    for _ in range(repeat):
        started = time.thread_time()
        made = work()
        best = min(best, (time.thread_time() - started) * 1000)
    return best, made


def run(boards: list[str], compressors: dict[str, Callable[[bytes], bytes]], repeat: int) -> None:
    spent: dict[str, list[float]] = {name: [] for name in [*compressors, *WHOLE]}
    sizes: dict[str, list[int]] = {name: [] for name in spent}
    raw = []
    names = list(spent)
    for n, svg in enumerate(boards):
        width, height, bgrx, stride = pixels_of(svg)
        rows = rows_before(width, height, bgrx, stride)
        raw.append(len(rows))
        work = {name: functools.partial(compress, rows) for name, compress in compressors.items()}
        work[WHOLE[0]] = functools.partial(encode_before, width, height, bgrx, stride)
        work[WHOLE[1]] = functools.partial(lambda *pixels: idat(librsvg.encode(*pixels)), width, height, bgrx, stride)
        shift = n % len(names)
        for name in names[shift:] + names[:shift]:
            ms, stream = least(repeat, work[name])
            if zlib.decompress(stream) != rows:
                sys.exit(f"{name}: the stream of board {n} does not inflate to its rows")
            spent[name].append(ms)
            sizes[name].append(len(stream))
    print(f"rows deflated a board: median {statistics.median(raw) / 1e6:.2f} MB")
    now = names[0]
    for name in names:
        print(
            f"{name:32s} CPU a board median {statistics.median(spent[name]):6.2f} ms, mean "
            f"{statistics.mean(spent[name]):6.2f} ms; bytes median {statistics.median(sizes[name]):8.0f}, "
            f"all boards {sum(sizes[name]) / sum(sizes[now]):6.1%} of {now}'s"
        )


if __name__ == "__main__":
    main()

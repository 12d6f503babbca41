"""A Celery worker process's memory: glibc's free heap handed back to the system every so many tasks,
and what the process keeps for good taken out of the cyclic garbage collector's sight after its first.

Most of a pool process's tasks draw a board picture: pixel buffers of 1 to 3 MB that glibc serves from
its heap once its dynamic mmap threshold has risen past them. A buffer freed below something still in
use leaves a hole that cannot be returned at the heap's top, so the process's resident memory rose and
fell by free bytes, and over hours crept up by them, while the bytes in use stayed level
(docs/performance.md, "Memory"). `malloc_trim(0)` returns every whole free page of every arena to the
system, so resident memory follows the bytes in use. After every task it would cost the page faults
of refilling those pages at the next drawing each time; every TRIM_EVERY_TASKS tasks it costs them
once in that many. Elsewhere than glibc (musl, macOS) there is no such call and nothing is done.

Python's collector of reference cycles walks every object a process holds at each full collection:
in a process sending turn emails as the worker does (bench/email_phases.py) 168,615 of them (Django,
the engines, what the emails loaded), 166 ms for one full collection among 180 emails, about 1 ms of
CPU an email (docs/performance.md, "Turn emails"). After the first task, most are what the process keeps:
`gc.freeze()` (after one full collection, so no garbage is kept with them) moves them to a generation
the collector never walks, and its full collections walk only what later tasks made. Freezing after
the first task rather than at start also takes in what it imported and cached on the way.
"""

from __future__ import annotations

import ctypes
import gc
from collections.abc import Callable

TRIM_EVERY_TASKS = 100


def malloc_trim() -> Callable[[int], int] | None:
    try:
        trim: Callable[[int], int] = ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None
    return trim


class Trimmer:
    """Counts tasks and trims at every `every`-th (0: never)."""

    def __init__(self, every: int = TRIM_EVERY_TASKS, trim: Callable[[int], int] | None = None) -> None:
        self.every = every
        self.trim = trim
        self.tasks = 0

    def task_done(self) -> bool:
        """One more task done; True when this one trimmed the heap."""
        if not self.every or self.trim is None:
            return False
        self.tasks += 1
        if self.tasks < self.every:
            return False
        self.tasks = 0
        self.trim(0)
        return True


WORKER = Trimmer(trim=malloc_trim())


class Freezer:
    """Freezes what the process holds once, after its first task: one full collection, then `gc.freeze`."""

    def __init__(self, collect: Callable[[], int] = gc.collect, freeze: Callable[[], None] = gc.freeze) -> None:
        self.collect = collect
        self.freeze = freeze
        self.frozen = False

    def task_done(self) -> bool:
        """True when this task froze the process's objects (its first)."""
        if self.frozen:
            return False
        self.frozen = True
        self.collect()
        self.freeze()
        return True


COLLECTOR = Freezer()

"""glibc's free heap handed back to the system every so many tasks in a Celery worker's process.

Most of a pool process's tasks draw a board picture: pixel buffers of 1 to 3 MB that glibc serves from
its heap once its dynamic mmap threshold has risen past them. A buffer freed below something still in
use leaves a hole that cannot be returned at the heap's top, so the process's resident memory rose and
fell by free bytes, and over hours crept up by them, while the bytes in use stayed level
(docs/performance.md, "Memory"). `malloc_trim(0)` returns every whole free page of every arena to the
system, so resident memory follows the bytes in use. After every task it would cost the page faults
of refilling those pages at the next drawing each time; every TRIM_EVERY_TASKS tasks it costs them
once in that many. Elsewhere than glibc (musl, macOS) there is no such call and nothing is done.
"""

from __future__ import annotations

import ctypes
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

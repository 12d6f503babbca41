"""zarkcity_site/heap.py: the worker's free heap handed back every TRIM_EVERY_TASKS tasks, and its objects
frozen after its first task."""

import os
from types import SimpleNamespace

import pytest

from zarkcity_site import celery as celery_app
from zarkcity_site import heap


def counting_trim() -> tuple[list[int], heap.Trimmer]:
    calls: list[int] = []

    def trim(pad: int) -> int:
        calls.append(pad)
        return 1

    return calls, heap.Trimmer(every=3, trim=trim)


def test_the_heap_is_trimmed_at_every_nth_task_and_only_then():
    calls, trimmer = counting_trim()
    trimmed = [trimmer.task_done() for _ in range(7)]
    assert trimmed == [False, False, True, False, False, True, False]
    assert calls == [0, 0]  # malloc_trim(0): no padding kept at the top


def test_no_trim_when_turned_off_or_not_glibc():
    calls, trimmer = counting_trim()
    trimmer.every = 0
    assert not any(trimmer.task_done() for _ in range(10))
    assert calls == []
    assert not any(heap.Trimmer(every=1, trim=None).task_done() for _ in range(3))


def test_a_worker_task_counts_and_an_eager_one_does_not(monkeypatch):
    calls, trimmer = counting_trim()
    trimmer.every = 1
    monkeypatch.setattr(heap, "WORKER", trimmer)
    monkeypatch.setattr(heap, "COLLECTOR", counting_freezer()[1])  # not this process's objects
    celery_app.trim_heap(sender=SimpleNamespace(request=SimpleNamespace(is_eager=True)))
    assert calls == []
    celery_app.trim_heap(sender=SimpleNamespace(request=SimpleNamespace(is_eager=False)))
    assert calls == [0]


def counting_freezer() -> tuple[list[str], heap.Freezer]:
    calls: list[str] = []

    def collect() -> int:
        calls.append("collect")
        return 0

    return calls, heap.Freezer(collect=collect, freeze=lambda: calls.append("freeze"))


def test_the_first_task_collects_then_freezes_and_no_later_one_does():
    calls, freezer = counting_freezer()
    assert [freezer.task_done() for _ in range(4)] == [True, False, False, False]
    assert calls == ["collect", "freeze"]  # garbage collected first: none of it kept for good


def test_a_worker_task_freezes_and_an_eager_one_does_not(monkeypatch):
    calls, freezer = counting_freezer()
    monkeypatch.setattr(heap, "COLLECTOR", freezer)
    monkeypatch.setattr(heap, "WORKER", heap.Trimmer(every=0))
    celery_app.trim_heap(sender=SimpleNamespace(request=SimpleNamespace(is_eager=True)))
    assert calls == []
    celery_app.trim_heap(sender=SimpleNamespace(request=SimpleNamespace(is_eager=False)))
    assert calls == ["collect", "freeze"]


def resident_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


@pytest.mark.skipif(heap.malloc_trim() is None, reason="not glibc: no malloc_trim, nothing to trim")
def test_glibc_gives_a_hole_in_the_heap_back():
    """Blocks under glibc's mmap threshold come from the heap; freed below one still in use they are a
    hole that stays resident until trimmed: what a pool process's pixel buffers left (the module's
    docstring)."""
    blocks = [bytearray(64 * 1024) for _ in range(640)]  # 40 MB written, so resident
    keep = blocks[-1]
    del blocks
    before = resident_mb()
    assert heap.WORKER.trim is not None
    heap.WORKER.trim(0)
    assert resident_mb() < before - 20
    assert len(keep) == 64 * 1024

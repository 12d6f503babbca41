"""The bots' seeded generator: SplitMix64 in plain Python, so a bot's choices follow from its seed alone.

The engine may not use the `random` module (tests/engine/test_purity.py); this small generator has
the three methods the bots and `Game.determinize` need (`engine.interface.Randomness`).
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class Rng:
    """SplitMix64 (Steele, Lea and Flood 2014): fast, and good enough to deal cards and pick moves."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    @classmethod
    def from_text(cls, *parts: str) -> Rng:
        """A generator fixed by the text: the same parts give the same choices everywhere."""
        digest = hashlib.sha256(":".join(("zarkcity-bot/1", *parts)).encode()).digest()
        return cls(int.from_bytes(digest[:8], "big"))

    def next64(self) -> int:
        self._state = (self._state + _GOLDEN) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def random(self) -> float:
        """A float in [0, 1)."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def randrange(self, stop: int, /) -> int:
        """An integer in [0, stop); the modulo bias is below 2^-50 for the small bounds used here."""
        if stop <= 0:
            raise ValueError("randrange needs a positive bound")
        return self.next64() % stop

    def choice(self, items: Sequence[T]) -> T:
        return items[self.randrange(len(items))]

    def shuffle(self, items: MutableSequence[Any], /) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randrange(i + 1)
            items[i], items[j] = items[j], items[i]

    def spawn(self, *parts: str) -> Rng:
        """An independent generator derived from this one's next value and the parts."""
        return Rng.from_text(str(self.next64()), *parts)

"""The seeded shuffle: a language-independent Fisher-Yates driven by SHA-256 (docs/notation.md).

Every shuffle of a game (number 0 deals the game, 1, 2, ... are the reshuffles of the discard
pile) follows from the game's seed alone, so a game record reproduces every card drawn.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")
_TWO_64 = 1 << 64


def _words(seed: str, shuffle_number: int) -> Iterator[int]:
    """Unsigned 64-bit big-endian words of SHA-256("zarkcity-shuffle/1:<seed>:<n>:<block>")."""
    block = 0
    while True:
        digest = hashlib.sha256(f"zarkcity-shuffle/1:{seed}:{shuffle_number}:{block}".encode()).digest()
        for offset in range(0, 32, 8):
            yield int.from_bytes(digest[offset : offset + 8], "big")
        block += 1


def _below(words: Iterator[int], bound: int) -> int:
    """A uniform integer in [0, bound): rejection sampling, so no value is favoured."""
    limit = _TWO_64 - (_TWO_64 % bound)
    while True:
        word = next(words)
        if word < limit:
            return word % bound


def shuffled(items: Sequence[T], seed: str, shuffle_number: int) -> tuple[T, ...]:
    """Fisher-Yates from the last position down: for i = n-1 .. 1 swap i with j = below(i + 1)."""
    cards = list(items)
    words = _words(seed, shuffle_number)
    for i in range(len(cards) - 1, 0, -1):
        j = _below(words, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards)


def commitment(seed: str) -> str:
    """The SHA-256 hex digest of the seed, published when a game starts."""
    return hashlib.sha256(seed.encode()).hexdigest()

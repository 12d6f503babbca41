"""One card of the board and the pieces on it: the value the board geometry, the rulesets and the
State all read, kept apart from state.py so that geometry and rulesets need not import the State."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Square:
    """One card on the board and the pieces on it, as a sorted tuple of (colour, size)."""

    card: str
    pieces: tuple[tuple[str, str], ...] = ()

    def owners(self) -> set[str]:
        return {colour for colour, _ in self.pieces}

    def controller(self) -> str | None:
        """The sole occupant, or None when the card is empty or shared (rules.md 1.4)."""
        if not self.pieces:
            return None
        first = self.pieces[0][0]
        return first if all(colour == first for colour, _ in self.pieces) else None

    def with_piece(self, colour: str, size: str) -> Square:
        return Square(self.card, tuple(sorted(self.pieces + ((colour, size),))))

    def without_piece(self, colour: str, size: str) -> Square:
        pieces = list(self.pieces)
        pieces.remove((colour, size))
        return Square(self.card, tuple(pieces))

"""The refusals every write may raise; the message is shown to the player as it is."""

from __future__ import annotations


class PlayError(ValueError):
    """An action the service refuses."""

    @property
    def reason(self) -> str:
        return str(self)


class StaleMove(PlayError):
    """The player answered a position that is no longer the current one."""


class MoveRejected(PlayError):
    """A move that cannot be read, or that the rules (or the game's state) do not allow now."""


class NotAPlayer(PlayError):
    """Someone without a (remaining) seat tried to act in the game."""

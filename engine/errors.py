"""Typed errors of the engine. All are ValueErrors, so callers can catch them broadly or exactly."""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every error the engine raises about its input."""


class NotationError(EngineError):
    """A move, card or cell that cannot be read (malformed input: CLI exit code 2)."""


class IllegalMoveError(EngineError):
    """A well-formed move the rules do not allow now. The message names the rule (CLI exit code 1)."""


class PositionError(EngineError):
    """A position or game-record file that cannot be a Zark City position (CLI exit code 2)."""


class ReplayError(EngineError):
    """A game record whose move number `index` is illegal, or whose stated result is wrong."""

    def __init__(self, index: int | None, message: str) -> None:
        super().__init__(message)
        self.index = index


def shown(text: str, limit: int = 24) -> str:
    """What was typed, quoted for an error message; cut short so a huge input is not echoed back whole."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "..."

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
    """What was typed, quoted for an error message. A long input is cut short, so it is not echoed back
    whole, at the end of a word (a half word reads as a typo of the player's), with an ellipsis inside
    the quotes: 'sounds good, see you…'. One word longer than the limit is cut where it must be."""
    if len(text) <= limit:
        return repr(text)
    head = text[:limit]
    cut_in_two = not head[-1].isspace() and not text[limit].isspace()
    if cut_in_two and any(c.isspace() for c in head.strip()):
        head = head.rstrip().rsplit(None, 1)[0]  # the last word was cut in two: leave it out
    return repr(head.rstrip(" \t,;:") + "\u2026")

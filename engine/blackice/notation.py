"""Black ICE's notation: one parser for every step (../shared/spec/blackice.md, "Notation")."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import NotationError
from .state import COLOURS, PLACES

# A step's verb and the die face it spends (declare and pass spend none).
FACE_OF = {"peek": "tip", "swap": "swap", "set": "hop", "reset": "dig", "copy": "aim"}
VERBS = {"peek": "peek", "tip": "peek", "swap": "swap", "set": "set", "hop": "set", "reset": "reset", "dig": "reset"}
VERBS |= {"copy": "copy", "aim": "copy", "declare": "declare", "pass": "pass"}
WHAT = {"locks": "locks", "lock": "locks", "keys": "keys", "key": "keys"}
COLOUR_WORDS = {colour: colour for colour in COLOURS} | {colour[0]: colour for colour in COLOURS}


@dataclass(frozen=True)
class Move:
    verb: str  # peek, swap, set, reset, copy, declare, pass
    places: tuple[int, ...] = ()  # the Lock or Node numbers; two ascending for a swap
    what: str = ""  # "locks" or "keys" for a swap
    colour: str = ""  # a Set's colour

    def __str__(self) -> str:
        words = [self.verb, self.what, *map(str, self.places), self.colour]
        return " ".join(word for word in words if word)

    @property
    def face(self) -> str:
        """The die face this action spends ("" for declare and pass)."""
        return FACE_OF.get(self.verb, "")


DECLARE = Move("declare")
PASS = Move("pass")


def parse(text: str) -> Move:
    """One step, case-insensitive, die names read as verbs; NotationError naming what is wrong."""
    words = text.strip().lower().split()
    if not words or words[0] not in VERBS:
        raise NotationError(
            f"cannot read {text.strip()!r}: a step starts with peek, swap, set, reset, copy, declare or pass"
        )
    verb, rest = VERBS[words[0]], words[1:]
    if verb in ("declare", "pass"):
        if rest:
            raise NotationError(f"{verb} takes nothing after it, not {' '.join(rest)!r}")
        return Move(verb)
    if verb == "swap":
        return _swap(rest)
    if verb == "set":
        if len(rest) != 2 or rest[1] not in COLOUR_WORDS:
            raise NotationError(f"set needs a Node and a colour (set 2 red), not {' '.join(rest)!r}")
        return Move("set", (_place(rest[0]),), colour=COLOUR_WORDS[rest[1]])
    if len(rest) != 1:
        raise NotationError(f"{verb} needs one number 1-3 ({verb} 2), not {' '.join(rest)!r}")
    return Move(verb, (_place(rest[0]),))


def _swap(rest: list[str]) -> Move:
    if len(rest) != 3 or rest[0] not in WHAT:
        raise NotationError(f"swap needs locks or keys and two numbers (swap locks 1 3), not {' '.join(rest)!r}")
    first, second = _place(rest[1]), _place(rest[2])
    if first == second:
        raise NotationError(f"swap needs two different numbers, not {first} twice")
    return Move("swap", (min(first, second), max(first, second)), what=WHAT[rest[0]])


def _place(word: str) -> int:
    if not word.isdigit() or int(word) not in PLACES:
        raise NotationError(f"a Lock or Node is 1, 2 or 3, not {word!r}")
    return int(word)

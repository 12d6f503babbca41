"""The JSON files every game reads and writes (positions, records): their text and the game they name.

One form for every game: two-space indentation, what fits on one line stays there (docs/notation.md).
"""

from __future__ import annotations

import json
from typing import Any

from .errors import PositionError


def pretty(data: Any, width: int = 100) -> str:
    """JSON with two-space indentation: what fits on one line stays there; long card lists wrap."""
    return _pretty(data, 0, width)[1]


def _pretty(data: Any, indent: int, width: int) -> tuple[str, str]:
    """(the one-line form, the form to print at this indentation), built bottom-up in one pass."""
    if isinstance(data, dict) and data:
        keys = [_scalar(str(k)) + ": " for k in data]
        kids = [_pretty(v, indent + 2, width) for v in data.values()]
        flat = "{" + ", ".join(k + f for k, (f, _) in zip(keys, kids, strict=True)) + "}"
        rows, brackets = [k + shown for k, (_, shown) in zip(keys, kids, strict=True)], "{}"
    elif isinstance(data, list) and data:
        kids = [_pretty(v, indent + 2, width) for v in data]
        flat = "[" + ", ".join(f for f, _ in kids) + "]"
        rows, brackets = [shown for _, shown in kids], "[]"
        if all(not isinstance(v, (dict, list)) for v in data):
            rows = _wrap(rows, width - indent - 2)
    else:
        flat = _scalar(data)
        return flat, flat
    if indent + len(flat) <= width:
        return flat, flat
    inner = ",\n".join(" " * (indent + 2) + row for row in rows)
    return flat, f"{brackets[0]}\n{inner}\n{' ' * indent}{brackets[1]}"


def _wrap(items: list[str], width: int) -> list[str]:
    """Scalars filled into lines of at most `width` characters (a long deck is a few lines, not fifty)."""
    lines: list[str] = []
    for item in items:
        if lines and len(lines[-1]) + len(item) + 2 <= width:
            lines[-1] += ", " + item
        else:
            lines.append(item)
    return lines


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if type(value) is int:
        return str(value)
    if isinstance(value, str) and value.isascii() and value.isprintable() and '"' not in value and "\\" not in value:
        return f'"{value}"'
    return json.dumps(value, ensure_ascii=False)


def parse_json(text: str) -> Any:
    """JSON text to data; anything that is not JSON (or nests absurdly deep) is a PositionError."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise PositionError(f"bad JSON: {error}") from None
    except RecursionError:
        raise PositionError("bad JSON: nested too deeply to be a game file") from None


def game_of(data: Any, default: str) -> str:
    """The game a file says it is: its "game" field, `default` when it has none (games.md)."""
    game = data.get("game", default) if isinstance(data, dict) else default
    if not isinstance(game, str):
        raise PositionError(f"game must be a game id like {default!r}, not {game!r}")
    return game

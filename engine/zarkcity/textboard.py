"""The board as plain text, for the text part of an email: a grid of cards with the pieces on them.

Built from an engine view (`board` entries: {"at": [x, y], "card": "7H", "pieces": {"red": "SM"}}),
like every other picture of a game, so it can only show what the view shows.
"""

from __future__ import annotations

from typing import Any

INITIALS = {"red": "r", "yellow": "y", "green": "g", "blue": "b", "black": "k"}


def cell_label(entry: dict[str, Any]) -> str:
    """ "7H r:SM b:L" — the card, then each colour's pieces by size."""
    pieces = " ".join(f"{INITIALS.get(colour, colour[:1])}:{sizes}" for colour, sizes in entry["pieces"].items())
    return f"{entry['card']} {pieces}".strip()


def board_text(view: dict[str, Any]) -> str:
    board = view.get("board") or []
    if not board:
        return "(no cards on the board yet)"
    cells = {tuple(entry["at"]): cell_label(entry) for entry in board}
    xs = range(min(x for x, _ in cells), max(x for x, _ in cells) + 1)
    ys = range(min(y for _, y in cells), max(y for _, y in cells) + 1)
    width = max(max(len(label) for label in cells.values()), max(len(str(x)) for x in xs))
    margin = max(len(str(y)) for y in ys)
    lines = [" " * margin + " | " + " | ".join(str(x).center(width) for x in xs)]
    for y in ys:
        row = " | ".join(cells.get((x, y), ".").ljust(width) for x in xs)
        lines.append(f"{str(y).rjust(margin)} | {row}")
    legend = ", ".join(f"{INITIALS.get(c, c[:1])} = {c}" for c in view.get("players", []))
    lines.append(f"(x across, y down; {legend}; S small, M medium, L large)")
    return "\n".join(line.rstrip() for line in lines)

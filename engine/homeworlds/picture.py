"""A plain star map until the drawing kit's arrives: one row per system, stars upright in the middle,
each player's ships lying on their side of it and pointing away from them (colour is technology)."""

from __future__ import annotations

from html import escape
from typing import Any, cast

from ..interface import View

FILL = {"r": "#d33", "y": "#e5c100", "g": "#2a2", "b": "#36c"}
ROW, UNIT = 56, 6  # a row's height; a pyramid's base grows by UNIT per size


def board_svg(shown: View, *, interactive: bool = False) -> str:
    data = cast(dict[str, Any], shown)
    players, systems = data["players"], data["systems"]
    rows = [_row(system, players, index) for index, system in enumerate(systems)]
    height = ROW * max(len(systems), 1)
    head = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 360 {height}" role="img" aria-label="star map">'
    return head + "".join(rows) + "</svg>"


def _row(system: dict[str, Any], players: list[str], index: int) -> str:
    y = index * ROW + ROW // 2
    parts = [f'<g data-system="{escape(system["name"])}">']
    parts.append(f'<text x="180" y="{y - 18}" text-anchor="middle" font-size="11">{escape(system["name"])}</text>')
    x = 180 - 12 * (len(system["stars"]) - 1)
    for star in system["stars"]:
        parts.append(_upright(star, x, y + 14))
        x += 24
    for side, seat in ((-1, players[0]), (1, players[1])):
        x = 180 + side * 44
        for ship in system["ships"].get(seat, []):
            parts.append(_lying(ship, x, y, side))
            x += side * 26
    return "".join(parts) + "</g>"


def _upright(piece: str, x: int, base: int) -> str:
    half, tall = UNIT * int(piece[1]) // 2 + 3, UNIT * int(piece[1]) + 8
    points = f"{x - half},{base} {x + half},{base} {x},{base - tall}"
    return f'<polygon points="{points}" fill="{FILL[piece[0]]}" data-piece="{piece}"/>'


def _lying(piece: str, x: int, y: int, side: int) -> str:
    """A ship points away from its owner: players[0]'s to the left, players[1]'s to the right."""
    half, long = UNIT * int(piece[1]) // 2 + 3, UNIT * int(piece[1]) + 8
    points = f"{x},{y - half} {x},{y + half} {x + side * long},{y}"
    return f'<polygon points="{points}" fill="{FILL[piece[0]]}" data-piece="{piece}" data-ship="1"/>'

"""The IceDice board as SVG: the two dice of the last throw, the Counter, each Vault by colour, the Bank."""

from __future__ import annotations

from html import escape

from ..interface import COLOURS, BoardScript
from .state import SIZES
from .views import IceDiceView

FILL = {"red": "#d7263d", "yellow": "#f4c430", "green": "#2e9e44", "blue": "#1f6fd1", "black": "#333333"}
WIDTH = 360
ROW = 34


def board_svg(shown: IceDiceView, *, interactive: bool = False) -> str:
    parts: list[str] = []
    y = _dice(shown, parts)
    y = _zone(parts, y, f"Counter ({shown['to_move'] or 'nobody'})", shown["counter"])
    for seat in shown["players"]:
        trio_count = shown["trios"][seat]
        label = f"{seat}'s Vault: {trio_count} Trio{'s' if trio_count != 1 else ''}"
        y = _zone(parts, y, label, shown["vaults"][seat])
    y = _bank(shown, parts, y)
    height = y + 8
    body = "".join(parts)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="icedice-board" viewBox="0 0 {WIDTH} {height}"'
        f' width="{WIDTH}" height="{height}" role="img" aria-label="IceDice board">{body}</svg>'
    )


def _dice(shown: IceDiceView, parts: list[str]) -> int:
    thrown = shown["throw"]
    size, colour = ("?", "?") if thrown is None else (thrown["size"], thrown["colour"])
    parts.append('<g data-die="size"><rect x="8" y="8" width="56" height="56" rx="8" fill="#fff" stroke="#222"/>')
    parts.append(f'<text x="36" y="42" text-anchor="middle" font-size="16">{escape(size)}</text></g>')
    fill = FILL.get(colour, "#fff")
    mark = "\u269b" if colour == "atom" else ""
    parts.append(f'<g data-die="colour"><rect x="72" y="8" width="56" height="56" rx="8" fill="{fill}" stroke="#222"/>')
    parts.append(f'<text x="100" y="44" text-anchor="middle" font-size="22">{mark}</text></g>')
    parts.append(f'<text x="140" y="42" font-size="13">{escape(size)} + {escape(colour)}</text>')
    return 76


def _zone(parts: list[str], y: int, label: str, pieces: list[str]) -> int:
    parts.append(f'<text x="8" y="{y + 12}" font-size="12">{escape(label)}</text>')
    rows = _by_colour(pieces)
    y += 16
    if not rows:
        parts.append(f'<text x="16" y="{y + 14}" font-size="11" fill="#666">empty</text>')
        return y + ROW - 10
    for colour, sizes in rows.items():
        for i, size in enumerate(sizes):
            parts.append(_pyramid(16 + i * 26, y, colour, size))
        y += ROW
    return y


def _by_colour(pieces: list[str]) -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    for text in pieces:
        colour, _, size = text.partition(":")
        rows.setdefault(colour, []).append(size)
    return rows


def _pyramid(x: int, y: int, colour: str, size: str) -> str:
    """A pyramid seen from the side: Small, Medium, Large by height."""
    height = {"S": 14, "M": 21, "L": 28}[size]
    half = height // 2 + 2
    base = y + 30
    points = f"{x + 12 - half},{base} {x + 12 + half},{base} {x + 12},{base - height}"
    return (
        f'<polygon points="{points}" fill="{FILL[colour]}" fill-opacity="0.75" stroke="#222"'
        f' data-piece="{colour}:{size}"><title>{colour} {size}</title></polygon>'
    )


def _bank(shown: IceDiceView, parts: list[str], y: int) -> int:
    parts.append(f'<text x="8" y="{y + 12}" font-size="12">Bank</text>')
    y += 18
    for i, colour in enumerate(COLOURS):
        counts = " ".join(f"{size}{shown['bank'][f'{colour}:{size}']}" for size in SIZES)
        parts.append(f'<rect x="8" y="{y + i * 18}" width="12" height="12" fill="{FILL[colour]}"/>')
        parts.append(f'<text x="26" y="{y + i * 18 + 10}" font-size="11">{colour} {counts}</text>')
    return y + len(COLOURS) * 18


def board_script(shown: IceDiceView) -> BoardScript:
    return BoardScript(module="", data={"phase": shown["phase"]})

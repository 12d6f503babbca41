"""A Decktet card face for the shared board picture (engine/zarkcity/picture.py's card-face hook).

Legible at board size: the rank in the corner with the card's suit symbols under it, the card's
name across the middle, and for an attack card its kind and pips. Every text is escaped.
"""

from __future__ import annotations

from ..zarkcity.picture import CardStyle, e
from .cards import CARDS, SUIT_NAMES

SUIT_SYMBOL = {"M": "\u263e", "S": "\u263c", "W": "\u2248", "L": "\u2766", "Y": "\u03be", "K": "\u2318"}
SUIT_INK = {"M": "#3d4f9f", "S": "#b86e00", "W": "#1a7fa8", "L": "#2e7d32", "Y": "#8e3b2f", "K": "#5b4a8a"}
CORNER_RANK = {"A": "A", "Crown": "10", "Court": "C", "Pawn": "P"}
INK = "#1f2433"


def symbols(code: str) -> str:
    """ "☾≈" for the Lunatic: the card's suit symbols in natural order."""
    return "".join(SUIT_SYMBOL[s] for s in CARDS[code].suits)


def corner_rank(code: str) -> str:
    rank = CARDS[code].rank
    return CORNER_RANK.get(rank, rank)


def card_face(code: str, left: float, top: float, w: float, h: float, big: bool = True) -> str:
    info = CARDS.get(code)
    if info is None:  # not a Deck Town card: show the code plainly rather than fail the picture
        return _blank(left, top, w, h) + _text(code, left + w / 2, top + h / 2, 13, INK, "middle")
    parts = [_blank(left, top, w, h)]
    if big:
        parts.append(
            _text(
                SUIT_SYMBOL[info.suits[0]],
                left + w / 2,
                top + h / 2,
                min(w, h) * 0.55,
                SUIT_INK[info.suits[0]],
                "middle",
                opacity=0.14,
            )
        )
    parts.append(_text(corner_rank(code), left + 6, top + 17, 15, INK, "start", bold=True))
    for i, suit in enumerate(info.suits):
        parts.append(_text(SUIT_SYMBOL[suit], left + 6, top + 34 + 16 * i, 15, SUIT_INK[suit], "start"))
    parts.extend(_name_lines(info.name, left + 22 + (w - 26) / 2, top + 12, w - 30))
    if info.pips:
        pips = "pip" if info.pips == 1 else "pips"
        parts.append(_text(f"{info.rank} \u00b7 {info.pips} {pips}", left + w / 2, top + h - 8, 10, INK, "middle"))
    return "".join(parts)


def _blank(left: float, top: float, w: float, h: float) -> str:
    return (
        f'<rect class="zc-card-face dt-card-face" x="{left}" y="{top}" width="{w}" height="{h}" rx="8" ry="8" '
        f'fill="#fffdf7" stroke="#b9b2a3" stroke-width="1.5"/>'
    )


def _name_lines(name: str, cx: float, top: float, width: float) -> list[str]:
    """The name along the top, clear of the pieces in the middle: two lines when one is too narrow."""
    words = name.split()
    lines = [name] if len(name) * 6 <= width or len(words) == 1 else [words[0], " ".join(words[1:])]
    size = 11 if max(len(line) for line in lines) * 6 <= width else 9
    return [_text(line, cx, top + i * (size + 2), size, INK, "middle", bold=True) for i, line in enumerate(lines)]


def _text(
    text: str, x: float, y: float, size: float, ink: str, anchor: str, *, bold: bool = False, opacity: float = 1.0
) -> str:
    weight = ' font-weight="700"' if bold else ""
    fade = f' fill-opacity="{opacity}"' if opacity < 1 else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" dominant-baseline="central" font-size="{size:.0f}" '
        f'font-family="Georgia, serif" fill="{ink}"{fade}{weight}>{e(text)}</text>'
    )


STYLE = CardStyle(square=True, face=card_face)


def suit_list(code: str) -> str:
    """ "Moons and Waves": the card's suits in words."""
    names = [SUIT_NAMES[s] for s in CARDS[code].suits]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

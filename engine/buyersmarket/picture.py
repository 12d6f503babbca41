"""The market as SVG, for the game page and (through cairosvg) the turn emails.

Top to bottom: the five face-up piles (top card and size), the pallets in play with their pyramids,
the global resource pile, then one row a player (bank, collected pyramids, cards bought); once the
game is scored, each player's building drawn as stacked pyramids beside its score line by line.
Resource pyramids wear their suit's die colour (B1); bank pyramids their seat colour with a black
rim. Presentation is in attributes and one <style>, so it looks the same in a page and an email.
`interactive` adds data-pallet / data-pile for the board script (static/js/buyersmarket_board.js).
"""

from __future__ import annotations

from html import escape

from .pieces import PIPS, SIZE_NAMES, SUIT_NAMES, SUITS
from .views import BuyersMarketView, card_label

WIDTH = 780
FILLS = {"S": "#7b4fa3", "H": "#d23a3a", "D": "#2f6fd1", "C": "#2f9e44", "T": "#e0b400"}
SEATS = {"red": "#ff8a80", "yellow": "#fff176", "green": "#a5d6a7", "blue": "#90caf9", "black": "#424242"}
HEIGHT_OF = {"S": 16, "M": 23, "L": 30}
STYLE = (
    "body svg.zc-board.bm-board{max-width:100%;height:auto}"
    ".bm-board text{font-family:sans-serif}"
    ".bm-board .bm-hit{fill:transparent}"
)


def _pyramid(x: float, base: float, owner: str, size: str) -> str:
    """A pyramid seen from the side, its base centred at (x, base)."""
    h = HEIGHT_OF[size]
    half = h * 0.62
    bank = owner not in SUITS
    fill = SEATS.get(owner, "#999") if bank else FILLS[owner]
    stroke = ' stroke="#111" stroke-width="2.2"' if bank else ' stroke="#00000055" stroke-width="1"'
    name = f"{SIZE_NAMES[size]} of {owner}'s bank" if bank else f"{SUIT_NAMES[owner]} {SIZE_NAMES[size]}"
    return (
        f'<polygon points="{x - half:.1f},{base} {x + half:.1f},{base} {x:.1f},{base - h}" fill="{fill}"{stroke}>'
        f"<title>{escape(name)}</title></polygon>"
    )


def _row(pieces: list[str], x: float, base: float, width: float, most: float = 24.0) -> str:
    """Pyramids ("H:L", "red:S") side by side from x, squeezed to fit `width`."""
    if not pieces:
        return ""
    step = min(most, width / len(pieces))
    parts = []
    for i, text in enumerate(pieces):
        owner, _, size = text.partition(":")
        parts.append(_pyramid(x + step * i + step / 2, base, owner, size))
    return "".join(parts)


def _card(x: float, y: float, w: float, h: float, card: str | None, extra: str = "") -> str:
    label = card_label(card) if card else "empty"
    colour = FILLS[card[-1]] if card else "#999"
    return (
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="6" fill="#fffdf6" stroke="{colour}" stroke-width="2"/>'
        f'<text x="{x + 6}" y="{y + 18}" font-size="15" font-weight="bold" fill="{colour}">{escape(label)}</text>'
        f"{extra}"
    )


def board_svg(view: BuyersMarketView, *, interactive: bool = False) -> str:
    parts: list[str] = []
    y = _piles(view, parts, 8, interactive)
    y = _pallets(view, parts, y + 8, interactive)
    y = _grp(view, parts, y + 6)
    y = _players(view, parts, y + 6)
    if "buildings" in view:
        y = _buildings(view, parts, y + 6)
    height = y + 8
    label = f"The market: {len(view['pallets'])} pallets in play"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="zc-board bm-board" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" role="img" aria-label="{label}">'
        f"<title>{escape(label)}</title><style>{STYLE}</style>"
        f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#f4efe3"/>' + "".join(parts) + "</svg>"
    )


def _small(x: float, y: float, text: str) -> str:
    return f'<text x="{x}" y="{y}" font-size="11" fill="#555">{escape(text)}</text>'


def _heading(parts: list[str], y: float, text: str) -> None:
    parts.append(f'<text x="10" y="{y + 13}" font-size="13" fill="#333">{escape(text)}</text>')


def _piles(view: BuyersMarketView, parts: list[str], y: float, interactive: bool) -> float:
    _heading(parts, y, "Piles (face up)")
    for i, suit in enumerate(SUITS):
        pile = view["piles"][suit]
        x = 120 + i * 130
        data = f' data-pile="{suit}"' if interactive else ""
        cards = f"{pile['size']} card" + ("" if pile["size"] == 1 else "s")
        count = _small(x + 6, y + 36, cards)
        parts.append(f'<g class="bm-pile"{data}>{_card(x, y, 110, 44, pile["top"], count)}</g>')
    return y + 44


def _pallets(view: BuyersMarketView, parts: list[str], y: float, interactive: bool) -> float:
    _heading(parts, y, "Pallets")
    for i, pallet in enumerate(view["pallets"]):
        x = 120 + i * 165
        done = "complete" if pallet["complete"] else f"needs {pallet['value'] - pallet['total']} more"
        extra = (
            _small(x + 6, y + 34, f"value {pallet['value']}, holds {pallet['total']}")
            + _small(x + 6, y + 48, f"{done}; GRP {pallet['resource_pips']}/{pallet['value']}")
            + _row(pallet["pieces"], x + 4, y + 96, 142)
        )
        data = f' data-pallet="{pallet["card"]}"' if interactive else ""
        parts.append(f'<g class="bm-pallet"{data}>{_card(x, y, 150, 102, pallet["card"], extra)}</g>')
    if not view["pallets"]:
        parts.append(f'<text x="120" y="{y + 20}" font-size="12" fill="#555">no pallet in play</text>')
    return y + 102


def _grp(view: BuyersMarketView, parts: list[str], y: float) -> float:
    _heading(parts, y, "Global resources")
    for i, suit in enumerate(SUITS):
        x = 120 + i * 130
        for j, size in enumerate(("L", "M", "S")):
            n = view["grp"][suit][size]
            parts.append(_pyramid(x + 14 + j * 40, y + 34, suit, size))
            parts.append(f'<text x="{x + 16 + j * 40 + HEIGHT_OF[size] * 0.62}" y="{y + 34}" font-size="11">{n}</text>')
    return y + 40


def _players(view: BuyersMarketView, parts: list[str], y: float) -> float:
    for colour in view["players"]:
        bank = view["banks"][colour]
        mark = " (resigned)" if colour in view["resigned"] else (" (to move)" if colour in view["movers"] else "")
        parts.append(
            f'<rect x="6" y="{y}" width="{WIDTH - 12}" height="52" rx="6" fill="{SEATS[colour]}" fill-opacity=".25"/>'
        )
        parts.append(f'<text x="12" y="{y + 16}" font-size="13" font-weight="bold" fill="#222">{colour}{mark}</text>')
        parts.append(f'<text x="12" y="{y + 44}" font-size="11" fill="#444">bank</text>')
        banked = [f"{colour}:{s}" for s in ("L", "M", "S") for _ in range(bank[s])]
        parts.append(_row(banked, 44, y + 46, 136))
        crp = sorted(view["crp"][colour], key=lambda t: (-PIPS[t[-1]], t))
        parts.append(f'<text x="190" y="{y + 16}" font-size="11" fill="#444">collected pyramids ({len(crp)})</text>')
        parts.append(_row(crp, 190, y + 46, 380))
        cards = " ".join(card_label(c) for c in view["collected"][colour]) or "none"
        parts.append(f'<text x="590" y="{y + 16}" font-size="11" fill="#444">cards bought</text>')
        parts.append(f'<text x="590" y="{y + 34}" font-size="12" fill="#222">{escape(cards)}</text>')
        y += 58
    return y


def _buildings(view: BuyersMarketView, parts: list[str], y: float) -> float:
    _heading(parts, y, "Buildings (the best each collected pile allows)")
    y += 20
    for colour, building in view["buildings"].items():
        levels = building["levels"]
        height = max(130, 30 * len(levels) + 40)
        parts.append(f'<g class="bm-building" data-colour="{colour}">')
        parts.append(
            f'<text x="12" y="{y + 14}" font-size="13" font-weight="bold">{colour}: {building["total"]} points</text>'
        )
        base = y + height - 10
        for level in levels:
            size = level[0][-1] if level else "S"
            width = len(level) * 2 * HEIGHT_OF[size] * 0.62
            parts.append(_row(level, 200 - width / 2, base, width, most=width))
            base -= HEIGHT_OF[size]
        for i, (name, points) in enumerate(building["lines"]):
            parts.append(f'<text x="420" y="{y + 14 + i * 15}" font-size="12">{escape(str(name))}</text>')
            parts.append(
                f'<text x="540" y="{y + 14 + i * 15}" font-size="12" text-anchor="end">{int(points):+d}</text>'
            )
        parts.append(f'<text x="420" y="{y + 14 + 7 * 15}" font-size="12" font-weight="bold">total</text>')
        total = building["total"]
        parts.append(f'<text x="540" y="{y + 119}" font-size="12" text-anchor="end" font-weight="bold">{total}</text>')
        parts.append("</g>")
        y += height
    return y

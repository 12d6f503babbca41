"""The market as plain text, for the text part of a turn email: all a player needs to choose a move
by reply, from the view alone (so it shows only what the view shows).

    Green's turn (turn 13).
    Piles (top card, face up): spades AS A♠ (9 left) | hearts 8H 8♥ (8 left) | ...
    Pallets (a move names the code, as in "buy 9H" or "place M 9H"; an Ace is worth 11):
      9H 9♥, value 9: holds 3 pips, 6 short; hearts resources 0 of 9 pips
         on it: a Medium of yellow's bank, a Small of green's bank
    Global resources left (Large Medium Small): spades 3 3 3 | hearts 3 2 3 | ...
    Players, in turn order:
      green (to move): bank 2 Large, 2 Medium, 1 Small; 0 cards bought
         collected nothing yet
      red (you): bank 0 Large, 1 Medium, 2 Small; 2 cards bought: 3♥ 5♣
         collected 4: 3 Large (red's colour x2, clubs), 1 Medium (hearts)
"""

from __future__ import annotations

from collections import Counter

from .pieces import SIZE_NAMES, SUIT_NAMES, SUITS
from .views import BuyersMarketView, PalletView, card_label, status_line
from .views import plural as _plural

ORDER = ("L", "M", "S")
INDENT = "     "


def board_text(shown: BuyersMarketView) -> str:
    lines = [_whose_move(shown), _piles(shown), *_pallets(shown), _grp(shown), "Players, in turn order:"]
    for colour in shown["players"]:
        lines += _player(shown, colour)
    lines += _buildings(shown)
    return "\n".join(lines) + "\n"


def _whose_move(shown: BuyersMarketView) -> str:
    line = status_line(shown)
    if shown["called_by"] and shown["reason"] is None:
        line += f" {shown['called_by']} called the building phase: everyone else has one more turn."
    return line


def _piles(shown: BuyersMarketView) -> str:
    piles = [
        f"{SUIT_NAMES[s]} {_card(p['top'])} ({p['size']} left)" if p["top"] else f"{SUIT_NAMES[s]} empty"
        for s, p in shown["piles"].items()
    ]
    return "Piles (top card, face up): " + " | ".join(piles)


def _card(code: str) -> str:
    """ "9H 9♥": the code a reply types, then the card as the board shows it."""
    return f"{code} {card_label(code)}"


def _pallets(shown: BuyersMarketView) -> list[str]:
    if not shown["pallets"]:
        return ["Pallets: none in play."]
    code = shown["pallets"][0]["card"]
    lines = [f'Pallets (a move names the code, as in "buy {code}" or "place M {code}"; an Ace is worth 11):']
    for pallet in shown["pallets"]:
        lines.append("  " + _pallet_line(pallet))
        lines.append(f"{INDENT}on it: {_pieces_words(pallet['pieces']) or 'nothing yet'}")
    return lines


def _pallet_line(pallet: PalletView) -> str:
    short = pallet["value"] - pallet["total"]
    state = "complete" if pallet["complete"] else f"{short} short"
    suit = SUIT_NAMES[pallet["card"][-1]]
    return (
        f"{_card(pallet['card'])}, value {pallet['value']}: holds {_plural(pallet['total'], 'pip')}, {state};"
        f" {suit} resources {pallet['resource_pips']} of {pallet['value']} pips"
    )


def _pieces_words(pieces: list[str]) -> str:
    """ "a hearts Large, a Small of red's bank", in the order they lie."""
    words = []
    for piece in pieces:
        owner, _, size = piece.partition(":")
        if owner in SUITS:
            words.append(f"a {SUIT_NAMES[owner]} {SIZE_NAMES[size]}")
        else:
            words.append(f"a {SIZE_NAMES[size]} of {owner}'s bank")
    return ", ".join(words)


def _grp(shown: BuyersMarketView) -> str:
    counts = " | ".join(f"{SUIT_NAMES[s]} " + " ".join(str(shown["grp"][s][z]) for z in ORDER) for s in SUITS)
    return f"Global resources left (Large Medium Small): {counts}"


def _player(shown: BuyersMarketView, colour: str) -> list[str]:
    marks = [m for m in (_you(shown, colour), _doing(shown, colour)) if m]
    name = colour + (f" ({', '.join(marks)})" if marks else "")
    bank = shown["banks"][colour]
    bank_words = ", ".join(f"{bank[z]} {SIZE_NAMES[z]}" for z in ORDER)
    cards = shown["collected"][colour]
    bought = f"{_plural(len(cards), 'card')} bought" + (": " + " ".join(card_label(c) for c in cards) if cards else "")
    building = shown.get("buildings", {}).get(colour)
    points = f"{_plural(building['total'], 'point')}; " if building else ""
    return [f"  {name}: {points}bank {bank_words}; {bought}", f"{INDENT}{_collected(shown['crp'][colour])}"]


def _you(shown: BuyersMarketView, colour: str) -> str:
    return "you" if colour == shown["viewer"] else ""


def _doing(shown: BuyersMarketView, colour: str) -> str:
    if colour in shown["resigned"]:
        return "resigned"
    if colour in shown["winners"]:
        return "won"
    return "to move" if colour in shown["movers"] else ""


def _collected(crp: list[str]) -> str:
    """ "collected 4: 3 Large (clubs, red's bank x2), 1 Medium (hearts)": by size, then by owner."""
    if not crp:
        return "collected nothing yet"
    return f"collected {len(crp)}: " + ", ".join(_by_size(crp))


def _by_size(pieces: list[str]) -> list[str]:
    groups = []
    for size in ORDER:
        owners = Counter(p.partition(":")[0] for p in pieces if p.endswith(":" + size))
        if owners:
            who = ", ".join(_owner(o) + (f" x{n}" if n > 1 else "") for o, n in owners.items())
            groups.append(f"{sum(owners.values())} {SIZE_NAMES[size]} ({who})")
    return groups


def _owner(owner: str) -> str:
    return SUIT_NAMES[owner] if owner in SUITS else f"{owner}'s colour"


def _buildings(shown: BuyersMarketView) -> list[str]:
    lines = []
    for colour, building in shown.get("buildings", {}).items():
        lines.append(f"{colour}'s building, {_plural(building['total'], 'point')}:")
        for number, level in enumerate(building["levels"], start=1):
            lines.append(f"{INDENT}level {number}: {', '.join(_by_size(level))}")
        if not building["levels"]:
            lines.append(f"{INDENT}nothing built")
        score = ", ".join(f"{name} {points:+d}" for name, points in building["lines"])
        lines.append(f"{INDENT}{score} = {building['total']}")
    return lines

"""What a seat (or a spectator) sees of a Buyer's Market game, and the game in words.

Everything is open except the order of each pile under its top card, future die rolls and the seed:
a view shows each pile's top card and size only, and the seed once the game is over (games.md).
"""

from __future__ import annotations

from typing import NotRequired, TypedDict, cast

from ..interface import SeatSummary, Table, View
from ..kit.events import Event
from ..shuffle import commitment
from .events import card_label as card_label  # re-exported: the pictures label cards with it
from .events import face_words
from .pieces import GAME_ID, SIZES, SUIT_NAMES, SUIT_SYMBOLS, SUITS, piece_text
from .position import to_position
from .rules import buildings, movers
from .state import State

FORMAT = "buyersmarket-view/1"


class PalletView(TypedDict):
    card: str
    value: int
    total: int
    resource_pips: int
    complete: bool
    pieces: list[str]


class PileView(TypedDict):
    top: str | None
    size: int


class BuildingView(TypedDict):
    levels: list[list[str]]
    lines: list[list[str | int]]  # [name, points], bricks to unspent
    total: int
    cards: int


class BuyersMarketView(View):
    first_player: str
    piles: dict[str, PileView]
    pallets: list[PalletView]
    grp: dict[str, dict[str, int]]
    banks: dict[str, dict[str, int]]
    crp: dict[str, list[str]]
    collected: dict[str, list[str]]
    pending: dict[str, str] | None
    called_by: str | None
    last_round: list[str]
    last_roll: dict[str, str] | None
    winners: list[str]
    buildings: NotRequired[dict[str, BuildingView]]  # once the game is scored
    seed: NotRequired[str]  # once the game is over


def view(state: State, viewer: str | None) -> BuyersMarketView:
    position = to_position(state)
    data = {
        "format": FORMAT,
        "game": GAME_ID,
        "viewer": viewer if viewer in state.players else None,
        "players": list(state.players),
        "phase": state.phase,
        "to_move": state.to_move,
        "movers": list(movers(state)),
        "turn": state.turn,
        "resigned": list(state.resigned),
        "winner": state.winners[0] if len(state.winners) == 1 else None,
        "reason": state.reason,
        "seed_commitment": commitment(state.seed),
        "first_player": state.first_player,
        "piles": {
            s: {"top": state.piles[s][0] if state.piles[s] else None, "size": len(state.piles[s])} for s in SUITS
        },
        "pallets": [
            {
                "card": p.card,
                "value": p.value,
                "total": p.total,
                "resource_pips": p.resource_pips,
                "complete": p.complete,
                "pieces": [piece_text(x) for x in p.pieces],
            }
            for p in state.pallets
        ],
        "grp": position["grp"],
        "banks": position["banks"],
        "crp": position["crp"],
        "collected": position["collected"],
        "pending": position["pending"],
        "called_by": state.called_by,
        "last_round": list(state.last_round),
        "last_roll": position["last_roll"],
        "winners": list(state.winners),
    }
    if state.reason == "score":
        data["buildings"] = {
            colour: {
                "levels": [[piece_text(x) for x in level] for level in b.levels],
                "lines": [[name, points] for name, points in b.lines()],
                "total": b.total,
                "cards": len(state.collected[colour]),
            }
            for colour, b in buildings(state).items()
        }
    if state.phase == "over":
        data["seed"] = state.seed
    return cast(BuyersMarketView, data)


# --- words -----------------------------------------------------------------------------------------------


def card_name(card: str) -> str:
    rank = {"A": "Ace"}.get(card[:-1], card[:-1])
    return f"{rank} of {SUIT_NAMES[card[-1]]}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def status_line(shown: BuyersMarketView) -> str:
    viewer, reason = shown["viewer"], shown["reason"]
    if reason is not None:
        winners = shown["winners"]
        if not winners:
            return (
                "The game is over: a draw by agreement."
                if reason == "draw"
                else f"The game is over: no winner ({reason})."
            )
        names = " and ".join("you" if w == viewer else w for w in winners)
        if reason == "score":
            return f"The game is over: {names} won with {shown['buildings'][winners[0]]['total']} points."
        return f"The game is over: {names} won by {reason}."
    mover = shown["to_move"] or ""
    who = "Your" if mover == viewer else f"{mover.capitalize()}'s"
    pending = shown["pending"]
    if pending is not None:
        why = (
            "the die showed the atom"
            if pending["reason"] == "atom"
            else f"{SUIT_NAMES[pending['rolled']]} have nothing left"
        )
        return f"{who} pick: {why}, so choose the pile of the next pallet."
    last = " (last round: the building phase was called)" if shown["called_by"] else ""
    return f"{who} turn (turn {shown['turn']}){last}."


def table(shown: BuyersMarketView) -> Table:
    seats = []
    for colour in shown["players"]:
        bank = shown["banks"][colour]
        crp = shown["crp"][colour]
        sizes = {s: sum(1 for x in crp if x.endswith(":" + s)) for s in SIZES}
        facts = [
            "bank " + " ".join(f"{s}{bank[s]}" for s in SIZES),
            "collected " + " ".join(f"{s}{sizes[s]}" for s in ("L", "M", "S")),
            plural(len(shown["collected"][colour]), "card"),
        ]
        if "buildings" in shown and colour in shown["buildings"]:
            facts.insert(0, plural(shown["buildings"][colour]["total"], "point"))
        note = (
            "resigned"
            if colour in shown["resigned"]
            else ("called the building phase" if shown["called_by"] == colour else "")
        )
        seats.append(SeatSummary(colour=colour, facts=tuple(facts), note=note))
    notes = [
        "Piles (top card): "
        + ", ".join(
            f"{SUIT_SYMBOLS[s]} {card_label(p['top']) if p['top'] else 'empty'} ({p['size']})"
            for s, p in shown["piles"].items()
        )
        + ".",
        "Global resources: "
        + "; ".join(
            f"{SUIT_SYMBOLS[s]} " + " ".join(f"{z}{shown['grp'][s][z]}" for z in ("L", "M", "S")) for s in SUITS
        )
        + ".",
    ]
    order = cast(dict[str, list[str]], shown.get("pile_order", {}))  # only in `reveal`, for a finished game
    for suit, cards in order.items():
        notes.append(
            f"{SUIT_NAMES[suit].capitalize()} pile, top first: {' '.join(card_label(c) for c in cards) or 'empty'}."
        )
    for colour, building in shown.get("buildings", {}).items():
        lines = ", ".join(f"{name} {points:+d}" for name, points in building["lines"])
        notes.append(f"{colour}'s building: {lines} = {building['total']} ({plural(building['cards'], 'card')}).")
    return Table(status=status_line(shown), seats=tuple(seats), notes=tuple(notes))


def describe(happened: tuple[Event, ...]) -> str:
    """E.g. "red bought 7♥ paying a Large: ... ; the die showed ♦, 5♦ is a new pallet": the step's events
    (rules.step) in words, the throws and the new pallets each gathered in one clause; everything public."""
    said = [e.text for e in happened if e.kind not in _GATHERED]
    faces = [face_words(e.data["face"]) for e in happened if e.kind == "roll"]
    if faces:
        said.append("the die showed " + ", ".join(faces))
    new = [e.data["card"] for e in happened if e.kind == "pallet"]
    if new:
        said.append(
            ", ".join(card_label(c) for c in new) + (" is a new pallet" if len(new) == 1 else " are new pallets")
        )
    said += [e.text for e in happened if e.kind == "pick"]
    said += [e.text for e in happened if e.kind == "end"]
    return "; ".join(said)


_GATHERED = ("roll", "pallet", "pick", "end")  # said after the action, in this order

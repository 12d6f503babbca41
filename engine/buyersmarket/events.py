"""What a Buyer's Market step did, as events written while the rules apply it: the action, each
throw of the die, each new pallet, a pile owed, the end (engine/kit/events.py). Everything is public.
"""

from __future__ import annotations

from ..kit.events import Event
from .notation import Buy, Contribute, Move, Pass, PickPile, Place
from .pieces import ATOM, SIZE_NAMES, SUIT_NAMES, SUIT_SYMBOLS, SUITS, piece_words
from .state import Pallet


def card_label(card: str) -> str:
    return card[:-1] + SUIT_SYMBOLS[card[-1]]


def sizes_words(sizes: tuple[str, ...]) -> str:
    return " and ".join(f"a {SIZE_NAMES[s]}" for s in sizes)


def face_words(face: str) -> str:
    return "the atom" if face == ATOM else SUIT_SYMBOLS[face]


def acted(move: Move, by: str, pallet: Pallet | None) -> Event:
    """The action itself; `pallet` is the one it acts on, as it stood before."""
    if isinstance(move, Pass):
        return Event("pass", f"{by} passed (no action)", by)
    if isinstance(move, PickPile):
        return Event("pile", f"{by} picked the {SUIT_NAMES[move.suit]} pile", by, {"suit": move.suit})
    if isinstance(move, Place):
        text = f"{by} placed a {SUIT_NAMES[move.card[-1]]} {SIZE_NAMES[move.size]} on {card_label(move.card)}"
        return Event("place", text, by, {"card": move.card, "size": move.size})
    if isinstance(move, Contribute):
        text = f"{by} contributed a {SIZE_NAMES[move.size]} from their bank to {card_label(move.card)}"
        return Event("contribute", text, by, {"card": move.card, "size": move.size})
    assert isinstance(move, Buy) and pallet is not None, move
    return bought(move, by, pallet)


def bought(move: Buy, by: str, pallet: Pallet) -> Event:
    """A purchase: what was paid, what the buyer collected, what went home, the change."""
    text = f"{by} bought {card_label(move.card)}"
    if move.paid:
        text += f" paying {sizes_words(move.paid)} from their bank"
    taken = [x for x in pallet.pieces if x[0] in SUITS or x[0] == by]
    if taken:
        text += f", collecting {', '.join(piece_words(x) for x in taken)}"
    home = [x for x in pallet.pieces if x[0] not in SUITS and x[0] != by]
    if home:
        text += f"; {', '.join(piece_words(x) for x in home)} went home"
    if move.back:
        text += f"; change: {sizes_words(move.back)} back to their bank"
    if move.returned:
        text += f"; change: {sizes_words(move.returned)} ({SUIT_NAMES[pallet.suit]}) back to the GRP"
    facts = {"card": move.card, "paid": list(move.paid), "collected": [f"{o}:{s}" for o, s in taken]}
    return Event("buy", text, by, facts)


def called(by: str) -> Event:
    return Event("call", "they called the building phase: everyone else has one more turn", by)


def rolled(roller: str, face: str) -> Event:
    return Event("roll", f"{roller} rolled {face_words(face)}", roller, {"face": face})


def new_pallet(card: str) -> Event:
    return Event("pallet", f"{card_label(card)} is a new pallet", None, {"card": card})


def owes_pile(roller: str) -> Event:
    return Event("pick", f"{roller} picks the pile", roller)


def resigned(by: str) -> Event:
    return Event("resign", f"{by} resigned", by)


def ended(winners: tuple[str, ...]) -> Event:
    text = "the game is over: " + " and ".join(winners) + (" wins" if len(winners) == 1 else " win")
    return Event("end", text, winners[0] if len(winners) == 1 else None, {"winners": list(winners), "reason": "score"})

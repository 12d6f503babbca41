"""What a seat may see of IceDice (everything but the seed, until the end), the table and the text board."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict, cast

from ..interface import COLOURS, SeatSummary, Table, View
from ..kit.seeing import ended_status, view_header
from .position import to_position
from .rules import offered
from .state import KINDS, SIZES, State, piece_text, trios

FORMAT = "icedice-view/1"


class ThrowView(TypedDict):
    size: str
    colour: str


class IceDiceView(View):
    """One seat's view; keys after View's are this game's (read by its picture, text board and script)."""

    first_player: str
    throw: ThrowView | None
    counter: list[str]  # "colour:size", colour then size order
    vaults: dict[str, list[str]]
    trios: dict[str, int]
    bank: dict[str, int]  # "colour:size" -> how many the Bank holds (every kind, 0 included)
    takes: list[str]  # the takes the latest throw offers, while the mover must choose one
    dice: int
    seed: NotRequired[str]  # once the game is over


def turn_of(state: State) -> int:
    """The mover's seat number: the position keeps no turn count, and a new turn always changes the mover."""
    return -1 if state.to_move is None else state.players.index(state.to_move)


def view(game: Any, state: State, viewer: str | None) -> IceDiceView:
    position = to_position(state)
    bank = state.bank()
    data = view_header(game, state, viewer, FORMAT, state.phase)
    data.update(
        first_player=state.first_player,
        throw=position["throw"],
        counter=position["counter"],
        vaults=position["vaults"],
        trios={seat: trios(state.vault(seat)) for seat in state.players},
        bank={piece_text(kind): bank[kind] for kind in KINDS},
        takes=[str(t) for t in offered(state)] if state.phase == "take" else [],
        dice=state.dice,
    )
    if state.phase == "over":
        data["seed"] = state.seed
    return cast(IceDiceView, data)


_WON = {"trios": "with three Trios"}


def status_line(shown: IceDiceView) -> str:
    if shown["reason"] is not None:
        return ended_status(shown["viewer"], shown["winner"], shown["reason"], _WON.get(shown["reason"], ""))
    mover = shown["to_move"] or ""
    doing = "take one of the offered pieces" if shown["phase"] == "take" else "roll or stop"
    throw = _throw(shown)
    if mover == shown["viewer"]:
        return f"Your turn: you threw {throw}; {doing}."
    return f"{mover.capitalize()}'s turn: {mover} threw {throw} and must {doing}."


def _throw(shown: IceDiceView) -> str:
    thrown = shown["throw"]
    return "nothing yet" if thrown is None else f"{thrown['size']} + {thrown['colour']}"


def table(shown: IceDiceView) -> Table:
    seats = []
    for seat in shown["players"]:
        vault = shown["vaults"][seat]
        facts = (_trios(shown["trios"][seat]), f"Vault: {_pieces(vault)}")
        note = "resigned" if seat in shown["resigned"] else ""
        seats.append(SeatSummary(colour=seat, facts=facts, note=note))
    notes = [f"Last throw: {_throw(shown)}.", f"Counter: {_pieces(shown['counter'])}.", f"Bank: {_bank(shown)}."]
    if shown["takes"]:
        notes.append(f"Offered: {', '.join(shown['takes'])}.")
    return Table(status=status_line(shown), seats=tuple(seats), notes=tuple(notes))


def _trios(count: int) -> str:
    return f"{count} Trio{'s' if count != 1 else ''}"


def _pieces(pieces: list[str]) -> str:
    return " ".join(p.replace(":", " ") for p in pieces) or "empty"


def _bank(shown: IceDiceView) -> str:
    """Per colour, the sizes left: `red S2 M1 L2` (a size with none left is left out)."""
    parts = []
    for colour in COLOURS:
        sizes = " ".join(f"{s}{shown['bank'][f'{colour}:{s}']}" for s in SIZES if shown["bank"][f"{colour}:{s}"])
        if sizes:
            parts.append(f"{colour} {sizes}")
    return "; ".join(parts) or "empty"

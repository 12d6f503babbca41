"""The nine Turn Options of Zark City (rules.md 5, 7, 8): each checks one move and applies it to a Draft.

A move is checked directly, never by generating the legal moves. Each option returns the cells
whose control it may have changed, the only places a new Power Block can appear (rules.md 5.9).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..errors import IllegalMoveError
from .board import controlled_by, fly_keeps_connected, has_pieces, occupies, pieces_on_board, sides, touches_card
from .draft import Draft
from .notation import (
    SIZE_PIPS,
    Build,
    Cell,
    Convert,
    Demolish,
    Draw,
    Fly,
    Grow,
    Hatch,
    Move,
    MovePiece,
    Spawn,
    cell_str,
)
from .state import PIECES_PER_SIZE, Square

DRAW_OPTION_CARDS = 3
SIZE_NAMES = {"S": "small", "M": "medium", "L": "large"}
_GROWN = {"S": "M", "M": "L"}

Changed = tuple[Cell, ...]


def perform(draft: Draft, move: Move, by: str) -> Changed:
    """Apply one Turn Option of player `by` to the draft, or raise IllegalMoveError naming the rule."""
    return _OPTIONS[type(move)](draft, move, by)


def is_option(move: Move) -> bool:
    return type(move) in _OPTIONS


# --- checks shared by several options -------------------------------------------------------------


def _square(board: Mapping[Cell, Square], at: Cell, rule: str) -> Square:
    square = board.get(at)
    if square is None:
        raise IllegalMoveError(f"{rule}: {cell_str(at)} has no card")
    return square


def _empty_cell(board: Mapping[Cell, Square], at: Cell, rule: str) -> None:
    if at in board:
        raise IllegalMoveError(f"{rule}: {cell_str(at)} already holds {board[at].card}")


def _has_piece(square: Square, colour: str, size: str, at: Cell, rule: str) -> None:
    if (colour, size) not in square.pieces:
        raise IllegalMoveError(f"{rule}: {colour} has no {SIZE_NAMES[size]} on {cell_str(at)}")


def _in_stash(board: Mapping[Cell, Square], colour: str, size: str, rule: str, why: str = "") -> None:
    if pieces_on_board(board, colour, size) >= PIECES_PER_SIZE:
        raise IllegalMoveError(f"{rule}: no {SIZE_NAMES[size]} left in {colour}'s stash{why}")


def _take_number_card(draft: Draft, by: str, card: str, rule: str) -> None:
    draft.take(by, (card,), rule)
    if not draft.rules.cards[card].is_number:
        raise IllegalMoveError(f"{rule}: {card} is not a number card (only {draft.rules.number_ranks} go on the board)")


def controls(square: Square | None, colour: str) -> bool:
    return square is not None and controlled_by(square, colour)


def _occupiers(square: Square, players: tuple[str, ...]) -> str:
    owners = square.owners()
    names = [p for p in players if p in owners] + sorted(owners - set(players))
    if not names:
        return "an empty card"
    return " and ".join(names) + "'s card"


# --- the options ----------------------------------------------------------------------------------


def draw(draft: Draft, move: Draw, by: str) -> Changed:
    """Always legal (A14); with deck and discard pile empty it draws nothing."""
    draft.draw(by, DRAW_OPTION_CARDS)
    return ()


def grow(draft: Draft, move: Grow, by: str) -> Changed:
    square = _square(draft.board, move.at, "Grow")
    if move.size not in _GROWN:
        raise IllegalMoveError("Grow: a large never grows (grow a small or a medium)")
    _has_piece(square, by, move.size, move.at, "Grow")
    bigger = _GROWN[move.size]
    _in_stash(draft.board, by, bigger, "Grow")
    draft.put(move.at, square.without_piece(by, move.size).with_piece(by, bigger))
    return ()


def spawn(draft: Draft, move: Spawn, by: str) -> Changed:
    square = _square(draft.board, move.at, "Spawn")
    if not occupies(square, by):
        raise IllegalMoveError(f"Spawn: {by} does not occupy {cell_str(move.at)} (spawn on a card you occupy)")
    _in_stash(draft.board, by, "S", "Spawn", " (spawn needs a small; mediums and larges do not help)")
    draft.put(move.at, square.with_piece(by, "S"))
    return ()


def build(draft: Draft, move: Build, by: str) -> Changed:
    _take_number_card(draft, by, move.card, "Build")
    _empty_cell(draft.board, move.at, "Build")
    reach = controls if draft.rules.build_needs_control else occupies
    if not any(reach(draft.board.get(n), by) for n in sides(move.at)):
        raise IllegalMoveError(_build_out_of_reach(draft, move, by))
    draft.put(move.at, Square(move.card))
    return ()


def _build_out_of_reach(draft: Draft, move: Build, by: str) -> str:
    neighbours = [(n, draft.board[n]) for n in sides(move.at) if n in draft.board]
    where = cell_str(move.at)
    need = "control" if draft.rules.build_needs_control else "occupy"
    if not neighbours:
        return f"Build: {where} touches no card (build beside a card you {need})"
    touched = ", ".join(f"{_occupiers(sq, draft.base.players)} at {cell_str(n)}" for n, sq in neighbours)
    return f"Build: {move.card} must touch a card you {need}; {where} touches only {touched}"


def move_piece(draft: Draft, move: MovePiece, by: str) -> Changed:
    square = _square(draft.board, move.src, "Move")
    _has_piece(square, by, move.size, move.src, "Move")
    if move.dst not in sides(move.src):
        raise IllegalMoveError(
            f"Move: {cell_str(move.dst)} is not orthogonally adjacent to {cell_str(move.src)}"
            " (a piece slides one step, never diagonally)"
        )
    target = draft.board.get(move.dst)
    if target is None:
        raise IllegalMoveError(
            f"Move: {cell_str(move.dst)} has no card (a piece moves only onto an orthogonally adjacent card)"
        )
    draft.put(move.src, square.without_piece(by, move.size))
    draft.put(move.dst, target.with_piece(by, move.size))
    return (move.src, move.dst)


def demolish(draft: Draft, move: Demolish, by: str) -> Changed:
    square = _target(draft, "Demolish", move.owner, move.size, move.at, by)
    _attack(draft, "Demolish", move.pay, move.size, by)
    draft.put(move.at, square.without_piece(move.owner, move.size))
    _change_draw(draft, "Demolish", move, by)
    return (move.at,)


def convert(draft: Draft, move: Convert, by: str) -> Changed:
    square = _target(draft, "Convert", move.owner, move.size, move.at, by)
    if not draft.rules.convert_same_size_on_suit_match and SIZE_PIPS[move.into] > SIZE_PIPS[move.size]:
        raise IllegalMoveError(
            f"Convert: a {SIZE_NAMES[move.size]} cannot become a {SIZE_NAMES[move.into]}"
            " (convert into the same size or smaller)"
        )
    _in_stash(draft.board, by, move.into, "Convert")
    _attack(draft, "Convert", move.pay, move.size, by)
    if draft.rules.convert_same_size_on_suit_match:
        _check_suit_match(draft, move, square)
    draft.put(move.at, square.without_piece(move.owner, move.size).with_piece(by, move.into))
    _change_draw(draft, "Convert", move, by)
    return (move.at,)


def _check_suit_match(draft: Draft, move: Convert, square: Square) -> None:
    """Deck Town (14.2, D4, D7): a same-size piece, and only if every paid card shares a suit with the card."""
    if move.into != move.size:
        raise IllegalMoveError(
            f"Convert: replace a {SIZE_NAMES[move.size]} with a {SIZE_NAMES[move.size]}"
            f" (the matching pyramid is the same size), not a {SIZE_NAMES[move.into]}"
        )
    cards = draft.rules.cards
    suits = set(cards[square.card].suits)
    for card in move.pay:
        if not suits.intersection(cards[card].suits):
            raise IllegalMoveError(
                f"Convert: {card} shares no suit with {square.card} (replace only when every paid card matches"
                " the attacked card in a suit; demolish instead)"
            )


def _target(draft: Draft, rule: str, owner: str, size: str, at: Cell, by: str) -> Square:
    """The square of an attacked piece: another player's (A7), on or beside a card `by` occupies (A25)."""
    if owner == by:
        raise IllegalMoveError(f"{rule}: you may not attack your own piece (target another player's piece)")
    square = _square(draft.board, at, rule)
    _has_piece(square, owner, size, at, rule)
    if not occupies(square, by) and not any(occupies(draft.board.get(n), by) for n in sides(at)):
        raise IllegalMoveError(
            f"{rule}: {cell_str(at)} is out of range (attack on a card you occupy or one orthogonally adjacent to it)"
        )
    return square


def _attack(draft: Draft, rule: str, pay: tuple[str, ...], size: str, by: str) -> None:
    """Check the payment (rules.md 7) and move it from the hand to the discard pile."""
    if not pay:
        raise IllegalMoveError(f"{rule}: pay with at least one attack card")
    draft.take(by, pay, rule)
    cards = draft.rules.cards
    for card in pay:
        if not cards[card].is_attack:
            raise IllegalMoveError(f"{rule}: {card} is not an attack card (pay with {draft.rules.attack_cards})")
    need = SIZE_PIPS[size]
    total = _pips(draft, pay)
    if total < need:
        verb = "does" if total == 1 else "do"
        raise IllegalMoveError(
            f"{rule}: {_pip_count(total)} {verb} not pay for a {SIZE_NAMES[size]} ({_pip_count(need)})"
        )
    for card in pay:
        if total - cards[card].pips >= need:
            raise IllegalMoveError(
                f"{rule}: {card} is entirely redundant (the other cards already pay the {_pip_count(need)}"
                f" a {SIZE_NAMES[size]} costs)"
            )
    draft.to_discard(draft.rules.sort(pay))


def _change_draw(draft: Draft, rule: str, move: Demolish | Convert, by: str) -> None:
    """Overpaid pips come back as cards, after the payment is on the discard pile (A9, A13); in Deck
    Town the attacker may draw fewer, as `draw N` says (D9)."""
    change = _pips(draft, move.pay) - SIZE_PIPS[move.size]
    draft.draw(by, change if move.draws is None else _chosen_draws(draft, rule, move.draws, change), " as change")


def _chosen_draws(draft: Draft, rule: str, draws: int, change: int) -> int:
    if not draft.rules.optional_change:
        raise IllegalMoveError(
            f"{rule}: in {draft.rules.name} the change is drawn in full (ruling A9): write the move without draw"
        )
    if draws > change:
        raise IllegalMoveError(
            f"{rule}: the payment overpays by {_pip_count(change)}, so draw 0 to {change} change cards, not {draws}"
        )
    return draws


def _pips(draft: Draft, pay: tuple[str, ...]) -> int:
    return sum(draft.rules.cards[card].pips for card in pay)


def _pip_count(pips: int) -> str:
    return "1 pip" if pips == 1 else f"{pips} pips"


def fly(draft: Draft, move: Fly, by: str) -> Changed:
    draft.take(by, (move.ace,), "Fly")
    if not draft.rules.cards[move.ace].is_ace:
        raise IllegalMoveError(f"Fly: {move.ace} is not an ace (only an ace flies a card)")
    square = _square(draft.board, move.src, "Fly")
    src, dst = cell_str(move.src), cell_str(move.dst)
    if not occupies(square, by):
        raise IllegalMoveError(f"Fly: {by} does not occupy {src} (fly a card you occupy)")
    if move.dst == move.src:
        raise IllegalMoveError(f"Fly: the card is already at {dst} (fly it to another cell)")
    _empty_cell(draft.board, move.dst, "Fly")
    if not touches_card(draft.board, move.dst, ignoring=move.src):
        raise IllegalMoveError(f"Fly: {dst} touches no card once {src} has left (land beside another card)")
    if not fly_keeps_connected(draft.board, move.src, move.dst):
        raise IllegalMoveError("Fly: the board would split in two (corners touching are enough to hold it together)")
    draft.to_discard((move.ace,))
    draft.lift(move.src)
    draft.put(move.dst, square)
    return (move.dst,)


def hatch(draft: Draft, move: Hatch, by: str) -> Changed:
    if has_pieces(draft.board, by):
        raise IllegalMoveError(f"Hatch: {by} still has pieces on the board (hatch only with none there)")
    _take_number_card(draft, by, move.card, "Hatch")
    _empty_cell(draft.board, move.at, "Hatch")
    if not touches_card(draft.board, move.at):
        raise IllegalMoveError(f"Hatch: {cell_str(move.at)} touches no card (hatch beside any card in play)")
    draft.put(move.at, Square(move.card, ((by, "S"),)))
    return ()


_OPTIONS: dict[type, Callable[[Draft, Any, str], Changed]] = {
    Draw: draw,
    Grow: grow,
    Spawn: spawn,
    Build: build,
    MovePiece: move_piece,
    Demolish: demolish,
    Convert: convert,
    Fly: fly,
    Hatch: hatch,
}

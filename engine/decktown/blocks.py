"""Deck Town's poker blocks (rules.md 14.2, D3) and its tie-breaks (D2), over the shared board.

A poker block is a set of cards one player controls that is itself orthogonally connected: three
of a kind (three cards of one rank sharing no suit, which in the Myrmex deck means a rank's three
different cards) or a straight flush (four or more cards sharing one suit with consecutive ranks,
laid out in any order). As in Zark City the check is local: a block a step creates holds a cell
whose control (or, for a flown card, whose place) that step changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING

from ..zarkcity.board import controlled_by, sides
from ..zarkcity.cards import CardInfo
from .cards import CARDS, SUITS

if TYPE_CHECKING:
    from ..zarkcity.notation import Cell
    from ..zarkcity.square import Square

Board = Mapping["Cell", "Square"]
SHORTEST_FLUSH = 4
_SUIT_INDEX = {suit: i for i, suit in enumerate(SUITS)}
CardRank = tuple[int, ...]


def card_rank(card: CardInfo) -> CardRank:
    """Rank first, then the suits compared best suit first (D2: Moons highest); higher is better."""
    return (card.number, *sorted((-_SUIT_INDEX[s] for s in card.suits), reverse=True))


def winners_through(board: Board, cells: Iterable[Cell]) -> set[str]:
    """Players who control a poker block that covers one of `cells`."""
    found: set[str] = set()
    for cell in cells:
        square = board.get(cell)
        if square is None or not square.pieces:
            continue
        owner = square.pieces[0][0]
        if owner not in found and controlled_by(square, owner) and next(blocks_through(board, cell, owner), None):
            found.add(owner)
    return found


def blocks_through(board: Board, cell: Cell, owner: str) -> Iterator[frozenset[Cell]]:
    """Every poker block of `owner` that holds `cell` (which `owner` controls)."""
    region = _region(board, cell, owner)
    yield from _three_of_a_kind(board, cell, region)
    yield from _straight_flushes(board, cell, region)


def _region(board: Board, cell: Cell, owner: str) -> set[Cell]:
    """The orthogonally connected cards around `cell` that `owner` controls."""
    region, todo = {cell}, [cell]
    while todo:
        for n in sides(todo.pop()):
            square = board.get(n)
            if n not in region and square is not None and controlled_by(square, owner):
                region.add(n)
                todo.append(n)
    return region


def _three_of_a_kind(board: Board, cell: Cell, region: set[Cell]) -> Iterator[frozenset[Cell]]:
    """Three connected cards of one rank, no suit shared between any two (14.2): a tromino of the region."""
    card = CARDS[board[cell].card]
    mates = [n for n in region if n != cell and _kind_mate(card, CARDS[board[n].card])]
    for i, first in enumerate(mates):
        for second in mates[i + 1 :]:
            trio = frozenset((cell, first, second))
            if _kind_mate(CARDS[board[first].card], CARDS[board[second].card]) and _connected(trio):
                yield trio


def _kind_mate(a: CardInfo, b: CardInfo) -> bool:
    return a.number > 0 and a.number == b.number and not set(a.suits) & set(b.suits)


def _straight_flushes(board: Board, cell: Cell, region: set[Cell]) -> Iterator[frozenset[Cell]]:
    """Connected sets of 4 or more cards holding `cell`, all of one suit, with consecutive distinct ranks."""
    card = CARDS[board[cell].card]
    for suit in card.suits:
        suited = {n: CARDS[board[n].card].number for n in region if suit in CARDS[board[n].card].suits}
        for cards in _connected_sets(cell, suited):
            ranks = sorted(suited[n] for n in cards)
            if len(cards) >= SHORTEST_FLUSH and ranks[-1] - ranks[0] == len(cards) - 1:
                yield cards


def _connected_sets(start: Cell, ranks: dict[Cell, int]) -> Iterator[frozenset[Cell]]:
    """Every orthogonally connected set of `ranks`' cells holding `start` with no rank twice (at most 8 cards)."""
    first = frozenset((start,))
    seen, todo = {first}, [first]
    while todo:
        cards = todo.pop()
        yield cards
        held = {ranks[c] for c in cards}
        for c in cards:
            for n in sides(c):
                if n in ranks and n not in cards and ranks[n] not in held:
                    grown = cards | {n}
                    if grown not in seen:
                        seen.add(grown)
                        todo.append(grown)


def _connected(cells: frozenset[Cell]) -> bool:
    start = next(iter(cells))
    reached, todo = {start}, [start]
    while todo:
        for n in sides(todo.pop()):
            if n in cells and n not in reached:
                reached.add(n)
                todo.append(n)
    return len(reached) == len(cells)


def best_card(board: Board, owner: str) -> CardRank:
    """The rank of the highest card in any poker block `owner` controls (for a simultaneous win)."""
    best: CardRank = ()
    for cell, square in board.items():
        if controlled_by(square, owner):
            for block in blocks_through(board, cell, owner):
                best = max(best, *(card_rank(CARDS[board[c].card]) for c in block))
    return best


def highest_card_wins(board: Board, found: set[str], actor: str | None, players: tuple[str, ...]) -> tuple[str, ...]:
    """14.2: the controller of the highest card in a winning block wins, suits breaking ties (D2);
    players whose best cards are the very same card (the deck holds two) tie."""
    if len(found) == 1:
        return (next(iter(found)),)
    ranks = {p: best_card(board, p) for p in found}
    top = max(ranks.values())
    return tuple(p for p in players if p in found and ranks[p] == top)

"""Every legal move of one player, written from rules.md 5, 7 and 8 apart from `apply`.

`legal_moves` is the generator behind `python -m engine moves`, the web form's choices and the
property test that checks it against `rules.apply`: both must agree on every move.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from itertools import combinations

from .board import SIDE_STEPS, TOUCH_STEPS, controlled_by, sides
from .notation import (
    SIZE_PIPS,
    SIZES,
    Build,
    Cell,
    Choose,
    Convert,
    Demolish,
    Discard,
    Draw,
    Fly,
    Grow,
    Hatch,
    Move,
    MovePiece,
    Place,
    Spawn,
)
from .rules import movers
from .ruleset import Ruleset
from .state import State

# The order of notation.md's move table: listed moves are sorted by kind, then by their text.
KINDS = (Choose, Place, Draw, Grow, Spawn, Build, MovePiece, Demolish, Convert, Fly, Hatch, Discard)
_KIND_INDEX: dict[type, int] = {kind: i for i, kind in enumerate(KINDS)}
_GROWN = {"S": "M", "M": "L"}
_MOST_PAYMENT_CARDS = 3  # a minimal payment for a Large (3 pips) has at most three 1-pip cards


def legal_moves(state: State, colour: str) -> list[Move]:
    """Every legal move of `colour` now, canonical and sorted; none for a player not to move.

    Resigning, legal for every active player at any time (rules.md 19), is the kit's step: the game
    (engine/kit/base.py) lists it last.
    """
    if state.phase == "over" or colour not in movers(state):
        return []
    moves = _PHASES[state.phase](state, colour)
    moves.sort(key=_order)
    return moves


def more_than_draw(state: State, colour: str) -> bool:
    """Whether a turn (the "act" phase, where Draw is always legal) offers `colour` another option:
    the first move any option yields settles it, where `legal_moves` lists them all."""
    return any(next(iter(option(state, colour)), None) is not None for option in _OPTIONS)


def _order(move: Move) -> tuple[int, str]:
    return _KIND_INDEX[type(move)], str(move)


# --- geometry ---------------------------------------------------------------------------------


def _around(cell: Cell) -> Iterator[Cell]:
    """The 8 cells touching `cell` by a side or a corner."""
    x, y = cell
    return ((x + dx, y + dy) for dx, dy in TOUCH_STEPS)


def _frontier(cards: Iterable[Cell], taken: Iterable[Cell]) -> set[Cell]:
    """Cells not in `taken` that touch a side of one of `cards`: where a card may be put."""
    cells = {n for c in cards for n in sides(c)}
    return cells.difference(taken)


def _components(cells: set[Cell]) -> list[set[Cell]]:
    """The 8-connected groups of `cells` (diagonal contact counts, rules.md 1.3)."""
    unseen, groups = set(cells), []
    while unseen:
        start = unseen.pop()
        group, todo = {start}, [start]
        while todo:
            x, y = todo.pop()
            for dx, dy in TOUCH_STEPS:
                n = (x + dx, y + dy)
                if n in unseen:
                    unseen.remove(n)
                    group.add(n)
                    todo.append(n)
        groups.append(group)
    return groups


def _side_counts(board: Iterable[Cell]) -> dict[Cell, int]:
    """Each empty cell beside a card, with how many cards touch its sides."""
    cards = set(board)
    counts: dict[Cell, int] = {}
    for x, y in cards:
        for dx, dy in SIDE_STEPS:
            n = (x + dx, y + dy)
            if n not in cards:
                counts[n] = counts.get(n, 0) + 1
    return counts


# --- cards in hand ----------------------------------------------------------------------------


def _distinct(rules: Ruleset, cards: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(rules.sort(cards)))


def _number_cards(rules: Ruleset, hand: tuple[str, ...]) -> list[str]:
    return _distinct(rules, (c for c in hand if rules.cards[c].is_number))


def _payments(rules: Ruleset, hand: tuple[str, ...]) -> dict[str, list[tuple[str, ...]]]:
    """For each target size, every distinct multiset of attack cards that pays for it (rules.md 7).

    A payment is worth at least the target's pips and holds no entirely redundant card: the total
    less its smallest card must fall short. So a payment serves the needs in (total - least, total].
    """
    attack = rules.sort(c for c in hand if rules.cards[c].is_attack)
    found: dict[str, dict[tuple[str, ...], None]] = {size: {} for size in SIZES}
    for count in range(1, min(len(attack), _MOST_PAYMENT_CARDS) + 1):
        for pay in combinations(attack, count):
            pips = [rules.cards[c].pips for c in pay]
            total = sum(pips)
            for size in SIZES:
                if total - min(pips) < SIZE_PIPS[size] <= total:
                    found[size][pay] = None
    return {size: list(pays) for size, pays in found.items()}


# --- phases -----------------------------------------------------------------------------------


def _choose(state: State, colour: str) -> list[Move]:
    return [Choose(card) for card in _number_cards(state.ruleset, state.hands[colour])]


def _place(state: State, colour: str) -> list[Move]:
    return [Place(cell) for cell in _frontier(state.board, state.board)]


def _discard(state: State, colour: str) -> list[Move]:
    hand = state.ruleset.sort(state.hands[colour])
    excess = len(hand) - state.ruleset.hand_limit
    if excess <= 0:
        return []
    return [Discard(cards) for cards in dict.fromkeys(combinations(hand, excess))]


def _act(state: State, colour: str) -> list[Move]:
    moves: list[Move] = [Draw()]
    for option in _OPTIONS:
        moves.extend(option(state, colour))
    return moves


# --- the turn options (rules.md 5) ------------------------------------------------------------


def _own_pieces(state: State, colour: str) -> list[tuple[Cell, str]]:
    """Each distinct (cell, size) of `colour`'s pieces: pieces of one size on one card are alike."""
    return [
        (cell, size)
        for cell, square in state.board.items()
        for size in dict.fromkeys(s for owner, s in square.pieces if owner == colour)
    ]


def _grow(state: State, colour: str) -> Iterator[Move]:
    stash = state.stash(colour)
    for cell, size in _own_pieces(state, colour):
        if size in _GROWN and stash[_GROWN[size]] > 0:
            yield Grow(size, cell)


def _spawn(state: State, colour: str) -> Iterator[Move]:
    if state.stash(colour)["S"] > 0:
        yield from (Spawn(cell) for cell in state.occupied(colour))


def _build(state: State, colour: str) -> Iterator[Move]:
    mine = state.occupied(colour)
    if state.ruleset.build_needs_control:  # Deck Town (14.2): beside a card you control
        mine = [cell for cell in mine if controlled_by(state.board[cell], colour)]
    targets = _frontier(mine, state.board)
    for card in _number_cards(state.ruleset, state.hands[colour]):
        yield from (Build(card, cell) for cell in targets)


def _move(state: State, colour: str) -> Iterator[Move]:
    for cell, size in _own_pieces(state, colour):
        yield from (MovePiece(size, cell, dst) for dst in sides(cell) if dst in state.board)


def _attack(state: State, colour: str) -> Iterator[Move]:
    occupied = state.occupied(colour)
    in_range = set(occupied) | {n for c in occupied for n in sides(c) if n in state.board}
    targets = [(c, piece) for c in in_range for piece in dict.fromkeys(state.board[c].pieces) if piece[0] != colour]
    if not targets:
        return
    stash = state.stash(colour)
    rules = state.ruleset
    payments = _payments(rules, state.hands[colour])
    for cell, (owner, size) in targets:
        into = _replacements(rules, stash, size)
        suits = set(rules.cards[state.board[cell].card].suits)
        for pay in payments[size]:
            draws = _draw_choices(rules, pay, size)
            yield from (Demolish(owner, size, cell, pay, n) for n in draws)
            if rules.convert_same_size_on_suit_match and not all(suits.intersection(rules.cards[c].suits) for c in pay):
                continue  # Deck Town (D7): no replacement unless every paid card shares a suit with the card
            yield from (Convert(owner, size, cell, r, pay, n) for r in into for n in draws)


def _draw_choices(rules: Ruleset, pay: tuple[str, ...], size: str) -> tuple[int | None, ...]:
    """The whole change (None), and in Deck Town each smaller number of change cards down to none (D9)."""
    change = sum(rules.cards[c].pips for c in pay) - SIZE_PIPS[size]
    return (None, *range(change)) if rules.optional_change else (None,)


def _replacements(rules: Ruleset, stash: Counter[str], size: str) -> list[str]:
    """Zark City converts into the same size or smaller (rules.md 5.6); Deck Town into the same size (D4)."""
    sizes = (size,) if rules.convert_same_size_on_suit_match else SIZES[: SIZES.index(size) + 1]
    return [r for r in sizes if stash[r] > 0]


def _fly(state: State, colour: str) -> Iterator[Move]:
    aces = _distinct(state.ruleset, (c for c in state.hands[colour] if state.ruleset.cards[c].is_ace))
    if not aces:
        return
    touching = _side_counts(state.board)
    for src in state.occupied(colour):
        for dst in _landings(state, touching, src):
            yield from (Fly(src, dst, ace) for ace in aces)


def _landings(state: State, touching: dict[Cell, int], src: Cell) -> set[Cell]:
    """Where the card at `src` may land (rules.md 8): touching a side, leaving the board 8-connected.

    One BFS of the board without `src`; if that falls apart, the landing must touch every part.
    """
    # Empty cells beside a card, less those whose only card beside them is the one that flies.
    landings = set(touching).difference(n for n in sides(src) if touching.get(n) == 1)
    rest = set(state.board)
    rest.remove(src)
    groups = _components(rest)
    if len(groups) > 1:
        for group in groups:
            landings.intersection_update(n for c in group for n in _around(c))
    return landings


def _hatch(state: State, colour: str) -> Iterator[Move]:
    if state.occupied(colour):
        return
    targets = _frontier(state.board, state.board)
    for card in _number_cards(state.ruleset, state.hands[colour]):
        yield from (Hatch(card, cell) for cell in targets)


_OPTIONS: tuple[Callable[[State, str], Iterable[Move]], ...] = (
    _grow,
    _spawn,
    _build,
    _move,
    _attack,
    _fly,
    _hatch,
)
_PHASES: dict[str, Callable[[State, str], list[Move]]] = {
    "choose": _choose,
    "place": _place,
    "act": _act,
    "discard": _discard,
    "over": lambda state, colour: [],
}

"""What the Zark City family's bots know about a position: the winning sets on the board, how near
each player is to one, which moves win at once, and a cheap score for each move.

A "goal" is a set of board cards whose sole control wins: a Power Block in Zark City (rules.md 1.5),
three of a kind or a straight flush of four in Deck Town (14.2). Goals depend only on where the cards
lie, so they are cached by the cards' layout, which most moves leave alone.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from ..zarkcity.board import TROMINOES, controlled_by, sides
from ..zarkcity.cards import CardInfo
from ..zarkcity.movegen import legal_moves
from ..zarkcity.notation import (
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
from ..zarkcity.rules import apply
from ..zarkcity.ruleset import Ruleset
from ..zarkcity.state import Square, State

# Weights of the position score (tuned against the greedy and random bots with the arena).
CONTROL, SHARED, EMPTY_CARD = 1.0, 0.4, 0.25
REACH = 0.6  # an empty goal card beside a piece that can step onto it without giving up anything
SECOND_GOAL = 0.5  # a second goal in reach makes a double threat
OPEN_GOAL = 0.8  # two controlled cards and a card in hand to build the third
PIECE, PIECE_CAP = 0.03, 5
PIP, PIP_CAP = 0.045, 6
ACE = 0.05
ROOM_TO_BUILD = 0.15
NUMBER, NUMBER_CAP = 0.025, 3
SHARPNESS = 6.0  # how fast a lead in score turns into a sure win


@dataclass(frozen=True, slots=True)
class Layout:
    """The goals of one arrangement of cards, and the open goals: two cards and an empty cell a hand
    card would complete."""

    goals: tuple[tuple[Cell, ...], ...]
    by_cell: Mapping[Cell, tuple[int, ...]]  # cell -> the goals holding it
    open_goals: tuple[tuple[Cell, Cell, Cell, frozenset[str]], ...]  # two cards, the empty cell, completions


def layout(state: State) -> Layout:
    seen = _BY_BOARD.get(id(state.board))
    if seen is not None and seen[0] is state.board:
        return seen[1]
    key = frozenset((cell, square.card) for cell, square in state.board.items())
    found = _layout(key, state.ruleset)
    if len(_BY_BOARD) > 20000:
        _BY_BOARD.clear()
    _BY_BOARD[id(state.board)] = (state.board, found)
    return found


# id(board) -> (that board, its layout): a board is never changed once made, so its object tells.
# The board itself is held so its id cannot be reused while the entry lives.
_BY_BOARD: dict[int, tuple[Mapping[Cell, Square], Layout]] = {}


@lru_cache(maxsize=4096)
def _layout(cards: frozenset[tuple[Cell, str]], rules: Ruleset) -> Layout:
    board = dict(cards)
    goals = _trominoes(board, rules) + (_flushes(board, rules) if rules.game == "decktown" else ())
    by_cell: dict[Cell, list[int]] = {}
    for index, goal in enumerate(goals):
        for cell in goal:
            by_cell.setdefault(cell, []).append(index)
    return Layout(goals, {c: tuple(g) for c, g in by_cell.items()}, _open_goals(board, rules))


def _through_origin() -> tuple[tuple[Cell, Cell], ...]:
    """Every tromino placement covering (0, 0), as the offsets of its two other cells (18 of them)."""
    found = []
    for shape in TROMINOES:
        for ox, oy in shape:
            a, b = ((x - ox, y - oy) for x, y in shape if (x, y) != (ox, oy))
            found.append((a, b))
    return tuple(found)


_THROUGH_ORIGIN = _through_origin()


def _placements(cells: Iterable[Cell]) -> set[tuple[Cell, Cell, Cell]]:
    """Every tromino placement touching one of `cells`, as sorted cell triples."""
    found = set()
    for x, y in cells:
        for shape in TROMINOES:
            for ox, oy in shape:
                placed = tuple(sorted((x + sx - ox, y + sy - oy) for sx, sy in shape))
                found.add((placed[0], placed[1], placed[2]))
    return found


def _trominoes(board: dict[Cell, str], rules: Ruleset) -> tuple[tuple[Cell, ...], ...]:
    """Three cards in a tromino that win: a Power Block, or a Deck Town three of a kind."""
    wins = _kind_only if rules.game == "decktown" else _power
    return tuple(
        sorted(trio for trio in _placements(board) if all(c in board for c in trio) and wins(rules, board, trio))
    )


def _power(rules: Ruleset, board: dict[Cell, str], trio: tuple[Cell, ...]) -> bool:
    return _is_power(rules, [board[c] for c in trio])


def _is_power(rules: Ruleset, cards: list[str]) -> bool:
    a, b, c = (rules.cards[card] for card in cards)
    if a.rank == b.rank == c.rank:
        return True
    if a.suit is None or not a.suit == b.suit == c.suit:
        return False
    low, mid, high = sorted((a.number, b.number, c.number))
    return low > 0 and mid == low + 1 and high == mid + 1


def _kind_only(rules: Ruleset, board: dict[Cell, str], trio: tuple[Cell, ...]) -> bool:
    return _is_kind(rules, [board[c] for c in trio])


def _is_kind(rules: Ruleset, cards: list[str]) -> bool:
    infos = [rules.cards[card] for card in cards]
    if infos[0].number == 0 or len({i.number for i in infos}) != 1:
        return False
    return all(not set(a.suits) & set(b.suits) for a, b in combinations(infos, 2))


def _flushes(board: dict[Cell, str], rules: Ruleset) -> tuple[tuple[Cell, ...], ...]:
    """Deck Town: connected sets of four cards sharing a suit with four consecutive ranks."""
    found: set[tuple[Cell, ...]] = set()
    for cell, code in board.items():
        info = rules.cards[code]
        for suit in info.suits if info.number else ():
            _grow_flush(board, rules, suit, (cell,), found)
    return tuple(sorted(found))


def _grow_flush(
    board: dict[Cell, str], rules: Ruleset, suit: str, cells: tuple[Cell, ...], found: set[tuple[Cell, ...]]
) -> None:
    ranks = [rules.cards[board[c]].number for c in cells]
    if max(ranks) - min(ranks) > 3:
        return
    if len(cells) == 4:
        found.add(tuple(sorted(cells)))
        return
    for c in cells:
        for n in sides(c):
            card = board.get(n)
            if card is None or n in cells:
                continue
            info = rules.cards[card]
            if info.number and suit in info.suits and info.number not in ranks and n > cells[0]:
                _grow_flush(board, rules, suit, (*cells, n), found)


def _open_goals(board: dict[Cell, str], rules: Ruleset) -> tuple[tuple[Cell, Cell, Cell, frozenset[str]], ...]:
    """Two cards in a tromino with an empty cell: the hand cards that would make it a goal."""
    completing = _completions(rules)
    found = []
    for trio in _placements(board):
        empty = [c for c in trio if c not in board]
        if len(empty) != 1:
            continue
        a, b = (c for c in trio if c in board)
        if not any(n in board for n in sides(empty[0])):
            continue
        cards = completing.get(_pair(board[a], board[b]), frozenset())
        if cards:
            found.append((a, b, empty[0], cards))
    return tuple(sorted(found, key=lambda g: (g[0], g[1], g[2])))


@lru_cache(maxsize=4)
def _completions(rules: Ruleset) -> dict[tuple[str, str], frozenset[str]]:
    """For each pair of number cards, the cards that would make them a winning three."""
    numbers = sorted(code for code, info in rules.cards.items() if info.number)
    wins = _is_kind if rules.game == "decktown" else _is_power
    table: dict[tuple[str, str], frozenset[str]] = {}
    for a, b in combinations(numbers, 2):
        table[_pair(a, b)] = frozenset(c for c in numbers if wins(rules, [a, b, c]))
    for a in numbers:  # two copies of one card (jokerless duplicates in Deck Town, or multiple decks)
        table[(a, a)] = frozenset(c for c in numbers if wins(rules, [a, a, c]))
    return {pair: cards for pair, cards in table.items() if cards}


# --- how near each player is ------------------------------------------------------------------


def _cell_credit(square: Square, colour: str) -> float:
    if not square.pieces:
        return EMPTY_CARD
    if controlled_by(square, colour):
        return CONTROL
    return SHARED if any(owner == colour for owner, _ in square.pieces) else 0.0


def goal_progress(state: State, shape: Layout, colour: str) -> list[float]:
    """Each goal's progress for `colour`, 0 to 1 (1: controlled whole)."""
    board = state.board
    return [sum(_goal_credit(board, c, colour, goal) for c in goal) / len(goal) for goal in shape.goals]


def _goal_credit(board: Mapping[Cell, Square], cell: Cell, colour: str, goal: tuple[Cell, ...]) -> float:
    """A card's credit within one goal: an empty card counts for more when a piece of `colour` can
    step onto it next turn, from a card it holds twice or from outside the goal."""
    square = board[cell]
    if square.pieces:
        return _cell_credit(square, colour)
    for n in sides(cell):
        near = board.get(n)
        if near is None:
            continue
        mine = sum(1 for owner, _ in near.pieces if owner == colour)
        if mine > 1 or (mine == 1 and n not in goal):
            return REACH
    return EMPTY_CARD


def score(state: State, colour: str, shape: Layout | None = None) -> float:
    """How well placed `colour` is: the nearest goals (cubed, so near-complete ones dominate), open
    goals its hand can complete, pieces on the board, and the cards it holds for attacks and flights."""
    shape = shape or layout(state)
    progress = sorted((p**3 for p in goal_progress(state, shape, colour)), reverse=True)
    hand = state.hands.get(colour, ())
    progress += _open_progress(state, shape, colour, hand)
    progress.sort(reverse=True)
    total = (progress[0] if progress else 0.0) + SECOND_GOAL * (progress[1] if len(progress) > 1 else 0.0)
    return total + _material(state, colour, hand)


def _open_progress(state: State, shape: Layout, colour: str, hand: tuple[str, ...]) -> list[float]:
    if not hand:
        return []
    held = set(hand)
    board = state.board
    found = []
    for a, b, _, cards in shape.open_goals:
        if held & cards:
            credit = (_cell_credit(board[a], colour) + _cell_credit(board[b], colour) + EMPTY_CARD) / 3
            found.append(OPEN_GOAL * credit**3)
    return found


def _material(state: State, colour: str, hand: tuple[str, ...]) -> float:
    pieces = sum(1 for square in state.board.values() for owner, _ in square.pieces if owner == colour)
    return PIECE * min(pieces, PIECE_CAP) + _hand_material(state.ruleset, hand) + _room_to_build(state, colour, hand)


def _room_to_build(state: State, colour: str, hand: tuple[str, ...]) -> float:
    """A number card in hand and a card to build it beside (one `colour` controls in Deck Town, occupies
    in Zark City, with an empty side): without it a player can only shuffle pieces, so it is worth
    an attack to win control of a card."""
    cards = state.ruleset.cards
    if not any(cards[c].is_number for c in hand):
        return 0.0
    needs_control = state.ruleset.build_needs_control
    for cell, square in state.board.items():
        mine = controlled_by(square, colour) if needs_control else any(o == colour for o, _ in square.pieces)
        if mine and any(side not in state.board for side in sides(cell)):
            return ROOM_TO_BUILD
    return 0.0


@lru_cache(maxsize=8192)
def _hand_material(rules: Ruleset, hand: tuple[str, ...]) -> float:
    """The hand's part of the material score; hands recur through a search, so it is kept."""
    cards = rules.cards
    pips = sum(cards[c].pips for c in hand)
    aces = any(cards[c].is_ace for c in hand)
    numbers = sum(1 for c in hand if cards[c].is_number)
    return PIP * min(pips, PIP_CAP) + ACE * aces + NUMBER * min(numbers, NUMBER_CAP)


def values(state: State) -> dict[str, float]:
    """Each player's chance of winning from here, 0 to 1, from the scores (1 or 0 once the game is over)."""
    players = state.active_players() if state.phase != "over" else state.players
    if state.phase == "over":
        won = set(state.tied) | ({state.winner} if state.winner else set())
        return {p: (1.0 / len(won) if p in won else 0.0) for p in state.players}
    shape = layout(state)
    scores = {p: score(state, p, shape) for p in players}
    found = {}
    for p in state.players:
        if p not in scores:
            found[p] = 0.0
            continue
        best_other = max((s for q, s in scores.items() if q != p), default=0.0)
        found[p] = _logistic(SHARPNESS * (scores[p] - best_other))
    return found


def _logistic(x: float) -> float:
    if x < -30:
        return 0.0
    if x > 30:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


# --- moves that end the game ------------------------------------------------------------------

_CAN_WIN = (MovePiece, Convert, Demolish, Fly)  # rules.md 5.9: only these options can complete a block


def could_win_now(state: State, colour: str, shape: Layout | None = None) -> bool:
    """Cheap necessary condition for `colour` to have a winning move: a goal one card short of
    control, or three controlled cards and an ace to fly one."""
    shape = shape or layout(state)
    board = state.board
    for goal in shape.goals:
        short = sum(1 for c in goal if not controlled_by(board[c], colour))
        if short <= 1:
            return True
    hand = state.hands.get(colour, ())
    if any(state.ruleset.cards[c].is_ace for c in hand):
        return sum(1 for square in board.values() if controlled_by(square, colour)) >= 3
    return False


def winning_moves(state: State, colour: str, moves: Iterable[Move]) -> list[Move]:
    """The moves among `moves` after which `colour` has won."""
    found: list[Move] = []
    for move in moves:
        if isinstance(move, _CAN_WIN):
            after = apply(state, move, colour)
            if after.phase == "over" and after.winner == colour:
                found.append(move)
    return found


def as_their_turn(state: State, colour: str) -> State:
    """`state` with `colour` to take a Turn Option now: for asking what they could do next."""
    return state.evolve(phase="act", to_move=colour, pending=())


def threatened(state: State, me: str) -> bool:
    """Whether some opponent, given the move now, could win at once (judged in this deal of the cards)."""
    if state.phase == "over":
        return False
    shape = layout(state)
    for rival in state.active_players():
        if rival == me or not could_win_now(state, rival, shape):
            continue
        turn = as_their_turn(state, rival)
        if winning_moves(turn, rival, legal_moves(turn, rival)):
            return True
    return False


# --- a cheap score for each move, without playing it ------------------------------------------


def move_prior(state: State, colour: str, move: Move, shape: Layout) -> float:
    """A quick guess at how good `move` is for `colour` (higher is better), from the goals it touches."""
    if isinstance(move, MovePiece):
        return _enter(state, shape, colour, move.dst, 0) - _leave(state, shape, colour, move.src, move.size)
    if isinstance(move, Convert):
        return _enter(state, shape, colour, move.at, 1) + _hurt(state, shape, move.owner, move.at) - 0.05
    if isinstance(move, Demolish):
        return _hurt(state, shape, move.owner, move.at) - 0.1
    if isinstance(move, (Build, Hatch)):
        return _build_gain(state, shape, colour, move.card, move.at) + (0.2 if isinstance(move, Hatch) else 0.0)
    if isinstance(move, Spawn):
        return 0.12 + 0.3 * _goal_share(state, shape, colour, move.at)
    if isinstance(move, Grow):
        return 0.08 + 0.05 * (move.size == "S")
    if isinstance(move, Draw):
        return 0.25 - 0.04 * len(state.hands.get(colour, ()))
    if isinstance(move, Fly):
        return 0.05
    if isinstance(move, Discard):
        return -sum(card_keep_value(state, colour, c) for c in move.cards)
    if isinstance(move, Choose):
        return state.ruleset.cards[move.card].number / 20
    if isinstance(move, Place):
        return 0.0
    return -1.0


def _best_goal(state: State, shape: Layout, colour: str, cell: Cell, gained: bool) -> float:
    """The best progress (cubed) of a goal holding `cell`, counting `cell` as controlled or not."""
    board = state.board
    best = 0.0
    for index in shape.by_cell.get(cell, ()):
        goal = shape.goals[index]
        credit = sum(CONTROL if c == cell and gained else _cell_credit(board[c], colour) for c in goal)
        best = max(best, (credit / len(goal)) ** 3)
    return best


def _enter(state: State, shape: Layout, colour: str, cell: Cell, removed: int) -> float:
    """What arriving on `cell` is worth: control of it when nobody else stays there, else breaking
    the control of the player who held it alone."""
    square = state.board[cell]
    others = sum(1 for owner, _ in square.pieces if owner != colour) - removed
    if others > 0:
        holder = square.pieces[0][0]
        return 0.02 + (_hurt(state, shape, holder, cell) if controlled_by(square, holder) else 0.0)
    return _best_goal(state, shape, colour, cell, True) - _best_goal(state, shape, colour, cell, False) + 0.03


def _leave(state: State, shape: Layout, colour: str, cell: Cell, size: str) -> float:
    square = state.board[cell]
    mine = sum(1 for owner, _ in square.pieces if owner == colour)
    if mine > 1:
        return 0.0
    return _best_goal(state, shape, colour, cell, False) - _best_goal(state, shape, colour, cell, False) * 0.2


def _hurt(state: State, shape: Layout, owner: str, cell: Cell) -> float:
    """What removing a piece of `owner` from `cell` takes from them."""
    square = state.board[cell]
    if not controlled_by(square, owner):
        return 0.05
    return 1.5 * _best_goal(state, shape, owner, cell, True)


def _goal_share(state: State, shape: Layout, colour: str, cell: Cell) -> float:
    return _best_goal(state, shape, colour, cell, False)


def _build_gain(state: State, shape: Layout, colour: str, card: str, at: Cell) -> float:
    """Goals the new card makes with cards around it, weighted by how much of them `colour` holds."""
    board = state.board
    table = _completions(state.ruleset)
    x, y = at
    best = 0.0
    for (ax, ay), (bx, by) in _THROUGH_ORIGIN:
        a = board.get((x + ax, y + ay))
        if a is None:
            continue
        b = board.get((x + bx, y + by))
        if b is None or card not in table.get(_pair(a.card, b.card), ()):
            continue
        credit = (EMPTY_CARD + _cell_credit(a, colour) + _cell_credit(b, colour)) / 3
        best = max(best, credit**3)
    return best + 0.02


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def best_move(state: State, colour: str, moves: list[Move]) -> Move:
    """The move with the best `move_prior`; for discards (often dozens of combinations of a few
    cards) each card is valued once."""
    discards = [move for move in moves if isinstance(move, Discard)]
    if discards and len(discards) == len(moves):
        keep = {card: card_keep_value(state, colour, card) for card in state.hands.get(colour, ())}
        return max(discards, key=lambda m: -sum(keep[c] for c in m.cards))
    shape = layout(state)
    return max(moves, key=lambda m: move_prior(state, colour, m, shape))


def card_keep_value(state: State, colour: str, card: str) -> float:
    """How much a card in hand is worth keeping: attack pips, an ace, a number card completing an open goal."""
    info: CardInfo = state.ruleset.cards[card]
    if info.is_ace:
        return 0.35 if state.ruleset.game == "decktown" else 0.4
    if info.is_attack:
        return 0.15 * info.pips
    shape = layout(state)
    for a, b, _, cards in shape.open_goals:
        if card in cards and (_cell_credit(state.board[a], colour) + _cell_credit(state.board[b], colour)) >= 1:
            return 0.6
    return 0.1

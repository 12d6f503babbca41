"""The bots' plug-in evaluation (engine/bots/kit.py `Evaluate`): how near each seat is to a goal-line.

A seat's distance is the fewest points that would bring its three pieces onto one counting goal-line
on an open board: a piece pays its pips a cell (a diagonal step costs two orthogonal ones, so the
cells between are counted as a grid walk), a piece in the supply its pips more to enter; a goal cell
held by another's larger piece costs `BLOCKED` more, since only that piece's owner can clear it. What
a seat may do with its next turn shortens its own distance or, by a capture, lengthens another's: the
seat to move has its points left, the others a throw still to come. The lead over the nearest rival,
in points, becomes a chance of winning through a logistic curve. It reads only the board, the turn
and the points, which every seat sees (Pharaoh hides nothing but future throws and the seed).
"""

from __future__ import annotations

import math
from functools import cache
from itertools import permutations
from typing import Any

from .board import PIPS, edge_cells, goal_lines, xy
from .rules import FACES
from .state import State

BLOCKED = 4  # points a goal cell held by a rival's larger piece costs beyond the walk (it must leave first)
SCALE = 4.0  # points of lead that make the chance of winning e:1 (about one throw: 3.5 points on average)

Where = str | None  # a cell, or None for the supply


def walk(start: str, end: str) -> int:
    """Cells of a grid walk from `start` to `end` (no corner is ever needed on the way)."""
    (x1, y1), (x2, y2) = xy(start), xy(end)
    return abs(x1 - x2) + abs(y1 - y2)


@cache
def reach(size: str, where: Where, cell: str, edge: tuple[str, ...]) -> int:
    """Points a piece of `size` needs to reach `cell` on an open board, from `where` (None: entering on `edge`)."""
    if where is None:
        return PIPS[size] * (1 + min(walk(start, cell) for start in edge))
    return PIPS[size] * walk(where, cell)


def places(state: State, seat: str) -> dict[str, Where]:
    """Each of `seat`'s sizes -> its cell, or None while it is in the supply."""
    found: dict[str, Where] = {size: None for size in PIPS}
    found.update({piece.size: cell for cell, piece in state.board if piece.colour == seat})
    return found


def distance(state: State, seat: str, pieces: dict[str, Where] | None = None) -> int:
    """The fewest points that line up `seat`'s pieces (`pieces`, or where they stand) on a counting goal-line."""
    pieces = places(state, seat) if pieces is None else pieces
    edge = edge_cells(state.players, seat)
    return min(
        sum(_cost(state, seat, size, pieces[size], cell, edge) for size, cell in zip(order, line, strict=True))
        for line in goal_lines(len(state.players))
        for order in permutations(PIPS)
    )


def _cost(state: State, seat: str, size: str, where: Where, cell: str, edge: tuple[str, ...]) -> int:
    there = state.at(cell)
    blocked = there is not None and there.colour != seat and PIPS[there.size] > PIPS[size]
    return reach(size, where, cell, edge) + (BLOCKED if blocked else 0)


def captures(state: State, seat: str) -> list[tuple[int, int]]:
    """(points, harm) of each rival piece `seat` could capture on an open board: what its cheapest piece
    large enough pays to reach it, and how much further the victim's owner then is from a goal-line."""
    mine = places(state, seat)
    edge = edge_cells(state.players, seat)
    found = []
    for cell, victim in state.board:
        prices = [reach(size, where, cell, edge) for size, where in mine.items() if PIPS[size] >= PIPS[victim.size]]
        if victim.colour == seat or not prices:
            continue
        theirs = places(state, victim.colour)
        harm = distance(state, victim.colour, {**theirs, victim.size: None}) - distance(state, victim.colour, theirs)
        found.append((min(prices), harm))
    return found


def turn_worth(points: int, own: int, within: list[tuple[int, int]]) -> int:
    """What `points` are worth in a turn to a seat `own` points from a goal-line with the captures
    `within` its reach: its distance shortened, or the harm of the worst capture they pay for. (Counting
    the capturing piece's own progress and the points left after it too made the bot weaker: in a
    first head-to-head of 8 games that version won 2.)"""
    harm = max((harm for price, harm in within if price <= points), default=0)
    return max(min(points, own), harm)


def next_turn(state: State, seat: str, own: int) -> float:
    """What `seat`'s next turn is worth: the points it has left when it is to move, else a throw's mean."""
    within = captures(state, seat)
    if seat == state.to_move:
        return turn_worth(state.points, own, within)
    return sum(turn_worth(face, own, within) for face in FACES) / len(FACES)


def evaluate(state: Any, seat: str) -> float:
    """`seat`'s chance of winning, 0 to 1: its lead over the nearest rival, in points, through a logistic."""
    if state.over:
        return 1.0 if state.winner == seat else 0.0
    seated = state.active_players()
    if seat not in seated:
        return 0.0
    left = {player: _left(state, player) for player in seated}
    lead = min(left[other] for other in seated if other != seat) - left[seat]
    return 1 / (1 + math.exp(-lead / SCALE))


def _left(state: State, seat: str) -> float:
    """`seat`'s distance less what its next turn is worth."""
    own = distance(state, seat)
    return own - next_turn(state, seat, own)

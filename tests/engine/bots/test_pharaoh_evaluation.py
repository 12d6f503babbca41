"""Pharaoh's evaluation, the kit MCTS's plug-in (engine/pharaoh/bots.py): it prefers clearly better
positions, it is the same for either seat of a mirrored board, and it reads only what every seat sees."""

from __future__ import annotations

import pytest

from engine.bots import bot_factory, declared, mcts_iterations
from engine.bots.kit import Mcts
from engine.kit.core import Hidden
from engine.pharaoh.bots import distance, evaluate
from engine.pharaoh.game import GAME
from engine.pharaoh.position import from_position
from engine.pharaoh.state import State


def pos(board: dict[str, str], *, to_move: str = "red", points: int = 3, **more: object) -> State:
    """A two-player position (red south, blue north): `board` maps cells to "colour:size"."""
    data = {
        "format": "pharaoh-position/1",
        "game": "pharaoh",
        "players": ["red", "blue"],
        "first_player": "red",
        "to_move": to_move,
        "throw": 6,
        "points": points,
        "board": board,
        "dice": 7,
        "resigned": [],
        "winner": None,
        "reason": None,
        "seed": "evaluation",
    }
    return from_position(data | more)


BLUE_HALFWAY = {"b4": "blue:S", "c4": "blue:M"}


# (rule, red's better position, red's worse one)
PREFERS = [
    ("a piece on the goal-line beats one on the edge", {"c3": "red:L"}, {"c1": "red:L"}),
    ("two on the goal-line beat one", {"b3": "red:S", "c3": "red:L"}, {"b3": "red:S", "c1": "red:L"}),
    ("a piece on the board beats one in the supply", {"c2": "red:M"}, {}),
    (
        "a rival piece captured (back in its supply) is material won",
        {"c3": "red:L", "b3": "blue:S"},
        {"c3": "red:L", "b3": "blue:S", "d3": "blue:M"},
    ),
    # red's L as near the goal either way; blue's L (its only piece large enough) reaches b3 for 3
    # points, d3 for 9 (more than a throw)
    (
        "a piece out of a larger rival's reach is safer",
        {"d3": "red:L", "b4": "blue:L"},
        {"b3": "red:L", "b4": "blue:L"},
    ),
    # red has 3 points: blue's M on the row is one orthogonal step of red's L away, on d4 a diagonal (6)
    (
        "a capture within the points left outweighs the rival's progress",
        {"c3": "red:L", "d3": "blue:M"},
        {"c3": "red:L", "d4": "blue:M"},
    ),
]


@pytest.mark.parametrize(("rule", "better", "worse"), PREFERS, ids=[row[0] for row in PREFERS])
def test_it_prefers_the_clearly_better_position(rule: str, better: dict[str, str], worse: dict[str, str]) -> None:
    assert evaluate(pos(better), "red") > evaluate(pos(worse), "red")


def test_points_left_to_spend_are_worth_having() -> None:
    board = {"b3": "red:S", "c2": "red:L", **BLUE_HALFWAY}
    assert evaluate(pos(board, points=6), "red") > evaluate(pos(board, points=1), "red")


def test_a_lead_of_more_than_a_whole_turn_is_a_likely_win() -> None:
    near = {"b3": "red:S", "c3": "red:L", "d2": "red:M"}
    assert evaluate(pos(near, to_move="blue"), "red") > 0.8


def test_the_end_of_the_game_is_certain() -> None:
    won = pos({"b3": "red:S", "c3": "red:L", "d3": "red:M"}, to_move=None, winner="red", reason="goal-line")
    assert (evaluate(won, "red"), evaluate(won, "blue")) == (1.0, 0.0)
    assert evaluate(pos({"c3": "blue:L"}).evolve(resigned=("blue",)), "blue") == 0.0  # a seat that left


def test_distance_counts_points_to_the_row() -> None:
    """From the supply: S 1 + 2 (b1 to b3), M 2 x 3, L 3 x 3; the three on the row need nothing."""
    assert distance(pos({}), "red") == 3 + 6 + 9
    assert distance(pos({"b3": "red:S", "c3": "red:L", "d3": "blue:S"}), "red") == 2 * 3  # M enters c1, walks 2
    blocked = pos({"b3": "red:S", "c3": "red:L", "d3": "blue:L", "d2": "red:M"})
    assert distance(blocked, "red") > 2  # the M is one step away, but blue's L stands there


def mirrored(state: State) -> State:
    """The same position with the seats' roles swapped: ranks flipped (south <-> north), red <-> blue."""
    other = {"red": "blue", "blue": "red"}
    board = {f"{cell[0]}{6 - int(cell[1])}": f"{other[p.colour]}:{p.size}" for cell, p in state.board}
    return pos(board, to_move=other[state.to_move or "red"], points=state.points)


SEEN = [
    {},
    {"c3": "red:L"},
    {"b3": "red:S", "c3": "red:L", "d4": "blue:M", "b4": "blue:L"},
    {"b2": "red:M", "c2": "red:S", "d1": "red:L", "c4": "blue:S", "d3": "blue:L", "b5": "blue:M"},
]


@pytest.mark.parametrize("board", SEEN)
@pytest.mark.parametrize("to_move", ["red", "blue"])
def test_the_seats_are_symmetric(board: dict[str, str], to_move: str) -> None:
    """Two seats' chances add up to one, and the mirrored board gives the other seat the same chance."""
    state = pos(board, to_move=to_move, points=4)
    assert evaluate(state, "red") + evaluate(state, "blue") == pytest.approx(1.0)
    assert evaluate(mirrored(state), "blue") == pytest.approx(evaluate(state, "red"))


@pytest.mark.parametrize("board", SEEN)
def test_it_reads_only_what_every_seat_sees(board: dict[str, str]) -> None:
    """Pharaoh hides nothing but the seed (future throws): another seed leaves every value unchanged."""
    assert not isinstance(GAME, Hidden)
    state = pos(board)
    for seat in ("red", "blue"):
        assert evaluate(GAME.reseed(state, "another"), seat) == evaluate(state, seat)


def test_the_package_plugs_it_into_the_kit_mcts() -> None:
    search = declared("pharaoh")["mcts"]
    assert isinstance(search, Mcts) and search.evaluate is evaluate
    assert mcts_iterations("pharaoh") == search.iterations


def test_the_mcts_bot_takes_the_winning_step() -> None:
    state = pos({"b3": "red:S", "c3": "red:L", "d2": "red:M", "d4": "blue:L"}, points=2)
    move = bot_factory("pharaoh", "mcts")("win", effort=0.2).choose(GAME, state, "red")
    assert str(move) == "d2-d3"

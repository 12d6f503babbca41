"""Power Blocks and the win (rules.md 1.5, 5.9, 9): shapes, who wins, and the active player's double win."""

from __future__ import annotations

import re

import pytest

from engine.errors import IllegalMoveError
from engine.zarkcity.board import is_power_block
from engine.zarkcity.rules import winners
from tests.engine.helpers import make_state, play


@pytest.mark.parametrize(
    ("cards", "power"),
    [
        pytest.param(("7H", "7C", "7S"), True, id="three-of-a-kind"),
        pytest.param(("7H", "7H", "7H"), True, id="three-of-a-kind-duplicate-cards-A28"),
        pytest.param(("9H", "7H", "8H"), True, id="suited-run-any-order"),
        pytest.param(("2D", "3D", "4D"), True, id="suited-run-lowest"),
        pytest.param(("10S", "8S", "9S"), True, id="suited-run-highest-8-9-10"),
        pytest.param(("7H", "8C", "9H"), False, id="run-needs-one-suit"),
        pytest.param(("2H", "4H", "6H"), False, id="run-needs-consecutive-numbers"),
        pytest.param(("7H", "7C", "8H"), False, id="pair-is-not-enough"),
        pytest.param(("7H", "8H", "10H"), False, id="run-with-a-gap"),
    ],
)
def test_power_block(cards, power):
    assert is_power_block(*cards) is power


def red_controls(*cells, cards=("7H", "7C", "7S"), extra=None):
    board = {cell: (card, "red:S") for cell, card in zip(cells, cards, strict=True)}
    board.update(extra or {})
    return make_state(board)


@pytest.mark.parametrize(
    ("cells", "extra", "won"),
    [
        pytest.param(((0, 0), (1, 0), (2, 0)), None, {"red"}, id="straight-line-row"),
        pytest.param(((0, 0), (0, 1), (0, 2)), None, {"red"}, id="straight-line-column"),
        pytest.param(((0, 0), (1, 0), (0, 1)), None, {"red"}, id="l-shape-corner-top-left"),
        pytest.param(((0, 0), (1, 0), (1, 1)), None, {"red"}, id="l-shape-corner-top-right"),
        pytest.param(((0, 0), (0, 1), (1, 1)), None, {"red"}, id="l-shape-corner-bottom-left"),
        pytest.param(((1, 0), (0, 1), (1, 1)), None, {"red"}, id="l-shape-with-empty-bounding-corner"),
        pytest.param(((0, 0), (1, 1), (2, 2)), {(1, 0): "2C", (2, 1): "3C"}, set(), id="diagonal-line-no-win"),
        pytest.param(((0, 0), (1, 0), (3, 0)), {(2, 0): "2C"}, set(), id="non-adjacent-cards-no-win"),
        pytest.param(((0, 0), (1, 0), (2, 0)), {(0, 1): ("2C", "red:M")}, {"red"}, id="larger-region-contains-block"),
    ],
)  # fmt: skip
def test_block_shapes(cells, extra, won):
    assert winners(red_controls(*cells, extra=extra)) == won


def test_shared_card_is_occupied_not_controlled():
    state = red_controls((0, 0), (1, 0), extra={(2, 0): ("7S", "red:S blue:S")}, cards=("7H", "7C"))
    assert winners(state) == set()


def test_empty_card_is_controlled_by_nobody():
    assert winners(red_controls((0, 0), (1, 0), extra={(2, 0): "7S"}, cards=("7H", "7C"))) == set()


# --- who wins after a Turn Option (rules.md 5.9, A12) ---------------------------------------------


def over(state, winner):
    assert (state.phase, state.to_move, state.pending) == ("over", None, ())
    assert (state.winner, state.reason) == (winner, "power block")


def test_move_completes_a_block():
    state = make_state({(0, 0): ("7H", "red:S"), (1, 0): ("7C", "red:S"), (2, 0): "7S", (2, 1): ("2D", "red:S")})
    over(play(state, "red: move S 2,1 2,0"), "red")


def test_move_vacating_gives_other_player_win():
    state = make_state(
        {(0, 0): ("7H", "red:S blue:S"), (1, 0): ("7C", "blue:S"), (2, 0): ("7S", "blue:M"), (0, 1): "2D"}
    )
    over(play(state, "red: move S 0,0 0,1"), "blue")


def test_double_win_goes_to_active():
    state = make_state(
        {
            (0, 0): ("7H", "red:S blue:S"),
            (1, 0): ("7C", "blue:S"),
            (2, 0): ("7S", "blue:M"),
            (-1, 0): "8D",
            (-1, 1): ("9D", "red:S"),
            (-1, 2): ("10D", "red:M"),
        }
    )
    over(play(state, "red: move S 0,0 -1,0"), "red")


def test_demolish_hands_win_to_third_player():
    state = make_state(
        {
            (0, 0): ("7H", "blue:S green:S"),
            (1, 0): ("7C", "green:S"),
            (2, 0): ("7S", "green:M"),
            (0, 1): ("2D", "red:S"),
        },
        {"red": ("JD",)},
        players=("red", "blue", "green"),
    )
    over(play(state, "red: demolish blue S 0,0 pay JD"), "green")


def test_convert_wins_for_the_attacker():
    state = make_state({(0, 0): ("7H", "blue:S"), (1, 0): ("7C", "red:S"), (2, 0): ("7S", "red:S")}, {"red": ("JD",)})
    over(play(state, "red: convert blue S 0,0 into S pay JD"), "red")


def test_fly_wins_for_the_flier():
    state = make_state({(0, 0): ("7H", "red:S"), (1, 0): ("7C", "red:S"), (0, 1): ("7S", "red:M")}, {"red": ("AS",)})
    over(play(state, "red: fly 0,1 2,0 pay AS"), "red")


def test_win_ends_the_game_before_the_hand_limit():
    hand = ("2C", "3C", "4C", "5C", "6C", "8C", "9C", "10C")
    state = make_state({(0, 0): ("7H", "red:S"), (1, 0): ("7C", "red:S"), (2, 0): "7S", (2, 1): ("2D", "red:S")},
                       {"red": hand})  # fmt: skip
    after = play(state, "red: move S 2,1 2,0")
    over(after, "red")
    assert after.hands["red"] == hand


def test_no_move_after_the_game_is_over():
    state = make_state({(0, 0): ("7H", "red:S"), (1, 0): ("7C", "red:S"), (2, 0): "7S", (2, 1): ("2D", "red:S")})
    after = play(state, "red: move S 2,1 2,0")
    with pytest.raises(IllegalMoveError, match=re.escape("Game over: red won (power block)")):
        play(after, "blue: draw")

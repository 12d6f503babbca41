"""Turn structure (rules.md 4): who may move, the automatic draw, the hand limit, turn order."""

from __future__ import annotations

import copy
import re

import pytest

from engine.errors import IllegalMoveError, NotationError
from engine.zarkcity.notation import Draw
from engine.zarkcity.rules import apply, movers
from engine.zarkcity.state import State
from tests.engine.helpers import make_state, play

BOARD = {(0, 0): ("7H", "red:S"), (1, 0): ("8H", "blue:S"), (2, 0): ("9H", "green:S")}
THREE = ("red", "blue", "green")


def three(red: tuple[str, ...] = ("2C",), **fields: object) -> State:
    fields.setdefault("deck", ("2S", "3S", "4S", "5S"))
    return make_state(BOARD, {"red": red}, players=THREE, **fields)  # type: ignore[arg-type]


def discarding(hand: tuple[str, ...]) -> State:
    return make_state(BOARD, {"red": hand}, players=THREE, phase="discard", deck=("2S",))


def test_start_of_turn_draw():
    after = play(three(), "red: build 2C 0,1")
    assert (after.phase, after.to_move, after.turn) == ("act", "blue", 2)
    assert after.hands["blue"] == ("2S",)


def test_turn_order_is_clockwise_and_wraps():
    after = play(three(to_move="green"), "green: draw")
    assert (after.to_move, after.turn) == ("red", 2)
    assert after.hands["red"] == ("2C", "5S")


def test_empty_deck_start_of_turn_draw_skipped():
    after = play(three(to_move="green", deck=()), "green: draw")
    assert (after.to_move, after.hands["red"]) == ("red", ("2C",))


def test_turn_order_skips_resigned_players():
    after = play(three(resigned=("blue",)), "red: draw")
    assert after.to_move == "green"


def test_hand_of_six_passes_the_turn():
    seven = ("2C", "3C", "4C", "5C", "6C", "7C", "8C")
    after = play(make_state(BOARD, {"red": seven}, players=THREE), "red: build 2C 0,1")
    assert (after.phase, after.to_move) == ("act", "blue")


def test_hand_over_six_after_the_option_means_discard():
    after = play(three(red=("2C", "3C", "4C", "5C")), "red: draw")
    assert (after.phase, after.to_move, after.pending, after.turn) == ("discard", "red", (), 1)


EIGHT = ("2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C")


@pytest.mark.parametrize(
    ("hand", "line", "kept"),
    [
        pytest.param(EIGHT, "red: discard 2C 3C", EIGHT[2:], id="hand-limit-discard-exact"),
        pytest.param(EIGHT[:6] + ("JK", "JK"), "red: discard JK JK", EIGHT[:6], id="discard-two-jokers"),
    ],
)
def test_hand_limit_discard(hand, line, kept):
    after = play(discarding(hand), line)
    assert after.hands["red"] == kept
    assert (after.phase, after.to_move, after.turn) == ("act", "blue", 2)
    assert after.discard[-2:] == tuple(line.split()[2:])


@pytest.mark.parametrize(
    ("line", "message"),
    [
        pytest.param("red: discard 2C", "Discard: red holds 8 cards and must discard exactly 2, not 1",
                     id="discard-too-few-refused"),
        pytest.param("red: discard 2C 3C 4C", "Discard: red holds 8 cards and must discard exactly 2, not 3",
                     id="discard-too-many-refused"),
        pytest.param("red: discard 2C KD", "Discard: KD is not in your hand", id="discard-card-not-in-hand"),
        pytest.param("red: discard 2C 2C", "Discard: 2C is in your hand only once", id="discard-same-card-twice"),
        pytest.param("red: draw", "Draw: not now; red must discard down to 6 cards", id="discard-before-anything-else"),
        pytest.param("blue: draw", "Not your turn: red must discard down to 6 cards", id="discard-is-red-s-step"),
    ],
)  # fmt: skip
def test_discard_refused(line, message):
    with pytest.raises(IllegalMoveError, match=re.escape(message)):
        play(discarding(EIGHT), line)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        pytest.param("red: discard 2C", "Discard: not now; it is red's turn to act", id="no-voluntary-discard"),
        pytest.param("blue: draw", "Not your turn: it is red's turn to act", id="not-your-turn"),
        pytest.param("red: place 0,1", "Place: not now; it is red's turn to act", id="place-only-in-first-round"),
        pytest.param("red: choose 2C", "Choose: not now; it is red's turn to act", id="choose-only-in-setup"),
    ],
)
def test_act_phase_refusals(line, message):
    with pytest.raises(IllegalMoveError, match=re.escape(message)):
        play(three(), line)


def test_resigned_player_cannot_move():
    with pytest.raises(IllegalMoveError, match="Resigned: blue has resigned"):
        play(three(resigned=("blue",), to_move="blue"), "blue: draw")


def test_unseated_colour_is_malformed_input():
    with pytest.raises(NotationError, match="yellow is not seated in this game"):
        apply(three(), Draw(), "yellow")


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        pytest.param({"phase": "choose", "to_move": None, "starters": (("blue", "2H"),)}, ("red", "green"),
                     id="movers-choose-everyone-not-yet-chosen"),
        pytest.param({"phase": "choose", "to_move": None, "resigned": ("red",)}, ("blue", "green"),
                     id="movers-choose-without-resigned"),
        pytest.param({"phase": "place", "to_move": "blue", "pending": ("green",)}, ("blue",), id="movers-place"),
        pytest.param({"phase": "act", "to_move": "green"}, ("green",), id="movers-act"),
        pytest.param({"phase": "discard", "to_move": "red"}, ("red",), id="movers-discard"),
        pytest.param({"phase": "over", "to_move": None, "winner": "red"}, (), id="movers-over"),
    ],
)  # fmt: skip
def test_movers(fields, expected):
    assert movers(three(**fields)) == expected


def test_apply_never_changes_the_state_it_was_given():
    before = three()
    snapshot = copy.deepcopy(before)
    play(before, "red: build 2C 0,1")
    assert before == snapshot and dict(before.board) == dict(snapshot.board)

"""Attack payment (rules.md 7), change draws (A9) and the deck: lazy reshuffle, empty draws (rules.md 10)."""

from __future__ import annotations

import re

import pytest

from engine.errors import IllegalMoveError
from engine.shuffle import shuffled
from engine.zarkcity.rules import draw_cards
from engine.zarkcity.state import State
from tests.engine.helpers import make_state, play

DECK = ("2S", "3S", "4S", "5S", "6S")


def target(hand: tuple[str, ...], deck: tuple[str, ...] = DECK, discard: tuple[str, ...] = ()) -> State:
    """Blue's small, medium and large on 1,0, beside red's small on 0,0."""
    return make_state(
        {(0, 0): ("7H", "red:S"), (1, 0): ("8H", "blue:SML")},
        {"red": hand, "blue": ("9D",)},
        deck=deck,
        discard=discard,
    )


@pytest.mark.parametrize(
    ("hand", "move", "change"),
    [
        pytest.param(("JD",), "demolish blue S 1,0 pay JD", 0, id="jack-pays-small"),
        pytest.param(("QS",), "demolish blue S 1,0 pay QS", 1, id="queen-for-small-change-draw-1"),
        pytest.param(("KH",), "demolish blue S 1,0 pay KH", 2, id="king-for-small-change-draw-2"),
        pytest.param(("KH",), "demolish blue M 1,0 pay KH", 1, id="king-for-medium-change-draw-1"),
        pytest.param(("QS", "QH"), "demolish blue L 1,0 pay QS QH", 1, id="two-queens-for-large-change-draw-1"),
        pytest.param(("QS", "JD"), "convert blue L 1,0 into L pay QS JD", 0, id="queen-and-jack-pay-large"),
        pytest.param(("JS", "JD", "JC"), "demolish blue L 1,0 pay JS JD JC", 0, id="three-jacks-pay-large"),
        pytest.param(("JK", "JK"), "demolish blue M 1,0 pay JK JK", 0, id="two-jokers-pay-medium"),
        pytest.param(("AS", "AH"), "demolish blue M 1,0 pay AS AH", 0, id="two-aces-pay-medium"),
    ],
)
def test_payment_and_change(hand, move, change):
    after = play(target(hand), f"red: {move}")
    assert after.hands["red"] == DECK[:change]
    assert after.deck == DECK[change + 1 :]  # and blue's turn opened with one more draw


@pytest.mark.parametrize(
    ("hand", "move", "message"),
    [
        pytest.param(("QS", "QH"), "demolish blue M 1,0 pay QS QH", "QS is entirely redundant",
                     id="two-queens-for-medium-redundant"),
        pytest.param(("KH", "QS"), "demolish blue L 1,0 pay QS KH", "QS is entirely redundant",
                     id="king-and-queen-for-large-redundant"),
        pytest.param(("QS", "JD"), "demolish blue M 1,0 pay QS JD", "JD is entirely redundant",
                     id="queen-and-jack-for-medium-redundant"),
        pytest.param(("KH", "JK"), "demolish blue L 1,0 pay KH JK", "JK is entirely redundant",
                     id="joker-redundant-too"),
        pytest.param(("JD",), "demolish blue M 1,0 pay JD", "1 pip does not pay for a medium (2 pips)",
                     id="jack-does-not-pay-medium"),
        pytest.param(("JD", "AS"), "demolish blue L 1,0 pay AS JD", "2 pips do not pay for a large (3 pips)",
                     id="ace-and-jack-do-not-pay-large"),
    ],
)  # fmt: skip
def test_payment_refused(hand, move, message):
    with pytest.raises(IllegalMoveError, match=re.escape(message)):
        play(target(hand), f"red: {move}")


def test_change_draw_reshuffles_payment():
    after = play(target(("KH", "2D"), deck=(), discard=("10C",)), "red: demolish blue S 1,0 pay KH")
    assert sorted(after.hands["red"]) == ["10C", "2D", "KH"]  # the king came back as change
    assert after.hands["red"][1:] == shuffled(("10C", "KH"), "test", 1)
    assert (after.deck, after.discard, after.shuffles) == ((), (), 1)


def test_change_draw_stops_when_deck_and_discard_are_empty():
    state = make_state({(0, 0): ("7H", "red:S"), (1, 0): ("8H", "blue:S")}, {"red": ("KH",)})
    after = play(state, "red: demolish blue S 1,0 pay KH")
    assert after.hands["red"] == ("KH",)  # the king was reshuffled in and drawn; the second draw is skipped


# --- the deck (rules.md 10) ------------------------------------------------------------------------


def test_draw_reshuffles_when_the_deck_runs_out():
    state = make_state({(0, 0): ("7H", "red:S")}, {"red": ()}, deck=("2S",), discard=("10C", "9D", "8D"))
    after = play(state, "red: draw")
    assert after.hands["red"] == ("2S",) + shuffled(("10C", "9D", "8D"), "test", 1)[:2]
    assert after.shuffles == 1 and after.discard == ()
    assert after.hands["blue"] == shuffled(("10C", "9D", "8D"), "test", 1)[2:]  # blue's turn draw


def test_empty_deck_draw_skipped():
    state = make_state({(0, 0): ("7H", "red:S")}, {"red": ("2C",), "blue": ("3C",)})
    after = play(state, "red: draw")
    assert after.hands == {"red": ("2C",), "blue": ("3C",)}
    assert (after.phase, after.to_move, after.turn) == ("act", "blue", 2)


def test_reshuffle_numbers_count_up_from_the_last_shuffle():
    state = make_state({}, {"red": ()}, discard=("2C", "3C"), shuffles=4)
    after = draw_cards(state, "red", 1)
    assert after.shuffles == 5
    assert after.hands["red"] + after.deck == shuffled(("2C", "3C"), "test", 5)


def test_draw_cards_takes_from_the_top():
    after = draw_cards(make_state({}, {"red": ("9H",)}, deck=("2C", "3C", "4C")), "red", 2)
    assert after.hands["red"] == ("9H", "2C", "3C") and after.deck == ("4C",)

"""Leaving the game (rules.md 19): resignation, timeout and the agreed draw, in every phase (the kit's
steps, engine/kit/base.py, through Zark City's `leave` and `finish`)."""

from __future__ import annotations

import pytest

from engine.errors import IllegalMoveError, NotationError
from engine.kit.base import RESIGN
from engine.zarkcity.game import GAME
from engine.zarkcity.state import State
from tests.engine.helpers import make_state, play, square

THREE = ("red", "blue", "green")
resign, agree_draw, abandon = GAME.resign, GAME.agree_draw, GAME.abandon
BOARD = {(0, 0): ("7H", "red:S blue:S"), (1, 0): ("8H", "blue:M"), (2, 0): ("9H", "green:S")}


def acting(to_move: str = "red", players: tuple[str, ...] = THREE, **fields: object) -> State:
    hands = {"red": ("2C",), "blue": ("KD", "3C", "AS"), "green": ("4C",)}
    return make_state(BOARD, hands, players=players, to_move=to_move, deck=("2S", "3S"), **fields)  # type: ignore[arg-type]


def test_resign_last_player_wins():
    after = resign(acting(players=("red", "blue")), "red")
    assert (after.phase, after.to_move, after.winner, after.reason) == ("over", None, "blue", "resignation")


def test_timeout_is_a_resignation_with_its_own_reason():
    after = resign(acting(players=("red", "blue")), "blue", reason="timeout")
    assert (after.winner, after.reason) == ("red", "timeout")


def test_resign_pieces_go_to_the_stash_cards_stay_hand_to_discard():
    after = resign(acting(), "blue")
    assert after.board == {(0, 0): square(("7H", "red:S")), (1, 0): square("8H"), (2, 0): square(("9H", "green:S"))}
    assert after.stash("blue") == {"S": 3, "M": 3, "L": 3}
    assert after.hands["blue"] == () and after.discard == ("AS", "KD", "3C")  # deck order: suits S H D C
    assert after.resigned == ("blue",)
    assert (after.phase, after.to_move, after.turn) == ("act", "red", 1)  # not blue's turn: nothing else changes


def test_resign_via_apply_by_any_player():
    assert GAME.apply(acting(), RESIGN, "green") == resign(acting(), "green")


def test_resign_to_move_passes_turn():
    after = resign(acting(to_move="red"), "red")
    assert (after.phase, after.to_move, after.turn) == ("act", "blue", 2)
    assert after.hands["blue"] == ("KD", "3C", "AS", "2S")


def test_resign_while_discarding_passes_turn():
    after = resign(acting(to_move="green", phase="discard"), "green")
    assert (after.phase, after.to_move, after.turn) == ("act", "red", 2)


def test_resign_removes_pieces_win_check():
    board = {
        (0, 0): ("7H", "blue:S green:S"),
        (1, 0): ("7C", "green:S"),
        (2, 0): ("7S", "green:S blue:M"),
        (0, 1): ("2D", "red:S"),
    }
    after = resign(make_state(board, players=THREE), "blue")
    assert (after.phase, after.winner, after.reason) == ("over", "green", "power block")


def two_blocks(to_move: str) -> State:
    """Blue shares a card of red's block and one of green's: blue's resignation completes both."""
    board = {
        (0, 0): ("7H", "red:S blue:S"),
        (1, 0): ("7C", "red:S"),
        (2, 0): ("7S", "red:S"),
        (0, 1): ("5D", "green:S blue:S"),
        (1, 1): ("5C", "green:S"),
        (2, 1): ("5S", "green:S"),
        (3, 0): ("2D", "yellow:S"),
    }
    return make_state(board, players=("red", "yellow", "green", "blue"), to_move=to_move)


@pytest.mark.parametrize(
    ("to_move", "winner"),
    [
        pytest.param("red", "red", id="resign-several-winners-to-move-wins"),
        pytest.param("green", "green", id="resign-several-winners-to-move-wins-green"),
        pytest.param("yellow", "green", id="resign-several-winners-first-clockwise-after-to-move"),
        pytest.param("blue", "red", id="resign-several-winners-after-the-resigner"),
    ],
)
def test_multiple_winners_after_a_resignation(to_move, winner):
    after = resign(two_blocks(to_move), "blue")
    assert (after.winner, after.reason) == (winner, "power block")


# --- before turn 1 -----------------------------------------------------------------------------------


def choosing(starters: tuple[tuple[str, str], ...]) -> State:
    hands = {"red": ("2C", "KD"), "blue": ("3C",), "green": ("4C",)}
    return make_state(hands=hands, players=THREE, phase="choose", to_move=None, starters=starters, deck=("2S",))


def test_resign_during_choose_discards_starter():
    after = resign(choosing((("red", "9S"),)), "red")
    assert after.discard == ("9S", "KD", "2C")  # the face-down starter withdrawn into the hand, in deck order
    assert after.starters == () and after.phase == "choose"


def test_resign_during_choose_reveals_when_the_rest_have_chosen():
    after = resign(choosing((("green", "5H"), ("blue", "9C"))), "red")
    assert after.discard == ("KD", "2C")
    assert (after.phase, after.first_player, after.to_move, after.pending) == ("place", "blue", "green", ())
    assert after.board == {(0, 0): square(("9C", "blue:S"))}


def placing(**fields: object) -> State:
    defaults: dict[str, object] = {
        "board": {(0, 0): ("9C", "blue:S")},
        "hands": {"red": ("2H",), "blue": ("3H",), "green": ("4H",)},
        "players": THREE,
        "phase": "place",
        "to_move": "green",
        "pending": ("red",),
        "starters": (("blue", "9C"), ("green", "5H"), ("red", "4S")),
        "first_player": "blue",
        "deck": ("2C", "3C", "4C"),
    }
    defaults.update(fields)
    return make_state(**defaults)  # type: ignore[arg-type]


def test_resign_while_placing_discards_the_starter_and_the_next_player_places():
    after = resign(placing(), "green")
    assert after.discard == ("4H", "5H")
    assert (after.phase, after.to_move, after.pending) == ("place", "red", ())


def test_resign_while_waiting_to_place():
    after = resign(placing(), "red")
    assert after.discard == ("2H", "4S")
    assert (after.phase, after.to_move, after.pending) == ("place", "green", ())


def test_resign_after_placing_leaves_the_starter_on_the_board():
    after = resign(placing(), "blue")
    assert after.board == {(0, 0): square("9C")}
    assert after.discard == ("3H",)
    assert (after.to_move, after.pending) == ("green", ("red",))


def test_resign_of_the_first_player_during_the_setup_discards():
    seven = ("2S", "3S", "4S", "5S", "6S", "7S", "8S")
    state = placing(
        board={(0, 0): ("9C", "blue:S"), (1, 0): ("5H", "green:S"), (2, 0): ("4S", "red:S")},
        hands={"red": seven, "blue": seven, "green": ("4H",)},
        phase="discard",
        to_move="blue",
        pending=("red",),
        turn=0,
        deck=("2C",),
    )
    after = resign(state, "blue")
    assert (after.phase, after.to_move, after.pending, after.turn) == ("discard", "red", (), 0)
    after = play(after, "red: discard 2S")
    assert (after.phase, after.to_move, after.turn) == ("act", "green", 1)


# --- refusals and the agreed draw ------------------------------------------------------------------


def test_resign_twice_refused():
    with pytest.raises(IllegalMoveError, match="Resign: blue has already resigned"):
        resign(acting(resigned=("blue",)), "blue")


def test_resign_after_the_end_refused():
    with pytest.raises(IllegalMoveError, match="Resign: the game is over"):
        resign(resign(acting(players=("red", "blue")), "red"), "blue")


def test_resign_unseated_colour():
    with pytest.raises(NotationError, match="yellow is not seated in this game"):
        resign(acting(), "yellow")


def test_agree_draw():
    after = agree_draw(acting())
    assert (after.phase, after.to_move, after.pending, after.winner, after.reason) == ("over", None, (), None, "draw")
    with pytest.raises(IllegalMoveError, match="Draw: the game is over; the game ended in a draw"):
        agree_draw(after)


def test_abandon_ends_the_game_with_no_winner():
    after = abandon(choosing(()))
    assert (after.phase, after.to_move, after.pending, after.winner, after.reason) == (
        "over",
        None,
        (),
        None,
        "timeout",
    )
    assert after.resigned == () and after.hands == choosing(()).hands  # nobody resigned: the game just ended
    with pytest.raises(IllegalMoveError, match="Abandon: the game is over; the game ended with no winner"):
        abandon(after)


def test_abandon_is_only_for_a_timeout():
    with pytest.raises(NotationError, match="a draw is agree_draw"):
        abandon(acting(), "draw")


def test_a_game_ending_while_starters_wait_gives_them_back_to_their_hands():
    """Found by the playouts: the last opponent resigns during the first round; no card may vanish."""
    two = placing(players=("red", "blue"), to_move="red", pending=(), starters=(("blue", "9C"), ("red", "4S")))
    after = resign(two, "blue")
    assert (after.phase, after.winner) == ("over", "red")
    assert after.hands["red"] == ("2H", "4S")


@pytest.mark.parametrize("end", [agree_draw, abandon])
def test_a_draw_or_timeout_while_choosing_gives_back_every_face_down_starter(end):
    choosing = placing(phase="choose", to_move=None, pending=(), board={}, starters=(("blue", "9C"), ("green", "5H")))
    after = end(choosing)
    assert after.hands == {"red": ("2H",), "blue": ("3H", "9C"), "green": ("4H", "5H")}

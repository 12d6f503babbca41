"""Moves in words: plain English, and hidden cards named only to the player who holds them."""

from __future__ import annotations

from typing import Any

import pytest

from engine.zarkcity.describe import describe, drawn_cards
from engine.zarkcity.notation import parse
from engine.zarkcity.state import Square, State

BOARD = {(0, 0): Square("7H", (("blue", "L"), ("red", "S"))), (1, 0): Square("8H", (("red", "M"),))}


def st(**changes: Any) -> State:
    """Red to act on turn 3 of a two-player game, unless told otherwise."""
    fields: dict[str, Any] = {
        "deck_type": "standard",
        "players": ("red", "blue"),
        "phase": "act",
        "to_move": "red",
        "board": BOARD,
        "hands": {"red": ("QH", "JS", "2C"), "blue": ("5D",)},
        "deck": ("4S", "9D", "KH", "3C"),
        "discard": (),
        "turn": 3,
        "first_player": "red",
    }
    return State(**(fields | changes))


def said(text: str, before: State, after: State, viewer: str | None, by: str = "red") -> str:
    return describe(parse(text), by, before, after, viewer)


def test_draw_names_the_cards_only_to_the_drawer() -> None:
    before = st()
    after = st(hands={"red": ("QH", "JS", "2C", "4S", "9D", "KH"), "blue": ("5D",)}, deck=("3C",))
    assert said("draw", before, after, "red") == "you drew 3 cards: 4S 9D KH"
    assert said("draw", before, after, "blue") == "red drew 3 cards"
    assert said("draw", before, after, None) == "red drew 3 cards"


def test_the_next_turns_automatic_draw_is_private_too() -> None:
    before = st()
    board = BOARD | {(2, 0): Square("2C")}
    after = st(board=board, hands={"red": ("QH", "JS"), "blue": ("5D", "4S")}, deck=("9D",), to_move="blue", turn=4)
    assert said("build 2C 2,0", before, after, "red") == "you built 2C at 2,0; blue's turn: blue drew 1 card"
    assert said("build 2C 2,0", before, after, "blue") == "red built 2C at 2,0; your turn: you drew 1 card: 4S"


def test_demolish_with_change() -> None:
    before = st()
    board = {(0, 0): Square("7H", (("red", "S"),)), (1, 0): BOARD[(1, 0)]}
    after = st(board=board, hands={"red": ("2C", "4S"), "blue": ("5D",)}, discard=("JS", "QH"), phase="act")
    text = "demolish blue L 0,0 pay QH JS"
    assert (
        said(text, before, after, "blue") == "red demolished your large on 0,0 paying JS QH and drew 1 card as change"
    )
    assert said(text, before, after, "red") == (
        "you demolished blue's large on 0,0 paying JS QH and drew 1 card as change: 4S"
    )


def test_convert_without_change_and_a_win() -> None:
    before = st(hands={"red": ("KH", "2C"), "blue": ("5D",)})
    board = {(0, 0): Square("7H", (("red", "L"), ("red", "S"))), (1, 0): BOARD[(1, 0)]}
    after = st(board=board, hands={"red": ("2C",), "blue": ("5D",)}, phase="over", to_move=None)
    after = after.evolve(winner="red", reason="power block")
    text = "convert blue L 0,0 into L pay KH"
    assert (
        said(text, before, after, None)
        == "red converted blue's large on 0,0 into red's large paying KH; red wins with a power block"
    )
    assert said(text, before, after, "red").endswith("into your large paying KH; you win with a power block")


def test_fly_grow_spawn_move_hatch_discard() -> None:
    before = st(hands={"red": ("AD", "2C", "6C"), "blue": ("5D",)})
    assert said("fly 1,0 0,1 pay AD", before, before, None) == "red flew 8H from 1,0 to 0,1 paying AD"
    assert said("grow S 0,0", before, before, None) == "red grew a small into a medium at 0,0"
    assert said("grow M 1,0", before, before, None) == "red grew a medium into a large at 1,0"
    assert said("spawn 1,0", before, before, None) == "red spawned a small at 1,0"
    assert said("move M 1,0 0,0", before, before, None) == "red moved a medium from 1,0 to 0,0"
    assert said("hatch 6C 0,1", before, before, None) == "red hatched 6C at 0,1"
    assert said("discard 6C 2C", before, before, "blue") == "red discarded 2C 6C"


def test_hand_limit_is_announced() -> None:
    before = st()
    hand = ("QH", "JS", "2C", "4S", "9D", "KH", "3C")
    after = st(hands={"red": hand, "blue": ("5D",)}, deck=(), phase="discard")
    assert said("draw", before, after, "blue") == "red drew 4 cards; red must discard 1 card"


def test_choose_is_hidden_until_all_have_chosen() -> None:
    before = st(phase="choose", to_move=None, board={}, turn=0, first_player=None)
    after = before.evolve(starters=(("red", "2C"),), hands={"red": ("QH", "JS"), "blue": ("5D",)})
    assert said("choose 2C", before, after, "blue") == "red chose a starter"
    assert said("choose 2C", before, after, None) == "red chose a starter"
    assert said("choose 2C", before, after, "red") == "you chose 2C"
    done = after.evolve(
        phase="place",
        to_move="red",
        starters=(("red", "2C"), ("blue", "5D")),
        first_player="blue",
        board={(0, 0): Square("5D", (("blue", "S"),))},
    )
    assert said("choose 5D", after, done, "red", by="blue") == (
        "blue chose 5D; starters revealed: red 2C, blue 5D; blue goes first"
    )


@pytest.mark.parametrize(
    ("reason", "winner", "text"),
    [
        ("resignation", "blue", "red resigned; blue wins: every other player resigned"),
        ("timeout", "blue", "red ran out of time; blue wins: the last opponent ran out of time"),
    ],
)
def test_resign_ends_the_game(reason: str, winner: str, text: str) -> None:
    after = st(phase="over", to_move=None, resigned=("red",)).evolve(winner=winner, reason=reason)
    assert said("resign", st(), after, None) == text


def test_reshuffle_is_public() -> None:
    before = st(deck=(), discard=("3C", "4S"))
    after = st(deck=(), discard=(), hands={"red": ("QH", "JS", "2C", "4S", "3C"), "blue": ("5D",)}, shuffles=1)
    assert said("draw", before, after, None) == "red drew 2 cards; the discard pile was shuffled to make a new deck"


def test_drawn_cards_can_include_a_card_just_paid() -> None:
    before = st(hands={"red": ("QH", "JS")})
    after = st(hands={"red": ("QH",)})  # paid QH and JS; the reshuffle gave QH back as change
    assert drawn_cards("red", before, after, ("JS", "QH")) == ["QH"]

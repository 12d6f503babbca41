"""Moves in words: plain English, and hidden cards named only to the player who holds them."""

from __future__ import annotations

from typing import Any

import pytest

from engine.zarkcity import rules
from engine.zarkcity.game import GAME
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
    return GAME.describe(GAME.parse(text), by, before, after, viewer)


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
    before = st(hands={"red": ("QH", "QD", "2C"), "blue": ("5D",)})
    text = "demolish blue L 0,0 pay QH QD"
    after = rules.apply(before, parse(text), "red")
    assert said(text, before, after, "blue") == (
        "red demolished your large on 0,0 paying QH QD and drew 1 card as change; your turn: you drew 1 card: 9D"
    )
    assert said(text, before, after, "red") == (
        "you demolished blue's large on 0,0 paying QH QD and drew 1 card as change: 4S; blue's turn: blue drew 1 card"
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
    alone = before.evolve(board={(0, 0): Square("7H", (("blue", "L"),))})
    assert said("hatch 6C 0,1", alone, alone, None) == "red hatched 6C at 0,1"
    full = st(phase="discard", hands={"red": ("AD", "2C", "6C", "QH", "JS", "KH", "4S", "9D"), "blue": ("5D",)})
    assert said("discard 6C 2C", full, full, "blue") == "red discarded 2C 6C"


def test_hand_limit_is_announced() -> None:
    before = st(hands={"red": ("QH", "JS", "2C", "5C"), "blue": ("5D",)})
    after = rules.apply(before, parse("draw"), "red")
    assert said("draw", before, after, "blue") == "red drew 3 cards; red must discard 1 card"


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


def test_change_can_be_a_card_just_paid() -> None:
    """The change comes from the draw as it happens, so a paid card reshuffled straight back is named."""
    before = st(hands={"red": ("QH", "QD"), "blue": ("5D",)}, deck=())
    after = rules.apply(before, parse("demolish blue L 0,0 pay QH QD"), "red")
    text = said("demolish blue L 0,0 pay QH QD", before, after, "red")
    change = after.hands["red"]
    assert change in (("QH",), ("QD",))
    assert text == (
        f"you demolished blue's large on 0,0 paying QH QD and drew 1 card as change: {change[0]}"
        "; the discard pile was shuffled to make a new deck; blue's turn: blue drew 1 card"
    )

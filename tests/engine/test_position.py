"""The "zarkcity-position/1" file: round trips, defaults, and one row per way a file can be wrong."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engine.errors import PositionError
from engine.zarkcity.position import dumps, from_position, loads, to_position
from engine.zarkcity.state import Square, State

EXAMPLE: dict[str, Any] = {
    "format": "zarkcity-position/1",
    "deck_type": "standard",
    "players": ["red", "blue"],
    "phase": "act",
    "to_move": "red",
    "board": [
        {"at": [0, 0], "card": "7H", "pieces": {"red": "S", "blue": "SM"}},
        {"at": [1, 0], "card": "8H", "pieces": {}},
    ],
    "hands": {"red": ["KH", "3C"], "blue": ["5D"]},
    "deck": ["4S", "JK", "9D"],
    "discard": ["2C"],
    "winner": None,
}


def rich_state() -> State:
    """A mid-setup position that uses every optional field."""
    return State(
        deck_type="standard",
        players=("red", "yellow", "blue"),
        phase="place",
        to_move="yellow",
        board={(0, 0): Square("9S", (("red", "S"),))},
        hands={"red": ("KH", "JK"), "yellow": ("2C",), "blue": ("3D", "JK")},
        deck=("4S", "5S"),
        discard=("AD",),
        seed="s33d",
        shuffles=1,
        starters=(("yellow", "4C"), ("red", "9S"), ("blue", "9D")),
        first_player="red",
        revealed=((1, "blue", ("KS", "QD", "JD")),),
        pending=("blue",),
        turn=0,
    )


def example(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(EXAMPLE)
    for key, value in changes.items():
        if value is ...:
            del data[key]
        else:
            data[key] = value
    return data


def test_notation_md_example_loads_with_defaults() -> None:
    state = from_position(example())
    assert state.board[(0, 0)] == Square("7H", (("blue", "M"), ("blue", "S"), ("red", "S")))
    assert state.hands == {"red": ("KH", "3C"), "blue": ("5D",)}
    assert (state.turn, state.first_player, state.seed, state.shuffles, state.reason) == (1, "red", "", 0, None)
    assert state.starters == state.resigned == state.revealed == state.pending == ()


def test_round_trip_keeps_every_field() -> None:
    state = rich_state()
    assert loads(dumps(state)) == state
    assert from_position(to_position(state)) == state


def test_dumps_is_stable_and_sorts_the_board_by_row_then_column() -> None:
    state = from_position(
        example(
            board=[
                {"at": [1, 1], "card": "2H"},
                {"at": [0, 1], "card": "3H"},
                {"at": [1, 0], "card": "4H", "pieces": {"blue": "LS", "red": "MS"}},
            ]
        )
    )
    text = dumps(state)
    assert text == dumps(loads(text))
    cells = [entry["at"] for entry in json.loads(text)["board"]]
    assert cells == [[1, 0], [0, 1], [1, 1]]
    assert json.loads(text)["board"][0]["pieces"] == {"red": "SM", "blue": "SL"}


def test_input_is_lenient_about_case() -> None:
    state = from_position(example(hands={"Red": ["kh", "10c"]}, board=[{"at": [0, 0], "card": "7h", "pieces": {}}]))
    assert state.hands["red"] == ("KH", "10C")
    assert state.board[(0, 0)].card == "7H"


@pytest.mark.parametrize(
    ("phase", "turn", "first_player"),
    [("choose", 0, None), ("place", 0, "red"), ("act", 1, "red"), ("discard", 1, "red"), ("over", 0, "red")],
)
def test_defaults_depend_on_phase(phase: str, turn: int, first_player: str | None) -> None:
    to_move = "red" if phase in ("place", "act", "discard") else None
    over_limit = {"red": ["2S", "3S", "5S", "6S", "7S", "8S", "10S"], "blue": ["5D"]}  # a discard is owed
    hands = over_limit if phase == "discard" else EXAMPLE["hands"]
    state = from_position(example(phase=phase, to_move=to_move, hands=hands))
    assert (state.turn, state.first_player) == (turn, first_player)


def test_a_partial_deck_is_fine() -> None:
    assert from_position(example(deck=[], discard=[], hands={})).deck == ()


def test_held_starters_count_but_placed_ones_do_not() -> None:
    # 9S is red's placed starter (on the board and in the commit record): not a duplicate.
    placed = example(board=[{"at": [0, 0], "card": "9S", "pieces": {"red": "S"}}], starters=[["red", "9S"]])
    assert from_position(placed).starters == (("red", "9S"),)
    held = example(phase="choose", to_move=None, starters=[["red", "KH"]])
    with pytest.raises(PositionError, match="number card"):
        from_position(held)
    twice = example(phase="choose", to_move=None, starters=[["red", "3C"]])
    with pytest.raises(PositionError, match="3C is listed twice: hands.red, starters.red"):
        from_position(twice)


REJECTED = [
    ("wrong format tag", example(format="zarkcity-game/1"), "format must be 'zarkcity-position/1'"),
    ("rules version", example(rules="zarkcity/9"), "rules 'zarkcity/9' are not supported"),
    ("unknown deck", example(deck_type="tarot"), "deck_type must be one of standard, arcade"),
    ("one player", example(players=["red"]), "players must be a list of 2 to 5 colours"),
    ("six players", example(players=["red", "blue", "green", "yellow", "black", "red"]), "2 to 5 colours"),
    ("players twice", example(players=["red", "red"]), "players must be distinct"),
    ("unknown colour", example(players=["red", "pink"]), "players: 'pink' is not a player colour"),
    ("unknown phase", example(phase="lunch"), "phase must be one of choose, place, act, discard, over"),
    ("to_move missing", example(to_move=None), "to_move is missing: phase act needs"),
    ("to_move absent", example(to_move=...), "to_move is missing"),
    ("to_move unseated", example(to_move="green"), "to_move: green is not seated in this game"),
    ("to_move while choosing", example(phase="choose"), "to_move must be null in phase choose"),
    ("hand of unseated", example(hands={"green": ["2C"]}), "hands: green is not seated"),
    ("pieces of unseated", example(board=[{"at": [0, 0], "card": "7H", "pieces": {"green": "S"}}]), "green is not"),
    ("winner unseated", example(phase="over", to_move=None, winner="black"), "winner: black is not seated"),
    ("winner while on", example(winner="red"), "winner and reason must be null while the game is on"),
    ("bad reason", example(phase="over", to_move=None, reason="boredom"), "reason must be one of"),
    ("not a card", example(deck=["ZZ"]), "deck: 'ZZ' is not a card"),
    ("card not in deck", example(deck=["7T"]), "deck: 7T is not in the standard deck"),
    ("joker in arcade", example(deck_type="arcade", deck=["JK"]), "deck: JK is not in the arcade deck"),
    ("card twice", example(discard=["9D"]), "9D is listed twice: deck, discard"),
    ("hand and board", example(hands={"red": ["7H"]}), "7H is listed twice: board 0,0, hands.red"),
    ("three jokers", example(discard=["JK", "JK"]), "JK is listed 3 times"),
    ("ace on board", example(board=[{"at": [0, 0], "card": "AS"}]), "board 0,0: AS is an ace"),
    ("face on board", example(board=[{"at": [0, 0], "card": "QS"}]), "board 0,0: QS is a face card"),
    ("joker on board", example(board=[{"at": [0, 0], "card": "JK"}], deck=[]), "board 0,0: JK is a joker"),
    ("four smalls", example(board=[{"at": [0, 0], "card": "7H", "pieces": {"red": "SSSS"}}]), "red has 4 small"),
    (
        "four larges over two cards",
        example(
            board=[
                {"at": [0, 0], "card": "7H", "pieces": {"blue": "LL"}},
                {"at": [1, 0], "card": "8H", "pieces": {"blue": "LL"}},
            ]
        ),
        "blue has 4 large pieces on the board; each player has only 3",
    ),
    ("bad size", example(board=[{"at": [0, 0], "card": "7H", "pieces": {"red": "X"}}]), "size letters S, M, L"),
    (
        "not connected",
        example(board=[{"at": [0, 0], "card": "7H"}, {"at": [2, 0], "card": "8H"}]),
        "the board is not connected: 2,0 is cut off from 0,0",
    ),
    ("two cards one cell", example(board=[{"at": [0, 0], "card": "7H"}, {"at": [0, 0], "card": "8H"}]), "two cards"),
    ("bad cell", example(board=[{"at": [0], "card": "7H"}]), "'at' must be [x, y]"),
    ("negative turn", example(turn=-1), "turn must be a whole number"),
    ("starter twice", example(starters=[["red", "2S"], ["red", "3S"]]), "red has chosen twice"),
    ("pending unseated", example(pending=["green"]), "pending: green is not seated"),
    ("resigned to move", example(resigned=["red"]), "red has resigned and cannot be to move"),
    ("not an object", ["format"], "a position must be a JSON object"),
    ("discard not owed", example(phase="discard"), "phase is discard but red holds"),
    (
        "power block already made",
        example(
            board=[
                {"at": [0, 0], "card": "7H", "pieces": {"red": "S"}},
                {"at": [1, 0], "card": "7S", "pieces": {"red": "S"}},
                {"at": [1, 1], "card": "7D", "pieces": {"red": "M"}},
            ],
            deck=["4S", "JK", "9D"],
        ),
        "red already controls a Power Block: a position with one must be over",
    ),
    ("cell far away", example(board=[{"at": [10**400, 0], "card": "7H"}]), "numbers from -9999 to 9999"),
]


@pytest.mark.parametrize(("case", "data", "message"), REJECTED, ids=[row[0] for row in REJECTED])
def test_rejected(case: str, data: Any, message: str) -> None:
    with pytest.raises(PositionError) as caught:
        from_position(data)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_diagonal_contact_connects() -> None:
    data = example(board=[{"at": [0, 0], "card": "7H"}, {"at": [1, 1], "card": "8H"}, {"at": [2, 0], "card": "9H"}])
    assert len(from_position(data).board) == 3


def test_bad_json_names_the_problem() -> None:
    with pytest.raises(PositionError, match="bad JSON"):
        loads("{'format': 1}")


def test_absurdly_nested_json_is_refused_not_a_crash() -> None:
    with pytest.raises(PositionError, match="nested too deeply"):
        loads("[" * 100_000)

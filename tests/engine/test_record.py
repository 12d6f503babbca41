"""Game records: replay is a fold of apply; the first illegal move and a wrong result are reported."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.errors import PositionError, ReplayError
from engine.zarkcity.game import GAME
from engine.zarkcity.movegen import legal_moves
from engine.zarkcity.rules import apply, movers, new_game
from engine.zarkcity.state import State

PLAYERS = ["red", "yellow", "blue"]
replay, result_of, agree_draw, abandon = GAME.replay, GAME.record_result, GAME.agree_draw, GAME.abandon


def random_game(seed: str, plies: int, rng: random.Random) -> tuple[State, list[tuple[str, str]]]:
    """Random legal moves (the rules', without the kit's resign); returns the final state and the (by, move) list."""
    state = new_game(PLAYERS, seed)
    moves: list[tuple[str, str]] = []
    while state.phase != "over" and len(moves) < plies:
        colour = rng.choice(movers(state))
        move = rng.choice(legal_moves(state, colour))
        state = apply(state, move, colour)
        moves.append((colour, str(move)))
    return state, moves


def record(moves: list[tuple[str, str]], result: dict[str, Any] | None = None, seed: str = "rec") -> dict[str, Any]:
    return GAME.make_record(PLAYERS, {"deck": "standard"}, seed, moves, result)


def test_replay_reproduces_the_game() -> None:
    rng = random.Random(3)
    for n in range(3):
        state, moves = random_game(f"rec{n}", 150, rng)
        assert replay(record(moves, result_of(state), seed=f"rec{n}")) == state


def test_make_record_shape() -> None:
    data = record([("red", "draw")], None)
    assert data == {
        "format": "zarkcity-game/1",
        "game": "zarkcity",
        "rules": "zarkcity/1",
        "deck_type": "standard",
        "players": PLAYERS,
        "seed": "rec",
        "moves": [{"by": "red", "move": "draw"}],
        "result": None,
    }


def test_first_illegal_move_is_reported_with_its_index() -> None:
    state, moves = random_game("rec", 12, random.Random(5))
    bad = [*moves[:7], (moves[7][0], "build 2C 99,99"), *moves[8:]]
    with pytest.raises(ReplayError) as caught:
        replay(record(bad))
    assert caught.value.index == 7
    assert str(caught.value).startswith(f"move 7 ({moves[7][0]}: build 2C 99,99): ")


def test_result_must_match() -> None:
    state, moves = random_game("rec", 20, random.Random(1))
    assert state.phase != "over"
    with pytest.raises(ReplayError) as caught:
        replay(record(moves, {"winner": "red", "reason": "power block"}))
    assert caught.value.index is None
    assert "the record says red won by power block, but after 20 moves the game is not over" in str(caught.value)


def test_resignation_and_timeout() -> None:
    _, moves = random_game("rec", 20, random.Random(1))
    moves += [("red", "resign"), ("blue", "resign")]
    assert replay(record(moves, {"winner": "yellow", "reason": "resignation"})).reason == "resignation"
    timed_out = replay(record(moves, {"winner": "yellow", "reason": "timeout"}))
    assert (timed_out.winner, timed_out.reason) == ("yellow", "timeout")
    with pytest.raises(ReplayError, match="the record says blue won by timeout, but after 22 moves yellow won"):
        replay(record(moves, {"winner": "blue", "reason": "timeout"}))
    with pytest.raises(ReplayError, match="yellow won by power block"):
        replay(record(moves, {"winner": "yellow", "reason": "power block"}))


def test_agreed_draw() -> None:
    state, moves = random_game("rec", 20, random.Random(1))
    drawn = replay(record(moves, {"winner": None, "reason": "draw"}))
    assert drawn == agree_draw(state)
    assert (drawn.phase, drawn.winner, drawn.reason) == ("over", None, "draw")
    with pytest.raises(ReplayError, match="the record says a draw"):
        replay(record([*moves, ("red", "resign"), ("blue", "resign")], {"winner": None, "reason": "draw"}))


def test_everyone_timed_out() -> None:
    state, moves = random_game("rec", 3, random.Random(2))
    ended = replay(record(moves, {"winner": None, "reason": "timeout"}))
    assert ended == abandon(state)
    assert (ended.phase, ended.winner, ended.reason) == ("over", None, "timeout")
    with pytest.raises(ReplayError, match="the record says no winner \\(timeout\\), but after 5 moves red won"):
        replay(record([*moves, ("yellow", "resign"), ("blue", "resign")], {"winner": None, "reason": "timeout"}))


MALFORMED = [
    ("not an object", [], "a game record must be a JSON object"),
    ("format", record([]) | {"format": "zarkcity-position/1"}, "format must be 'zarkcity-game/1'"),
    ("rules", record([]) | {"rules": "zarkcity/0"}, "rules 'zarkcity/0' are not supported"),
    ("deck", record([]) | {"deck_type": "uno"}, "deck_type must be one of"),
    ("players", record([]) | {"players": ["red"]}, "players must be a list of 2 to 5"),
    ("seed", record([]) | {"seed": 5}, "seed must be a string"),
    ("moves", record([]) | {"moves": "draw"}, "moves must be a list"),
    ("entry", record([]) | {"moves": ["draw"]}, "move 0 must be an object"),
    ("by", record([("green", "draw")]), "move 0 by: green is not seated"),
    ("unreadable", record([("red", "draw"), ("red", "dance")]), "move 1 (red: dance): 'dance' is not a move"),
    ("reason", record([], {"winner": "red", "reason": "luck"}), "result must be {winner, reason}"),
    ("draw winner", record([], {"winner": "red", "reason": "draw"}), "a draw result has a winner"),
    ("no winner", record([], {"winner": None, "reason": "resignation"}), "a resignation result has no winner"),
    ("block winner", record([], {"winner": None, "reason": "power block"}), "a power block result has no winner"),
    ("winner seat", record([], {"winner": "black", "reason": "timeout"}), "result winner: black is not seated"),
]


@pytest.mark.parametrize(("case", "data", "message"), MALFORMED, ids=[row[0] for row in MALFORMED])
def test_malformed_records(case: str, data: Any, message: str) -> None:
    with pytest.raises(PositionError) as caught:
        replay(data)
    assert message in str(caught.value)

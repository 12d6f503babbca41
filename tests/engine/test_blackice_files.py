"""Black ICE's files: the position file and the `blackice-game/1` record, each round trip and
every rejected case (../shared/spec/blackice.md, "Position file")."""

from __future__ import annotations

import json
from typing import Any

import pytest
from blackice_helpers import BASE, playout, position

from engine.blackice.game import GAME
from engine.errors import NotationError, PositionError, ReplayError


def test_the_spec_example_reads_and_writes_back() -> None:
    assert GAME.to_position(GAME.from_position(position())) == BASE


@pytest.mark.parametrize("seed", [f"files-{n}" for n in range(12)])
def test_position_round_trip(seed: str) -> None:
    state, _ = playout(seed, 60)
    text = json.dumps(GAME.to_position(state))
    assert GAME.from_position(json.loads(text)) == state


@pytest.mark.parametrize("seed", [f"record-{n}" for n in range(12)])
def test_record_round_trip(seed: str) -> None:
    state, played = playout(seed, 400)
    record = GAME.make_record(["red", "blue"], {}, seed, played, GAME.record_result(state))
    assert record["format"] == "blackice-game/1" and set(record) == {
        "format",
        "game",
        "players",
        "seed",
        "moves",
        "result",
    }
    assert GAME.replay(json.loads(json.dumps(record))) == state


def _codes(data: dict[str, Any]) -> None:
    data["locks"][0]["code"] = "blue"


def _box(data: dict[str, Any]) -> None:
    data["box"] = data["box"][:-1]


def _unseated_mark(data: dict[str, Any]) -> None:
    data["locks"][1]["peeked_by"] = ["green"]


def _unseated_keys(data: dict[str, Any]) -> None:
    data["keys"] = {"red": [None] * 3, "green": [None] * 3}


REJECTED: dict[str, tuple[Any, str]] = {
    "codes not 3 of each colour": (_codes, "exactly 3 of each colour"),
    "box short": (_box, "exactly 3 of each colour"),
    "a Code not a colour": (
        {"box": ["red", "red", "yellow", "yellow", "yellow", "green", "blue", "blue", "black"]},
        "Code",
    ),
    "to_move not seated": ({"to_move": "green"}, "to_move"),
    "first_player not seated": ({"first_player": "yellow"}, "first_player"),
    "a mark of a colour not seated": (_unseated_mark, "peeked_by"),
    "keys of a colour not seated": (_unseated_keys, "keys"),
    "players not two colours": ({"players": ["red", "red"]}, "players"),
    "players not a colour": ({"players": ["red", "pink"]}, "players"),
    "a Node of no colour": ({"keys": {"red": ["pink", None, None], "blue": [None] * 3}}, "keys of red"),
    "four Nodes": ({"keys": {"red": [None] * 4, "blue": [None] * 3}}, "keys of red"),
    "actions not from the throw": (
        {"throw": ["tip", "hop", "hop"], "actions": ["tip", "hop", "hop"]},
        "duplicate rule",
    ),
    "a swap turned wild": ({"throw": ["swap", "hop", "tip"], "actions": ["wild", "hop", "tip"]}, "duplicate rule"),
    "a hop turned tip": ({"throw": ["hop", "swap", "tip"], "actions": ["tip", "swap", "tip"]}, "duplicate rule"),
    "a face not on the die": ({"throw": ["six", "hop", "tip"]}, "throw"),
    "two dice": ({"actions": ["tip", "swap"]}, "actions"),
    "used not booleans": ({"used": [0, 0, 0]}, "used"),
    "draws negative": ({"draws": -1}, "draws"),
    "seed not text": ({"seed": 5}, "seed"),
    "wrong format": ({"format": "blackice-position/2"}, "blackice-position/1"),
    "wrong game": ({"game": "homeworlds"}, "blackice-position/1"),
    "unknown reason": ({"winner": "red", "reason": "luck"}, "reason"),
    "a draw with a winner": ({"winner": "red", "reason": "draw"}, "draw"),
    "a winner not seated": ({"winner": "green", "reason": "declaration"}, "winner"),
}


@pytest.mark.parametrize("case", REJECTED, ids=list(REJECTED))
def test_position_rejected(case: str) -> None:
    change, message = REJECTED[case]
    data = position()
    if callable(change):
        change(data)
    else:
        data.update(change)
    with pytest.raises(PositionError, match=message):
        GAME.from_position(data)


def test_the_spec_example_without_a_turn_number() -> None:
    data = position()
    del data["turn"]
    assert GAME.from_position(data).turn == 1


def test_a_null_may_turn_more_to_wild() -> None:
    data = position(throw=["tip", "dig", "aim"], actions=["wild", "wild", "wild"])
    assert GAME.from_position(data).actions == ("wild", "wild", "wild")


def test_not_an_object() -> None:
    with pytest.raises(PositionError):
        GAME.from_position(["blackice"])


def _record(**changes: Any) -> dict[str, Any]:
    state, played = playout("rejected", 30)
    record = GAME.make_record(["red", "blue"], {}, "rejected", played, GAME.record_result(state))
    record.update(changes)
    return record


def test_record_with_an_illegal_step_names_it() -> None:
    record = _record()
    record["moves"].insert(0, {"by": record["moves"][0]["by"], "move": "reset 1"})
    with pytest.raises(ReplayError) as error:
        GAME.replay(record)
    assert error.value.index == 0


def test_record_by_the_wrong_seat() -> None:
    record = _record()
    first = record["moves"][0]
    first["by"] = "red" if first["by"] == "blue" else "blue"
    with pytest.raises(ReplayError):
        GAME.replay(record)


def test_record_with_a_wrong_result() -> None:
    with pytest.raises(ReplayError):
        GAME.replay(_record(result={"winner": "red", "reason": "declaration"}))


@pytest.mark.parametrize(
    "changes",
    [{"format": "blackice-game/2"}, {"game": "homeworlds"}, {"players": ["red"]}, {"seed": None}],
    ids=["format", "game", "players", "seed"],
)
def test_record_header_rejected(changes: dict[str, Any]) -> None:
    with pytest.raises(PositionError):
        GAME.replay(_record(**changes))


def test_record_with_unreadable_step() -> None:
    record = _record()
    record["moves"][0]["move"] = "peek 9"
    with pytest.raises((NotationError, PositionError, ReplayError)):
        GAME.replay(record)


def test_resigned_record_replays() -> None:
    state, played = playout("resigned", 2)
    seat = GAME.movers(state)[0]
    ended = GAME.resign(state, seat)
    record = GAME.make_record(["red", "blue"], {}, "resigned", [*played, (seat, "resign")], GAME.record_result(ended))
    assert GAME.replay(record) == ended
    assert GAME.from_position(GAME.to_position(ended)) == ended

"""Homeworlds' files: the position (`homeworlds-position/1`) and the game record (`homeworlds-game/1`)
round-trip, the spec's own example reads back exactly, and every case the spec rejects is rejected.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from homeworlds_helpers import NORTH, SOUTH, position

from engine.errors import PositionError, ReplayError
from engine.homeworlds.game import GAME

SPEC_RECORD: dict[str, Any] = {
    "format": "homeworlds-game/1",
    "game": "homeworlds",
    "rules": "homeworlds/1",
    "players": ["red", "yellow"],
    "options": {"catastrophes": "anytime", "suicide": "legal", "setup": "standard"},
    "seed": "demo",
    "moves": [
        {"by": "yellow", "move": "homeworld y2 b1 g3"},
        {"by": "red", "move": "homeworld g2 b3 y3"},
        {"by": "yellow", "move": "build g1 North"},
        {"by": "red", "move": "build y1 South"},
        {"by": "yellow", "move": "build g1 North"},
        {"by": "red", "move": "discover y1 South b1 Lorem"},
        {"by": "yellow", "move": "trade g1 y1 North"},
        {"by": "red", "move": "build y1 South"},
        {"by": "yellow", "move": "discover y1 North r3 Ipsum"},
        {"by": "red", "move": "sacrifice y1 South"},
    ],
    "result": None,
}
SPEC_POSITION: dict[str, Any] = {
    "format": "homeworlds-position/1",
    "game": "homeworlds",
    "rules": "homeworlds/1",
    "options": {"catastrophes": "anytime", "suicide": "legal", "setup": "standard"},
    "players": ["red", "yellow"],
    "first_player": "yellow",
    "to_move": "red",
    "turn": 10,
    "stage": "sacrifice",
    "sacrifice": {"colour": "yellow", "left": 1},
    "this_turn": ["sacrifice y1 South"],
    "systems": [
        {"name": "North", "home": "yellow", "stars": ["y2", "b1"], "ships": {"yellow": ["g1", "g3"]}},
        {"name": "South", "home": "red", "stars": ["g2", "b3"], "ships": {"red": ["y3"]}},
        {"name": "Lorem", "home": None, "stars": ["b1"], "ships": {"red": ["y1"]}},
        {"name": "Ipsum", "home": None, "stars": ["r3"], "ships": {"yellow": ["y1"]}},
    ],
    "last_turn": {"by": "yellow", "steps": ["discover y1 North r3 Ipsum"]},
    "seed": "demo",
    "winner": None,
    "reason": None,
}


def test_the_spec_record_replays_to_the_spec_position() -> None:
    assert GAME.to_position(GAME.replay(copy.deepcopy(SPEC_RECORD))) == SPEC_POSITION


def test_the_spec_position_round_trips() -> None:
    state = GAME.from_position(json.loads(json.dumps(SPEC_POSITION)))
    assert GAME.to_position(state) == SPEC_POSITION
    assert state == GAME.replay(SPEC_RECORD)


def test_a_record_is_written_as_the_spec_shows() -> None:
    moves = [(entry["by"], entry["move"]) for entry in SPEC_RECORD["moves"]]
    record = GAME.make_record(["red", "yellow"], {}, "demo", moves, None)
    assert record == SPEC_RECORD and list(record) == list(SPEC_RECORD)


def test_options_omitted_are_the_defaults() -> None:
    record = {key: value for key, value in SPEC_RECORD.items() if key != "options"}
    assert GAME.replay(record) == GAME.replay(SPEC_RECORD)


def test_a_finished_game_and_its_result_replay() -> None:
    record = copy.deepcopy(SPEC_RECORD)
    record["moves"] += [{"by": "red", "move": "move y3 South Lorem"}]  # red's home is left empty: red loses
    record["result"] = {"winner": "yellow", "reason": "homeworld"}
    state = GAME.replay(record)
    assert (state.winner, state.reason, state.stage, state.to_move) == ("yellow", "homeworld", "over", None)
    assert GAME.record_result(state) == record["result"]
    assert GAME.from_position(GAME.to_position(state)) == state


def test_a_draw_by_both_homeworlds_is_a_result_a_record_may_state() -> None:
    steps = [
        ("yellow", "homeworld y1 g2 r1"),
        ("red", "homeworld g3 b3 g1"),
        ("yellow", "build r1 North"),
        ("red", "pass"),
        ("yellow", "move r1 North South"),
        ("red", "pass"),
        ("yellow", "sacrifice r1 North"),
        ("yellow", "attack g1 South"),  # scenario 9: both homeworlds are left without their owner's ship
    ]
    result = {"winner": None, "reason": "both homeworlds"}
    record = GAME.make_record(["red", "yellow"], {"setup": "free"}, "demo", steps, result)
    state = GAME.replay(json.loads(json.dumps(record)))
    assert GAME.record_result(state) == result and state.turn == 7


def test_a_wrong_result_is_a_replay_error() -> None:
    record = copy.deepcopy(SPEC_RECORD)
    record["result"] = {"winner": "red", "reason": "homeworld"}
    with pytest.raises(ReplayError, match="the game is not over"):
        GAME.replay(record)


def test_an_illegal_step_is_a_replay_error_with_its_index() -> None:
    record = copy.deepcopy(SPEC_RECORD)
    record["moves"][3]["move"] = "build g1 South"
    with pytest.raises(ReplayError) as error:
        GAME.replay(record)
    assert error.value.index == 3


def test_the_view_withholds_only_the_seed_until_the_end() -> None:
    state = GAME.replay(SPEC_RECORD)
    shown = GAME.view(state, "red")
    assert "seed" not in shown and "demo" not in json.dumps(shown)
    assert shown["format"] == "homeworlds-view/1" and shown["movers"] == ["red"]
    assert shown["bank"]["y1"] == 1 and sum(shown["bank"].values()) == 36 - 11  # type: ignore[typeddict-item]
    ended = GAME.resign(state, "red")
    assert GAME.view(ended, None)["seed"] == "demo"  # type: ignore[typeddict-item]


def test_the_text_board_lists_every_system_and_the_bank() -> None:
    text = GAME.board_text(GAME.view(GAME.replay(SPEC_RECORD), None))
    assert text.splitlines()[0] == "North (yellow's homeworld): stars y2 b1 | red: -; yellow: g1 g3"
    assert "Lorem: stars b1 | red: y1; yellow: -" in text and text.count("\n") == 5
    assert "Bank: r1x3 r2x3 r3x2 y1x1" in text


def _broken(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(SPEC_POSITION)
    change(data)
    return data


REJECTED = [
    ("bad-piece", lambda d: d["systems"][2].update(stars=["x1"]), "pieces like g1"),
    ("more-than-3-of-a-piece", lambda d: d["systems"][0]["ships"].update(yellow=["y2", "y2", "y2", "g3"]), "only 3 y2"),
    ("bad-name", lambda d: d["systems"][2].update(name="9Lorem"), "bad system name"),
    ("repeated-name", lambda d: d["systems"][3].update(name="lorem"), "two systems are called"),
    ("non-home-without-ships", lambda d: d["systems"][2].update(ships={}), "at least one ship"),
    ("non-home-with-two-stars", lambda d: d["systems"][2].update(stars=["b1", "r2"]), "exactly one star"),
    ("homeworld-without-stars", lambda d: d["systems"][0].update(stars=[]), "one or two stars"),
    ("homeworld-with-3-stars", lambda d: d["systems"][0].update(stars=["y2", "b1", "r1"]), "one or two stars"),
    ("unseated-seat", lambda d: d["systems"][2].update(ships={"blue": ["y1"]}), "must be one of the players"),
    ("unseated-home", lambda d: d["systems"][0].update(home="green"), "must be one of the players"),
    ("stage-without-sacrifice", lambda d: d.update(sacrifice=None), "sacrifice is given exactly"),
    ("sacrifice-outside-its-stage", lambda d: d.update(stage="acted"), "sacrifice is given exactly"),
    ("acted-without-steps", lambda d: d.update(stage="acted", sacrifice=None, this_turn=[]), "needs the steps"),
    ("unreadable-step", lambda d: d.update(this_turn=["fly y1"]), "this_turn"),
    ("result-while-on", lambda d: d.update(winner="red", reason="homeworld"), "result is given while"),
    ("bad-stage", lambda d: d.update(stage="middle"), "stage must be"),
    ("bad-option", lambda d: d["options"].update(suicide="sometimes"), "option 'suicide'"),
    ("two-homeworlds", lambda d: d["systems"][1].update(home="yellow"), "two homeworlds"),
    ("bad-format", lambda d: d.update(format="homeworlds-position/9"), "format must be"),
    ("start-after-a-sacrifice", lambda d: d.update(stage="start", sacrifice=None), "only catastrophes"),
    (
        "acted-with-only-a-catastrophe",
        lambda d: d.update(stage="acted", sacrifice=None, this_turn=["catastrophe Lorem y"]),
        "action or sacrifice",
    ),
    ("sacrifice-of-another-colour", lambda d: d.update(sacrifice={"colour": "red", "left": 1}), "of that colour"),
    ("sacrifice-with-too-many-left", lambda d: d.update(sacrifice={"colour": "yellow", "left": 2}), "leave 1, not 2"),
    ("setup-after-turn-2", lambda d: d.update(stage="setup", sacrifice=None, this_turn=[]), "setup is turns 1 and 2"),
    ("turn-2-not-in-setup", lambda d: d.update(turn=2), "setup is turns 1 and 2"),
    ("homeworld-not-north", lambda d: d["systems"][0].update(name="Terra"), "homeworld is called North"),
    (
        "homeworlds-swapped",
        lambda d: (d["systems"][0].update(home="red"), d["systems"][1].update(home="yellow")),
        "called South",
    ),
]


@pytest.mark.parametrize(("change", "message"), [row[1:] for row in REJECTED], ids=[row[0] for row in REJECTED])
def test_the_position_reader_rejects(change: Any, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        GAME.from_position(_broken(change))


def test_helper_positions_round_trip() -> None:
    state = position(NORTH, SOUTH, "Lorem: b1 / y1 / g2")
    assert GAME.from_position(json.loads(json.dumps(GAME.to_position(state)))) == state


def test_the_table_and_the_picture_show_every_system() -> None:
    state = GAME.replay(SPEC_RECORD)
    table = GAME.table(GAME.view(state, "red"))
    assert table.status == "Your turn (turn 10)."
    assert [seat.facts for seat in table.seats] == [("home South", "2 ships"), ("home North", "3 ships")]
    svg = GAME.board_svg(GAME.view(state, "red"), interactive=True)
    ships = svg.count('data-target="ship:') + svg.count('data-target="enemy:')
    assert svg.count('data-target="system:') == 4 and ships == 5
    assert GAME.table(GAME.view(state, "yellow")).status == "Waiting for red (turn 10)."


@pytest.mark.parametrize(
    ("last", "result"),
    [
        ({"by": "red", "move": "resign"}, {"winner": "yellow", "reason": "resignation"}),  # mid-sacrifice
        ({"by": "yellow", "move": "resign"}, {"winner": "red", "reason": "resignation"}),  # the waiting player
        ({"by": "red", "move": "resign"}, {"winner": "yellow", "reason": "timeout"}),  # the loser's `resign`
        (None, {"winner": None, "reason": "draw"}),  # by agreement
    ],
    ids=["resignation-mid-turn", "resignation-while-waiting", "timeout", "draw"],
)
def test_the_results_every_game_has_replay_mid_turn(last: dict[str, str] | None, result: dict[str, Any]) -> None:
    """The spec's record stops in red's sacrifice: resignation, a time-out and a draw may end it there."""
    record = copy.deepcopy(SPEC_RECORD)
    record["moves"] += [last] if last else []
    record["result"] = result
    state = GAME.replay(record)
    assert (state.winner, state.reason, state.stage, state.to_move) == (
        result["winner"],
        result["reason"],
        "over",
        None,
    )
    assert GAME.record_result(state) == result and GAME.from_position(GAME.to_position(state)) == state

"""Pharaoh's position file and game record (pharaoh.md): round trips, replay, and every rejected case
of the spec through the command line (exit 2, the message names the fault)."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.errors import PositionError, ReplayError
from engine.files import pretty
from engine.kit.steps import play_line
from engine.pharaoh.game import GAME

SPEC_EXAMPLE: dict[str, Any] = {
    "format": "pharaoh-position/1",
    "game": "pharaoh",
    "players": ["red", "yellow", "green"],
    "first_player": "green",
    "to_move": "yellow",
    "throw": 5,
    "points": 4,
    "board": {"c1": "red:L", "b2": "red:S", "a2": "yellow:S", "a3": "yellow:M", "c3": "green:S", "c4": "green:L"},
    "dice": 6,
    "resigned": [],
    "winner": None,
    "reason": None,
    "seed": "demo",
}


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    out = io.StringIO()
    code = main(argv, out)
    return code, out.getvalue(), capsys.readouterr().err


def write(tmp_path: Path, data: Any, name: str = "position.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_the_spec_example_reads_and_writes_back() -> None:
    state = GAME.from_position(copy.deepcopy(SPEC_EXAMPLE))
    assert state.supply("yellow") == ("L",) and state.supply("red") == ("M",)
    written = GAME.to_position(state)
    assert written == SPEC_EXAMPLE | {"board": dict(sorted(SPEC_EXAMPLE["board"].items()))}
    assert GAME.from_position(json.loads(json.dumps(written))) == state


def test_new_prints_the_empty_board_with_the_first_throw(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["new", "--game", "pharaoh", "--players", "red,blue,green", "--seed", "demo"], capsys)
    assert (code, err) == (0, "")
    position = json.loads(out)
    assert position["board"] == {} and position["dice"] == 1 and position["to_move"] == position["first_player"]
    assert 1 <= position["throw"] == position["points"] <= 6


def test_view_hides_the_seed_until_the_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["view", write(tmp_path, SPEC_EXAMPLE), "--as", "red"], capsys)
    shown = json.loads(out)
    assert code == 0 and "seed" not in shown and shown["board"] == SPEC_EXAMPLE["board"]
    assert {k: shown[k] for k in ("throw", "points", "dice", "first_player")} == {
        "throw": 5,
        "points": 4,
        "dice": 6,
        "first_player": "green",
    }
    over = SPEC_EXAMPLE | {"to_move": None, "winner": "green", "reason": "resignation", "resigned": ["red", "yellow"]}
    over["board"] = {"c3": "green:S", "c4": "green:L"}
    code, out, _ = run(["view", write(tmp_path, over)], capsys)
    assert code == 0 and json.loads(out)["seed"] == "demo"


def test_apply_and_moves_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, SPEC_EXAMPLE)
    code, out, _ = run(["moves", path], capsys)
    # Yellow's Large may enter only on a4 (a2 and a3 hold yellow's own pieces); the Small captures on b2.
    listed = ["enter L a4", "a2-b1", "a2-b2", "a2-b3", "a3-a4", "a3-b2", "a3-b3", "a3-b4", "pass", "resign"]
    assert (code, out.splitlines()) == (0, listed)
    code, out, _ = run(["apply", path, "a3-b3"], capsys)
    assert code == 0 and json.loads(out)["board"]["b3"] == "yellow:M" and json.loads(out)["points"] == 2
    code, _, err = run(["apply", path, "c4-d4"], capsys)
    assert code == 1 and err == "you have no piece on c4\n"  # green's Large


def test_an_illegal_step_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["apply", write(tmp_path, SPEC_EXAMPLE), "enter L c1"], capsys)
    assert (code, out) == (1, "") and "not on your edge" in err


REJECTED = [
    ("a corner is not a cell", {"board": {"a1": "red:S"}}, "'a1' is not a cell of the board (the corners are blocked)"),
    ("a cell off the grid", {"board": {"f3": "red:S"}}, "'f3' is not a cell of the board"),
    ("two pieces of one colour and size", {"board": {"b1": "red:S", "c1": "red:S"}}, "two pieces are red:S"),
    ("a colour not seated", {"board": {"b1": "blue:S"}}, "blue is not seated"),
    ("points above the throw", {"throw": 3, "points": 4}, "points (4) cannot be above the throw (3)"),
    ("to_move not seated", {"to_move": "blue"}, "to_move must be one of the players"),
    ("to_move resigned", {"to_move": "red", "resigned": ["red"], "board": {}}, "to_move: red has resigned"),
    ("a game still on with a counting line filled", {"board": {"b3": "red:S", "c3": "red:M", "d3": "red:L"}},
     "red fills the goal-line b3 c3 d3"),
    ("a column filled with three players", {"board": {"c2": "green:S", "c3": "green:M", "c4": "green:L"}},
     "green fills the goal-line c2 c3 c4"),
    ("a bad piece", {"board": {"b1": "red:X"}}, 'b1 must hold a piece like "red:M"'),
    ("a throw that is no face", {"throw": 7}, "throw must be a whole number from 1 to 6"),
    ("too few players", {"players": ["red"]}, "Pharaoh seats 2, 3 or 4 players, not 1"),
    ("another game's file", {"game": "martianchess"}, "martianchess"),
]  # fmt: skip


@pytest.mark.parametrize(("change", "words"), [r[1:] for r in REJECTED], ids=[r[0] for r in REJECTED])
def test_a_rejected_position_exits_2_naming_the_fault(
    change: dict[str, Any], words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = copy.deepcopy(SPEC_EXAMPLE) | change
    with pytest.raises(PositionError, match=None):
        GAME.from_position(bad)
    for command in (["view"], ["moves"], ["apply", "--as", "yellow"]):
        argv = [command[0], write(tmp_path, bad), *command[1:]] + (["pass"] if command[0] == "apply" else [])
        code, out, err = run(argv, capsys)
        assert (code, out) == (2, "") and words in err, (command, err)


# --- the record ------------------------------------------------------------------------------------


def played_record(seed: str = "record") -> tuple[dict[str, Any], Any]:
    """A short game played line by line: red and blue race for the row."""
    state = GAME.new_game(["red", "blue"], seed, {})
    moves: list[tuple[str, str]] = []
    for _ in range(200):
        if GAME.result(state) is not None:
            break
        mover = state.to_move or ""
        listed = [m for m in GAME.legal_moves(state, mover) if str(m) != "resign"]
        move = listed[(len(moves) * 5) % len(listed)]
        for played in play_line(GAME, state, str(move), mover):
            moves.append((mover, played.text))
            state = played.state
    return GAME.make_record(["red", "blue"], {}, seed, moves, GAME.record_result(state)), state


def test_a_record_holds_one_entry_per_step_and_replays() -> None:
    record, state = played_record()
    assert list(record) == ["format", "game", "players", "seed", "moves", "result"]
    assert record["format"] == "pharaoh-game/1" and all(m["move"] != "" for m in record["moves"])
    assert GAME.replay(json.loads(json.dumps(record))) == state


def test_replay_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record, state = played_record()
    code, out, err = run(["replay", write(tmp_path, record, "game.json")], capsys)
    assert (code, err) == (0, "") and out == pretty(GAME.to_position(state)) + "\n"


def test_a_tampered_record_fails_at_its_step(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record, _ = played_record()
    record["moves"][0]["move"] = "enter L b5"  # north's edge
    with pytest.raises(ReplayError) as caught:
        GAME.replay(record)
    assert caught.value.index == 0
    code, _, err = run(["replay", write(tmp_path, record, "game.json")], capsys)
    assert code == 1 and "move 0" in err


def test_a_wrong_result_is_refused() -> None:
    record, state = played_record()
    record["result"] = {"winner": "blue" if state.winner == "red" else "red", "reason": "goal-line"}
    with pytest.raises(ReplayError, match="the record says"):
        GAME.replay(record)


# --- one line, several steps, on the command line ------------------------------------------------

SCENARIO_7 = SPEC_EXAMPLE | {
    "players": ["red", "blue"],
    "first_player": "red",
    "to_move": "red",
    "throw": 4,
    "points": 4,
    "board": {"c3": "red:L", "b3": "red:M", "d2": "red:S"},
}


def test_scenario_7_a_step_after_the_win_refuses_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, SCENARIO_7)
    code, out, err = run(["apply", path, "d2-d3; d3-e3"], capsys)
    assert (code, out, err) == (1, "", "step 2 (d3-e3): comes after your turn or the game ended\n")
    code, out, _ = run(["apply", path, "d2-d3"], capsys)
    assert code == 0 and (json.loads(out)["winner"], json.loads(out)["reason"]) == ("red", "goal-line")


def test_a_line_of_steps_and_a_path_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    start = SPEC_EXAMPLE | {"players": ["red", "blue"], "first_player": "red", "to_move": "red", "board": {}}
    path = write(tmp_path, start | {"throw": 3, "points": 3})
    code, out, _ = run(["apply", path, "enter L c1; pass"], capsys)  # scenario 1: the pass is dropped
    assert code == 0 and json.loads(out)["board"] == {"c1": "red:L"} and json.loads(out)["to_move"] == "blue"
    path = write(tmp_path, start | {"throw": 6, "points": 6})
    code, out, _ = run(["apply", path, "enter S b1; b1-b2-b3"], capsys)
    assert code == 0 and json.loads(out)["board"] == {"b3": "red:S"} and json.loads(out)["points"] == 3

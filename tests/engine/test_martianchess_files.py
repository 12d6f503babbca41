"""Martian Chess notation, position and record files, replay and the command line (martian_chess.md)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.errors import NotationError, PositionError, ReplayError
from engine.kit.base import RESIGN
from engine.martianchess.game import GAME
from engine.martianchess.notation import Pass, Step

ROOT = Path(__file__).resolve().parents[2]
SPEC_EXAMPLE: dict[str, Any] = {
    "format": "martianchess-position/1",
    "game": "martianchess",
    "players": ["red", "blue"],
    "to_move": "red",
    "board": {"a1": "L", "b1": "L", "a2": "L", "c1": "M", "b2": "M", "a3": "M", "c2": "S", "b3": "S", "c3": "S"}
    | {"d8": "L", "c8": "L", "d7": "L", "b8": "M", "c7": "M", "d6": "M", "b7": "S", "c6": "S", "b6": "S"},
    "captured": {"red": [], "blue": []},
    "last_crossing": None,
    "winner": None,
}


# --- notation --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["c2-d3", "c2d3", "c2xd3", "c2 d3", "C2-D3", "  c2 x d3 ", "C2XD3", "c2 - d3"])
def test_every_spelling_of_a_step_reads_the_same(text: str) -> None:
    assert GAME.parse(text) == Step((2, 1), (3, 2))


@pytest.mark.parametrize(("text", "move"), [("pass", Pass()), ("PASS", Pass()), (" Resign ", RESIGN)])
def test_words(text: str, move: Any) -> None:
    assert GAME.parse(text) == move


@pytest.mark.parametrize("text", ["c2-d3", "a1-h8", "pass", "resign", "h8-a1"])
def test_parse_of_str_is_the_same_move(text: str) -> None:
    move = GAME.parse(text)
    assert GAME.parse(str(move)) == move and str(move) == text


@pytest.mark.parametrize("text", ["", "c2", "c2-", "c2-d9", "i1-a1", "c2--d3", "c2-d3-e4", "move c2 d3", "c0-c1"])
def test_unreadable_moves_are_notation_errors(text: str) -> None:
    with pytest.raises(NotationError):
        GAME.parse(text)


# --- the position file ------------------------------------------------------------------------------------


def test_the_spec_example_reads_and_writes_back_with_every_field() -> None:
    state = GAME.from_position(SPEC_EXAMPLE)
    assert state == GAME.new_game(["red", "blue"], "", {}).evolve(to_move="red")
    written = GAME.to_position(state)
    assert {k: written[k] for k in SPEC_EXAMPLE} == SPEC_EXAMPLE
    assert list(written)[:8] == list(SPEC_EXAMPLE)
    assert GAME.from_position(json.loads(json.dumps(written))) == state


def broken(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(SPEC_EXAMPLE)
    for key, value in changes.items():
        if value is KeyError:
            del data[key]
        else:
            data[key] = value
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "must be a JSON object"),
        (broken(game=KeyError), "this is a zarkcity file"),
        (broken(format="martianchess-position/2"), "format must be"),
        (broken(players=["red", "blue", "green"]), "seats 2 or 4 players"),
        (broken(players=["red", "pink"]), "not a player colour"),
        (broken(to_move="green"), "to_move must name a player"),
        (broken(board={"e1": "S", "a8": "S"}), "e1 is off the 2-player board"),
        (broken(board={"a1": "X", "a8": "S"}), "not a size"),
        (broken(board={"z9": "S"}), "board: 'z9' is not a cell"),
        (broken(board={"a1": "S"}), "blue's zone is empty"),
        (broken(captured={"red": ["Q"]}), "captured: red must list sizes"),
        (broken(captured={"green": []}), "captured must be one of the players"),
        (broken(last_crossing={"from": "c4"}), "last_crossing must be null or"),
        (broken(winner="green"), "winner must be one of the players"),
        (broken(winner="red"), "to_move must be null once the game is over"),
        (broken(reason="checkmate"), "reason must be one of"),
        (broken(turn=0), "turn must be a whole number"),
        (broken(resigned=["green"]), "resigned must be one of the players"),
    ],
)
def test_a_broken_position_names_what_is_wrong(data: Any, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        GAME.from_position(data)


# --- the record and replay ------------------------------------------------------------------------------------


def record(moves: list[tuple[str, str]], result: dict[str, Any] | None = None, seed: str = "rec") -> dict[str, Any]:
    return GAME.make_record(["red", "blue"], {}, seed, moves, result)


def opening(seed: str = "rec") -> list[tuple[str, str]]:
    state = GAME.new_game(["red", "blue"], seed, {})
    first = state.to_move or ""
    other = "blue" if first == "red" else "red"
    return [(first, "c3-d4" if first == "red" else "b6-a5"), (other, "b6-a5" if first == "red" else "c3-d4")]


def test_a_record_replays_to_the_state_its_moves_make() -> None:
    moves = opening()
    state = GAME.new_game(["red", "blue"], "rec", {})
    for by, text in moves:
        state = GAME.apply(state, GAME.parse(text), by)
    assert GAME.replay(record(moves)) == state
    assert record(moves)["format"] == "martianchess-game/1"


def test_an_illegal_move_in_a_record_names_its_index() -> None:
    moves = [*opening(), ("red", "a1-a1")]
    with pytest.raises(ReplayError) as raised:
        GAME.replay(record(moves))
    assert raised.value.index == 2


def test_results_are_checked() -> None:
    moves = opening()
    assert GAME.replay(record(moves, {"winner": None, "reason": "draw"})).reason == "draw"
    assert GAME.replay(record(moves, {"winner": None, "reason": "timeout"})).reason == "timeout"
    resigned = [*moves, (moves[0][0], "resign")]
    final = GAME.replay(record(resigned, {"winner": moves[1][0], "reason": "timeout"}))
    assert (final.winner, final.reason) == (moves[1][0], "timeout")
    with pytest.raises(ReplayError, match="the game is not over"):
        GAME.replay(record(moves, {"winner": "red", "reason": "score"}))
    with pytest.raises(PositionError, match="has no winner"):
        GAME.replay(record(moves, {"winner": None, "reason": "score"}))


# --- the command line ------------------------------------------------------------------------------------------


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=60
    )


def test_the_command_line_plays_martian_chess(tmp_path: Path) -> None:
    start = run("new", "--game", "martianchess", "--players", "red,blue", "--seed", "cli-1")
    assert start.returncode == 0, start.stderr
    data = json.loads(start.stdout)
    assert (data["format"], data["game"], data["to_move"]) == ("martianchess-position/1", "martianchess", "blue")
    path = tmp_path / "start.json"
    path.write_text(start.stdout)
    listed = run("moves", str(path))
    assert listed.returncode == 0 and listed.stdout.split()[-1] == "resign"
    assert listed.stdout.split() == [str(m) for m in GAME.legal_moves(GAME.from_position(data), "blue")]
    moved = run("apply", str(path), "B6xA5")
    assert moved.returncode == 0, moved.stderr
    assert json.loads(moved.stdout)["board"]["a5"] == "S"
    seen = run("view", "-", "--as", "red", stdin=moved.stdout)
    assert seen.returncode == 0 and "seed" not in json.loads(seen.stdout)


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("apply", "POS", "b6-b5"), 1, "a Pawn moves one step diagonally"),
        (("apply", "POS", "c3-d4"), 1, "in red's zone: you move only the pieces in yours"),
        (("apply", "POS", "c3-d4", "--as", "red"), 1, "it is blue's turn"),
        (("apply", "POS", "b6-"), 2, "is not a move"),
        (("apply", "POS", "pass"), 1, "pass: only when you have no legal move"),
        (("moves", "POS", "--as", "green"), 2, "not seated"),
        (("new", "--game", "martianchess", "--players", "red,blue,green", "--seed", "s"), 2, "seats 2 or 4"),
        (("new", "--game", "martianchess", "--players", "red,blue", "--seed", "s", "--deck", "arcade"), 2, "no option"),
    ],
)
def test_exit_codes(tmp_path: Path, args: tuple[str, ...], code: int, message: str) -> None:
    path = tmp_path / "start.json"
    path.write_text(run("new", "--game", "martianchess", "--players", "red,blue", "--seed", "cli-1").stdout)
    done = run(*(str(path) if a == "POS" else a for a in args))
    assert (done.returncode, done.stdout) == (code, "")
    assert message in done.stderr


def test_a_broken_position_file_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(broken(board={"a1": "S"})))
    done = run("moves", str(path))
    assert done.returncode == 2 and "blue's zone is empty" in done.stderr

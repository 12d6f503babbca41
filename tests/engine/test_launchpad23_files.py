"""Launch Pad 23's files: the position file and the record round trip, and every rejected case."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.errors import PositionError, ReplayError
from engine.launchpad23.game import GAME
from engine.launchpad23.state import State
from tests.engine.launchpad23_helpers import THREE, position


def playout(players: tuple[str, ...], seed: str, steps: int) -> tuple[State, list[tuple[str, str]]]:
    """Random legal steps from the setup (starts in seating order reversed), with their record entries."""
    chooser = random.Random(seed)
    current = GAME.new_game(players, seed, {})
    moves: list[tuple[str, str]] = []
    for seat in reversed(players):
        pick = f"start {chooser.choice('SML')}"
        current = GAME.apply(current, GAME.parse(pick), seat)
        moves.append((seat, pick))
    for _ in range(steps):
        if GAME.result(current) is not None:
            break
        seat = GAME.movers(current)[0]
        move = chooser.choice([m for m in GAME.legal_moves(current, seat) if not GAME.is_resign(m)])
        current = GAME.apply(current, move, seat)
        moves.append((seat, str(move)))
    return current, moves


@pytest.mark.parametrize("players", [("red", "blue"), THREE, ("red", "yellow", "green", "blue")])
@pytest.mark.parametrize("seed", ["one", "two"])
def test_position_round_trip(players: tuple[str, ...], seed: str) -> None:
    current, _ = playout(players, seed, 60)
    written = json.loads(json.dumps(GAME.to_position(current)))
    again = GAME.from_position(written)
    assert GAME.to_position(again) == written
    assert [str(m) for m in GAME.legal_moves(again, again.to_move or "red")] == [
        str(m) for m in GAME.legal_moves(current, current.to_move or "red")
    ]


def test_setup_position_round_trip() -> None:
    current = GAME.apply(GAME.new_game(THREE, "s", {}), GAME.parse("start L"), "yellow")
    written = GAME.to_position(current)
    assert written["starts"] == {"red": None, "yellow": "L", "green": None} and written["to_move"] is None
    assert GAME.to_position(GAME.from_position(written)) == written


def test_spec_example_reads() -> None:
    example = position(
        {"a1": ["red:M", "blue:M"], "b1": ["red:S"], "c1": ["yellow:S"], "b2": ["green:M"],
         "a3": ["yellow:L", "black:L"], "c3": ["green:S"]},
        players=THREE, throw=("S/M", "atom"), moves_left=3, dice=12,
    )  # fmt: skip
    example["starts"] = {"red": "M", "yellow": "L", "green": "S"}
    example["first_player"] = "yellow"
    written = GAME.to_position(GAME.from_position(example))
    assert written["board"]["a1"] == ["red:M", "blue:M"]  # large first, then colour order


def broken(change: dict[str, Any], board: dict[str, list[str]] | None = None, **given: Any) -> dict[str, Any]:
    data = position(board if board is not None else {"a1": ["red:M"]}, **given)
    data.update(change)
    return data


REJECTED = {
    "three of a kind": (broken({}, {"a1": ["red:M"], "b1": ["red:M"], "c1": ["red:M"]}), "more than 2"),
    "cell off the grid": (broken({}, {"d4": ["red:M"]}), "not a cell"),
    "colour not seated": (broken({"to_move": "black"}), "seated colour"),
    "rocket in a game on": (broken({}, {"a1": ["red:S", "yellow:S", "green:S", "blue:S", "black:S"]}), "rocket"),
    "moves beyond the throw": (broken({"moves_left": 3}), "more than the throw"),
    "to_move in setup": (broken({"phase": "start", "throw": None}), "during setup"),
    "wrong format": (broken({"format": "launchpad23-position/2"}), "format"),
    "unknown phase": (broken({"phase": "launch"}), "phase"),
    "bad face": (broken({"throw": {"size": "XL", "colour": "red"}}), "faces"),
    "bad piece": (broken({}, {"a1": ["red:X"]}), "not a piece"),
    "five players": (broken({"players": ["red", "yellow", "green", "blue", "black"]}), "2 to 4"),
    "starts of strangers": (broken({"starts": {"red": "M"}}), "starts"),
    "over without reason": (broken({"phase": "over"}), "reason"),
    "resigned mover": (broken({"resigned": ["red"]}), "resigned"),
    "not an object": ([], "JSON object"),
}


@pytest.mark.parametrize("name", sorted(REJECTED))
def test_position_rejected(name: str) -> None:
    data, words = REJECTED[name]
    with pytest.raises(PositionError, match=words):
        GAME.from_position(data)


def test_record_round_trip() -> None:
    current, moves = playout(THREE, "record", 80)
    record = GAME.make_record(THREE, {}, "record", moves, GAME.record_result(current))
    assert record["format"] == "launchpad23-game/1" and record["moves"][0] == {"by": "green", "move": moves[0][1]}
    assert not any(entry["move"].startswith("throw") for entry in record["moves"])
    assert GAME.to_position(GAME.replay(json.loads(json.dumps(record)))) == GAME.to_position(current)


def test_record_with_resignations_replays() -> None:
    current = GAME.new_game(THREE, "r", {})
    moves = [("red", "start S"), ("yellow", "start M"), ("green", "resign")]
    for by, text in moves:
        current = GAME.apply(current, GAME.parse(text), by)
    record = GAME.make_record(THREE, {}, "r", moves, None)
    assert GAME.to_position(GAME.replay(record)) == GAME.to_position(current)
    ended = GAME.resign(current, "red")
    final = GAME.make_record(THREE, {}, "r", [*moves, ("red", "resign")], GAME.record_result(ended))
    assert GAME.replay(final).winners == ("yellow",)


RECORD_REJECTS = {
    "wrong game": ({"game": "homeworlds"}, PositionError),
    "wrong format": ({"format": "launchpad23-game/2"}, PositionError),
    "one player": ({"players": ["red"]}, PositionError),
    "an illegal step": ({"moves": [{"by": "red", "move": "add M red"}]}, ReplayError),
    "a changed pick": ({"moves": [{"by": "red", "move": "start M"}, {"by": "red", "move": "start S"}]}, ReplayError),
    "a false winner": ({"result": {"winner": "red", "reason": "rocket"}}, ReplayError),
    "unknown reason": ({"result": {"winner": "red", "reason": "launch"}}, PositionError),
}


@pytest.mark.parametrize("name", sorted(RECORD_REJECTS))
def test_record_rejected(name: str) -> None:
    change, error = RECORD_REJECTS[name]
    record = {**GAME.make_record(("red", "blue"), {}, "x", [], None), **change}
    with pytest.raises(error):
        GAME.replay(record)


# --- `;` lines through the command line (spec "Notation", scenario 13) ---------------------------


def cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    out = io.StringIO()
    code = main(argv, out)
    return code, out.getvalue(), capsys.readouterr().err


@pytest.mark.parametrize(
    ("line", "code", "said"),
    [
        ("M red b2-b1; pass", 0, ""),  # scenario 13: one move, then the turn ends on `pass`
        ("M red b2-b1; M red b1-a1; pass", 0, ""),  # the moves spent: the trailing `pass` is dropped
        ("M red b2-b1; M red b1-a1; M red a1-a2", 1, "step 3 (M red a1-a2): comes after your turn"),
        ("M red b2-b1; M red b2-a1", 1, "step 2 (M red b2-a1)"),  # all or nothing
        ("reroll; pass", 1, "step 1 (reroll): reroll must be last on its line"),
    ],
)
def test_a_line_of_steps_through_the_command_line(
    line: str, code: int, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = {"a1": ["red:S"], "a3": ["yellow:M"], "c3": ["green:M"], "b2": ["red:M"]}
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position(board, players=THREE, moves_left=2)), encoding="utf-8")
    exit_code, out, err = cli(["apply", str(path), line, "--as", "red"], capsys)
    assert (exit_code, said in err) == (code, True), err
    if code == 0:
        assert json.loads(out)["to_move"] == "yellow"

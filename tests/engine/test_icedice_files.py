"""IceDice's position file and record (icedice.md): round trips, replay, and every rejected case (CLI exit 2)."""

from __future__ import annotations

import copy
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.errors import PositionError, ReplayError
from engine.icedice.game import GAME
from engine.kit.base import RESIGN

ROOT = Path(__file__).resolve().parents[2]
SPEC_EXAMPLE: dict[str, Any] = {
    "format": "icedice-position/1",
    "game": "icedice",
    "players": ["red", "blue"],
    "first_player": "blue",
    "to_move": "red",
    "phase": "take",
    "throw": {"size": "S/M", "colour": "atom"},
    "counter": ["yellow:L"],
    "vaults": {"red": ["red:S", "red:M", "green:L"], "blue": ["green:S", "green:M", "blue:S", "blue:S"]},
    "dice": 16,
    "resigned": [],
    "winner": None,
    "reason": None,
    "seed": "demo",
}


def test_the_spec_example_reads_writes_back_and_offers_what_the_spec_lists() -> None:
    state = GAME.from_position(copy.deepcopy(SPEC_EXAMPLE))
    assert GAME.to_position(state) == SPEC_EXAMPLE
    assert sorted(str(m) for m in GAME.legal_moves(state, "red")[:-1]) == sorted(
        ["take S red", "take M red", "take S green", "take M green", "take M blue"]
        + ["take S black", "take M black", "take S blue from blue"]
    )


def test_the_view_shows_the_bank_but_the_seed_only_once_the_game_is_over() -> None:
    state = GAME.from_position(copy.deepcopy(SPEC_EXAMPLE))
    shown = GAME.view(state, "blue")
    assert "seed" not in shown and "demo" not in json.dumps(shown)
    assert shown["bank"]["blue:S"] == 0 and shown["bank"]["red:L"] == 2 and shown["bank"]["yellow:L"] == 1  # type: ignore[typeddict-item]
    over = GAME.view(GAME.resign(state, "blue"), None)
    assert over["seed"] == "demo"  # type: ignore[typeddict-item]


def broken(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(SPEC_EXAMPLE)
    data.update(changes)
    return data


REJECTED = [
    (broken(vaults={"red": ["red:S", "red:S"], "blue": ["red:S"]}), "3 pieces of red:S"),
    (broken(counter=["yellow:L", "yellow:S"]), "two pieces of one colour"),
    (broken(phase="decide", counter=["red:L", "yellow:S", "green:S", "blue:M", "black:S"]), "all five colours"),
    (
        broken(
            vaults={"red": ["red:S", "red:M", "red:L", "green:S", "green:M", "green:L", "blue:S", "blue:M", "blue:L"]}
        ),
        "holds three Trios",
    ),
    (broken(throw={"size": "L", "colour": "red"}), "phase take needs a throw that offers two takes"),
    (broken(throw={"size": "S/M", "colour": "yellow"}), "already on the Counter (that throw busts)"),
    (broken(to_move="green"), "'green' is not a colour seated"),
    (broken(players=["red", "purple"]), "distinct colours"),
    (broken(players=["red"]), "seats 2, 3, 4, 5 players"),
    (broken(vaults={"green": []}), "'green' is not a colour seated"),
    (broken(counter=["yellow:XL"]), "is not a piece"),
    (broken(throw={"size": "S/M/L", "colour": "atom"}), "throw must be null or"),
    (broken(phase="roll"), "phase must be one of take, decide, over"),
    (broken(dice=3), "dice must be an even count"),
    (broken(format="icedice-game/1"), "format must be 'icedice-position/1'"),
    (broken(reason="trios"), "phase over goes with a reason"),
    (broken(phase="over", reason="trios", winner="red"), "to_move must be null once the game is over"),
]


@pytest.mark.parametrize(("data", "message"), REJECTED, ids=[m for _, m in REJECTED])
def test_a_broken_position_exits_2_naming_the_fault(
    data: dict[str, Any], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(PositionError, match=re.escape(message)):
        GAME.from_position(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    assert main(["moves", str(path)], out=io.StringIO()) == 2
    assert message in capsys.readouterr().err


# --- the record --------------------------------------------------------------------------------------------


def played(seed: str, steps: int) -> tuple[list[tuple[str, str]], Any]:
    """The first `steps` steps of a game where each mover takes the first listed take, rolls twice, then stops."""
    state = GAME.new_game(["red", "blue"], seed, {})
    moves: list[tuple[str, str]] = []
    rolls = 0
    for _ in range(steps):
        if GAME.result(state) is not None:
            break
        mover = state.to_move
        listed = GAME.legal_moves(state, mover)[:-1]
        move = listed[0] if state.phase == "take" else listed[0 if rolls < 2 else 1]
        rolls = 0 if str(move) == "stop" else rolls + (str(move) == "roll")
        before = state
        state = GAME.apply(state, move, mover)
        rolls = 0 if before.to_move != state.to_move else rolls
        moves.append((mover, str(move)))
    return moves, state


def test_a_record_replays_to_the_state_its_moves_make_and_round_trips() -> None:
    moves, state = played("rec", 400)
    assert GAME.result(state) is not None
    record = GAME.make_record(["red", "blue"], {}, "rec", moves, GAME.record_result(state))
    assert set(record) == {"format", "game", "players", "seed", "moves", "result"}
    assert record["format"] == "icedice-game/1" and record["result"]["reason"] == "trios"
    assert GAME.replay(json.loads(json.dumps(record))) == state
    assert GAME.from_position(json.loads(json.dumps(GAME.to_position(state)))) == state


def test_a_record_with_an_illegal_step_names_its_index_and_a_wrong_result_is_refused() -> None:
    moves, state = played("rec", 400)
    record = GAME.make_record(["red", "blue"], {}, "rec", moves, GAME.record_result(state))
    forged = copy.deepcopy(record)
    forged["moves"][3] = {"by": forged["moves"][3]["by"], "move": "take L black from red"}
    with pytest.raises(ReplayError) as error:
        GAME.replay(forged)
    assert error.value.index == 3
    wrong = copy.deepcopy(record)
    wrong["result"] = {"winner": "blue" if state.winner == "red" else "red", "reason": "trios"}
    with pytest.raises(ReplayError, match="the record says"):
        GAME.replay(wrong)


def test_a_resignation_and_a_timeout_replay() -> None:
    moves, state = played("short", 5)
    loser = state.to_move
    ended = GAME.resign(state, loser)
    for reason in ("resignation", "timeout"):
        record = GAME.make_record(
            ["red", "blue"], {}, "short", [*moves, (loser, str(RESIGN))], {"winner": ended.winner, "reason": reason}
        )
        assert GAME.result(GAME.replay(record)).reason == reason  # type: ignore[union-attr]


# --- the command line ---------------------------------------------------------------------------------------


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=60
    )


def test_the_command_line_plays_icedice(tmp_path: Path) -> None:
    start = run("new", "--game", "icedice", "--players", "red,blue", "--seed", "demo")
    assert start.returncode == 0, start.stderr
    data = json.loads(start.stdout)
    assert (data["format"], data["first_player"], data["dice"]) == ("icedice-position/1", "blue", 2)
    path = tmp_path / "start.json"
    path.write_text(start.stdout)
    listed = run("moves", str(path))
    assert listed.stdout.split() == ["roll", "stop", "resign"]
    stopped = run("apply", str(path), "stop")
    assert stopped.returncode == 0 and json.loads(stopped.stdout)["vaults"]["blue"] == ["yellow:S"]
    seen = run("view", "-", "--as", "red", stdin=stopped.stdout)
    assert seen.returncode == 0 and "seed" not in json.loads(seen.stdout) and "bank" in json.loads(seen.stdout)
    moves, state = played("cli", 400)
    record = tmp_path / "game.json"
    record.write_text(json.dumps(GAME.make_record(["red", "blue"], {}, "cli", moves, GAME.record_result(state))))
    replayed = run("replay", str(record))
    assert replayed.returncode == 0 and json.loads(replayed.stdout) == GAME.to_position(state)


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["apply", "POS", "take M red"], 1, "there is no choice to make now"),
        (["apply", "POS", "roll", "--as", "red"], 1, "Not your turn"),
        (["apply", "POS", "take M purple"], 2, "is not a colour"),
        (["moves", "POS", "--as", "green"], 2, "not seated"),
        (["new", "--game", "icedice", "--players", "red", "--seed", "s"], 2, "IceDice seats 2 to 5 players"),
        (["new", "--game", "icedice", "--players", "red,blue", "--seed", "s", "--deck", "arcade"], 2, "no option"),
    ],
)
def test_exit_codes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], code: int, message: str
) -> None:
    path = tmp_path / "start.json"
    path.write_text(json.dumps(GAME.to_position(GAME.new_game(["red", "blue"], "demo", {}))))
    assert main([str(path) if a == "POS" else a for a in args], out=io.StringIO()) == code
    assert message in capsys.readouterr().err

"""`python -m engine ...` run as a subprocess: every command, its output and its exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.zarkcity.cards import CARDS
from engine.zarkcity.game import GAME
from engine.zarkcity.position import dumps, from_position
from engine.zarkcity.state import Square, State

ROOT = Path(__file__).resolve().parents[2]


def engine(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=60
    )


def ok(*args: str, stdin: str | None = None) -> str:
    run = engine(*args, stdin=stdin)
    assert (run.returncode, run.stderr) == (0, "")
    return run.stdout


def fails(code: int, *args: str, stdin: str | None = None) -> str:
    run = engine(*args, stdin=stdin)
    assert run.returncode == code, (run.stdout, run.stderr)
    assert run.stdout == ""
    assert run.stderr.count("\n") == 1, run.stderr
    return run.stderr


def number_card(hand: list[str]) -> str:
    return next(card for card in hand if CARDS[card].is_number)


@pytest.fixture
def dealt(tmp_path: Path) -> Path:
    path = tmp_path / "start.json"
    path.write_text(ok("new", "--players", "red,blue", "--seed", "demo"))
    return path


def red_to_act(hand: tuple[str, ...], deck: tuple[str, ...]) -> State:
    """Turn 1, red to act with `hand`, next to its own card; blue holds 2C."""
    return State(
        "standard",
        ("red", "blue"),
        "act",
        "red",
        {(0, 0): Square("9S", (("red", "S"),)), (1, 0): Square("9D", (("blue", "S"),))},
        {"red": hand, "blue": ("2C",)},
        deck,
        (),
        seed="x",
        turn=1,
        first_player="red",
    )


@pytest.fixture
def acting(tmp_path: Path) -> Path:
    """Red to act with 7H in hand, next to its own card."""
    path = tmp_path / "acting.json"
    path.write_text(dumps(red_to_act(("7H", "KH"), ("3C", "4C"))))
    return path


def test_new_prints_the_dealt_position() -> None:
    data = json.loads(ok("new", "--players", "red,blue", "--seed", "demo"))
    state = from_position(data)
    assert (state.phase, state.to_move, state.players, state.seed) == ("choose", None, ("red", "blue"), "demo")
    assert len(state.deck) == 54 - len(state.hands["red"]) - len(state.hands["blue"])


def test_new_arcade_deck() -> None:
    data = json.loads(ok("new", "--players", "red,green,black", "--seed", "demo", "--deck", "arcade"))
    assert data["deck_type"] == "arcade"
    assert "JK" not in data["deck"]


@pytest.mark.parametrize(
    "args",
    [
        ("new", "--players", "red", "--seed", "s"),
        ("new", "--players", "red,pink", "--seed", "s"),
        ("new", "--players", "red,blue", "--seed", "s", "--deck", "tarot"),
        ("new", "--players", "red,blue"),
        ("frobnicate",),
        (),
    ],
)
def test_bad_arguments_exit_2(args: tuple[str, ...]) -> None:
    fails(2, *args)


def test_choose_needs_as_then_works_from_stdin(dealt: Path) -> None:
    text = dealt.read_text()
    card = number_card(json.loads(text)["hands"]["red"])
    assert "needs --as" in fails(2, "apply", str(dealt), f"choose {card}")
    after = json.loads(ok("apply", "-", f"choose {card.lower()}", "--as", "red", stdin=text))
    assert after["starters"] == [["red", card]]


def test_seated_player_who_may_not_move_exits_1(acting: Path) -> None:
    message = fails(1, "apply", str(acting), "draw", "--as", "blue")
    assert "turn" in message.lower()


def test_unseated_colour_exits_2(acting: Path) -> None:
    assert "not seated" in fails(2, "apply", str(acting), "draw", "--as", "green")
    assert "not a player colour" in fails(2, "apply", str(acting), "draw", "--as", "pink")
    assert "not seated" in fails(2, "moves", str(acting), "--as", "green")
    assert "not seated" in fails(2, "view", str(acting), "--as", "green")


def test_apply_legal_illegal_malformed(acting: Path) -> None:
    after = json.loads(ok("apply", str(acting), "build 7H 0,1"))
    assert {"at": [0, 1], "card": "7H", "pieces": {}} in after["board"]
    assert after["to_move"] == "blue"
    assert fails(1, "apply", str(acting), "build 7H 5,5").startswith("Build")
    assert "not a move" in fails(2, "apply", str(acting), "bulid 7H 0,1")
    assert "is not a cell" in fails(2, "apply", str(acting), "build 7H 0;1")


def test_resign_needs_as(acting: Path) -> None:
    assert "needs --as" in fails(2, "apply", str(acting), "resign")
    after = json.loads(ok("apply", str(acting), "resign", "--as", "blue"))
    assert (after["phase"], after["winner"], after["reason"]) == ("over", "red", "resignation")


def test_nobody_to_move_needs_as(dealt: Path) -> None:
    assert "nobody is to move" in fails(2, "apply", str(dealt), "draw")
    assert "nobody is to move" in fails(2, "moves", str(dealt))


def test_bad_position_exits_2(tmp_path: Path) -> None:
    assert "bad JSON" in fails(2, "moves", "-", stdin="{nope")
    assert "format must be" in fails(2, "moves", "-", stdin="{}")
    assert "cannot read" in fails(2, "moves", str(tmp_path / "missing.json"))
    board: Any = [{"at": [0, 0], "card": "QS", "pieces": {}}]
    data = {"format": "zarkcity-position/1", "deck_type": "standard", "players": ["red", "blue"], "phase": "act"}
    assert "face card" in fails(2, "view", "-", stdin=json.dumps(data | {"to_move": "red", "board": board}))


def test_moves_lists_canonical_moves(acting: Path, dealt: Path) -> None:
    lines = ok("moves", str(acting)).splitlines()
    assert lines[0] == "draw"
    assert "build 7H 0,1" in lines
    assert "demolish blue S 1,0 pay KH" in lines  # one card is never redundant: KH beats a small, change 2
    assert lines[-1] == "resign"
    assert ok("moves", str(acting), "--as", "blue") == "resign\n"  # waiting players may only resign
    chooses = ok("moves", str(dealt), "--as", "blue").splitlines()
    assert chooses and all(line.startswith("choose ") for line in chooses[:-1])


def test_view_hides_the_other_hand(acting: Path) -> None:
    seen = json.loads(ok("view", str(acting), "--as", "blue"))
    assert seen["format"] == "zarkcity-view/1"
    assert seen["hand"] == ["2C"]
    assert seen["hand_sizes"] == {"red": 2, "blue": 1}
    assert "7H" not in json.dumps(seen) and "deck" not in seen
    spectator = json.loads(ok("view", "-", stdin=acting.read_text()))
    assert spectator["viewer"] is None and "hand" not in spectator


def write_record(tmp_path: Path, moves: list[tuple[str, str]], result: dict[str, Any] | None = None) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(GAME.make_record(["red", "blue"], {"deck": "standard"}, "demo", moves, result)))
    return path


def test_replay(tmp_path: Path, dealt: Path) -> None:
    hands = json.loads(dealt.read_text())["hands"]
    moves = [("red", f"choose {number_card(hands['red'])}"), ("blue", f"choose {number_card(hands['blue'])}")]
    final = json.loads(ok("replay", str(write_record(tmp_path, moves))))
    assert final["phase"] == "place"
    resigned = json.loads(ok("replay", str(write_record(tmp_path, [*moves, ("red", "resign")]))))
    assert resigned["winner"] == "blue"
    message = fails(1, "replay", str(write_record(tmp_path, [*moves, ("red", "build 2C 99,99")])))
    assert message.startswith("move 2 (red: build 2C 99,99): ")
    wrong = write_record(tmp_path, [*moves, ("red", "resign")], {"winner": "red", "reason": "resignation"})
    assert "the record says red won by resignation" in fails(1, "replay", str(wrong))
    assert "not a move" in fails(2, "replay", str(write_record(tmp_path, [("red", "dance")])))
    assert "bad JSON" in fails(2, "replay", "-", stdin="[")


def test_docs_shuffle_test_vector() -> None:
    """docs/notation.md's worked example: seed "demo", shuffle 0, the first ten cards and the deal."""
    data = json.loads(ok("new", "--players", "red,blue", "--seed", "demo"))
    assert data["hands"] == {"red": ["5C", "AS", "KH"], "blue": ["8S", "7S", "JD"]}
    assert data["deck"][:4] == ["AD", "8D", "2S", "JK"]
    assert data["shuffles"] == 0
    docs = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")
    assert "5C 8S AS 7S KH JD AD 8D 2S JK" in docs


def test_a_file_that_is_not_utf8_exits_2_with_one_line(tmp_path: Path) -> None:
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe{}")
    assert "is not UTF-8 text" in fails(2, "moves", str(binary), "--as", "red")
    run = subprocess.run(
        [sys.executable, "-m", "engine", "moves", "-", "--as", "red"], cwd=ROOT, input=b"\xff{}", capture_output=True
    )
    assert run.returncode == 2 and b"standard input is not UTF-8 text" in run.stderr


def test_a_huge_cell_is_refused_and_not_echoed_whole(acting: Path) -> None:
    message = fails(2, "apply", str(acting), "build 7H " + "9" * 400 + ",0")
    assert "is not a cell" in message and len(message) < 200


def test_new_reads_colours_and_deck_in_any_case() -> None:
    assert json.loads(ok("new", "--players", "Red,BLUE", "--seed", "s", "--deck", "ARCADE"))["players"] == [
        "red",
        "blue",
    ]


@pytest.fixture
def full_hand(tmp_path: Path) -> Path:
    """Red to act with six cards: a draw takes three, and the turn ends with a discard of three."""
    path = tmp_path / "full.json"
    path.write_text(dumps(red_to_act(("7H", "KH", "2H", "3H", "4H", "5H"), ("3C", "4C", "5C", "6C"))))
    return path


def test_apply_a_line_of_steps_in_order(full_hand: Path) -> None:
    after = json.loads(ok("apply", str(full_hand), "draw; discard 2H 3H 4H"))
    assert (after["to_move"], after["discard"]) == ("blue", ["2H", "3H", "4H"])
    assert sorted(after["hands"]["red"]) == ["3C", "4C", "5C", "5H", "7H", "KH"]


def test_a_refused_step_refuses_the_line_and_names_it(full_hand: Path) -> None:
    assert fails(1, "apply", str(full_hand), "draw; discard 2H").startswith("step 2 (discard 2H): ")
    assert fails(2, "apply", str(full_hand), "draw; discrd 2H").startswith("step 2 (discrd 2H): ")

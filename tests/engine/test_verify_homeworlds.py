"""engine/homeworlds/verify.py, Homeworlds' offline verifier: every game of the golden corpus and
random games under every option verify, forged records are refused naming the move, and the file
runs on the standard library alone.

The verifier is an independent re-implementation (who starts, the options, every step, the result);
this test loads it by its path, as a player would run it.
"""

from __future__ import annotations

import copy
import gzip
import importlib.util
import itertools
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.homeworlds import PACKAGE
from engine.homeworlds.game import GAME
from engine.kit.base import RESIGN
from engine.shuffle import commitment

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "engine" / "homeworlds" / "verify.py"
CORPUS = ROOT / "tests" / "engine" / "golden" / "homeworlds-sdg-sample.jsonl.gz"
_spec = importlib.util.spec_from_file_location("homeworlds_verify", SCRIPT)
assert _spec is not None and _spec.loader is not None
verify = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(verify)

OPTIONS = [
    {"catastrophes": c, "suicide": s, "setup": t}
    for c, s, t in itertools.product(("anytime", "end"), ("legal", "illegal"), ("standard", "free"))
]


def corpus() -> list[dict[str, Any]]:
    """The corpus's records with the result the engine's replay gives (a game the transcript leaves
    unfinished, stopped by a resignation or a time-out there, is stated as drawn)."""
    with gzip.open(CORPUS, "rt", encoding="utf-8") as lines:
        records = [json.loads(line)["record"] for line in lines]
    for record in records:
        record["result"] = GAME.record_result(GAME.replay(record)) or {"winner": None, "reason": "draw"}
    return records


def random_game(seed: str, options: dict[str, str], plies: int = 400) -> dict[str, Any]:
    """Random steps (catastrophes and sacrifices included) until a homeworld falls, or a resignation."""
    rng, players = random.Random(seed), ["red", "yellow"]
    state = GAME.new_game(players, seed, options)
    moves: list[tuple[str, str]] = []
    while GAME.result(state) is None:
        mover = state.to_move or ""
        steps = GAME.legal_moves(state, mover)[:-1]
        move: Any = RESIGN if len(moves) >= plies else rng.choice(steps)
        state = GAME.apply(state, move, mover)
        moves.append((mover, str(move)))
    return GAME.make_record(players, options, seed, moves, GAME.record_result(state))


def run(path: Path, *more: str) -> subprocess.CompletedProcess[str]:
    """The verifier as a player runs it: by its path, with no engine on the import path."""
    return subprocess.run([sys.executable, "-I", str(SCRIPT), str(path), *more], capture_output=True, text=True)


def written(tmp_path: Path, record: Any, name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(record))
    return path


def test_the_package_declares_the_verifier() -> None:
    """tests/engine/test_packages.py checks that it imports only the standard library."""
    assert PACKAGE.verifier == "verify.py" and PACKAGE.verifier_path == str(SCRIPT)


def test_every_corpus_game_verifies(tmp_path: Path) -> None:
    records = corpus()
    assert len(records) == 300
    for index, record in enumerate(records):
        path = written(tmp_path, record, f"sdg{index}.json")
        assert verify.main([str(path), "--commitment", commitment(record["seed"])]) == 0, record["seed"]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(o.values()))
def test_random_games_verify_under_every_option(options: dict[str, str]) -> None:
    for seed in ("a", "b", "c"):
        record = random_game(f"{seed}-{'-'.join(options.values())}", options)
        assert verify.verify(record).startswith("verified:"), record


def test_a_record_verifies_from_the_command_line(tmp_path: Path) -> None:
    record = random_game("cli", OPTIONS[0])
    result = run(written(tmp_path, record), "--commitment", commitment("cli"), "--verbose")
    assert result.returncode == 0, result.stderr
    assert "commitment: SHA-256(seed) matches" in result.stdout and f"all {len(record['moves'])} moves" in result.stdout


def test_a_tampered_step_is_refused_naming_it(tmp_path: Path) -> None:
    forged = copy.deepcopy(corpus()[0])
    forged["moves"][4]["move"] = "build g3 North"  # not the smallest green in the bank
    result = run(written(tmp_path, forged))
    assert result.returncode == 1 and result.stderr.startswith("REJECTED: move 4 ("), result.stderr


def test_a_false_winner_is_refused(tmp_path: Path) -> None:
    record = next(r for r in corpus() if r["result"]["reason"] == "homeworld")
    loser = next(p for p in record["players"] if p != record["result"]["winner"])
    forged = {**record, "result": {"winner": loser, "reason": "homeworld"}}
    result = run(written(tmp_path, forged))
    assert result.returncode == 1 and "the record says" in result.stderr


def test_a_wrong_commitment_is_refused(tmp_path: Path) -> None:
    result = run(written(tmp_path, random_game("seed", OPTIONS[0])), "--commitment", commitment("other"))
    assert result.returncode == 1 and "not the commitment" in result.stderr


@pytest.mark.parametrize(
    "change",
    [{"format": "pharaoh-game/1"}, {"players": ["red"]}, {"options": {"suicide": "sometimes"}}, {"moves": [3]}],
    ids=["format", "players", "options", "moves"],
)
def test_a_malformed_record_exits_2(tmp_path: Path, change: dict[str, Any]) -> None:
    result = run(written(tmp_path, {**random_game("bad", OPTIONS[0], plies=20), **change}))
    assert result.returncode == 2 and "malformed record" in result.stderr
    (tmp_path / "broken.json").write_text("{not json")
    assert run(tmp_path / "broken.json").returncode == 2


def test_the_rulings_the_options_change_are_checked() -> None:
    """The spec's scenario 5: moving your only homeworld ship away loses by default, and is refused
    under suicide=illegal; setup=standard refuses a small first ship."""
    moves = [
        ("yellow", "homeworld y2 b1 g3"),
        ("red", "homeworld g2 b3 y3"),
        ("yellow", "discover g3 North y3 Far"),
    ]
    first = verify.shuffled(["red", "yellow"], "demo", 0)[0]
    assert first == "yellow"
    record = GAME.make_record(["red", "yellow"], {}, "demo", moves, {"winner": "red", "reason": "homeworld"})
    assert verify.verify(record).startswith("verified:")
    illegal = {**record, "options": {"suicide": "illegal"}}
    with pytest.raises(verify.Rejected, match="move 2 .*suicide=illegal"):
        verify.verify(illegal)
    small = {
        **record,
        "moves": [{"by": "yellow", "move": "homeworld y2 b1 g1"}],
        "result": {"winner": None, "reason": "draw"},
    }
    with pytest.raises(verify.Rejected, match="move 0 .*setup=standard"):
        verify.verify(small)
    assert verify.verify({**small, "options": {"setup": "free"}}).startswith("verified:")


def test_a_yellow_sacrifice_may_empty_the_homeworld_but_not_end_the_turn_so() -> None:
    """The spec's scenario 6: `sacrifice y3 North; done` loses by default and is refused under
    suicide=illegal; bringing a ship home first is legal in both."""
    opening = ["homeworld y2 b1 g3", "homeworld g2 b3 y3", "build g1 North", "pass", "discover g1 North r3 Far"]
    opening += ["pass", "trade g3 y3 North", "pass", "sacrifice y3 North"]
    seats = ["yellow", "red"] * 4 + ["yellow"]
    lost = [*zip(seats, opening, strict=True), ("yellow", "done")]
    back = [*lost[:-1], ("yellow", "move g1 Far North"), ("yellow", "done")]
    for suicide in ("legal", "illegal"):
        options = {"catastrophes": "anytime", "suicide": suicide, "setup": "standard"}
        record = GAME.make_record(["red", "yellow"], options, "demo", back, {"winner": None, "reason": "draw"})
        GAME.replay(record)
        assert verify.verify(record).startswith("verified:")
        record = {**record, "moves": [{"by": by, "move": move} for by, move in lost]}
        record["result"] = {"winner": "red", "reason": "homeworld"}
        if suicide == "legal":
            GAME.replay(record)
            assert verify.verify(record).startswith("verified:")
        else:
            with pytest.raises(verify.Rejected, match="move 9 .*suicide=illegal"):
                verify.verify(record)

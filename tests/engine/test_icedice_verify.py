"""engine/icedice/verify.py: the standard-library verifier of IceDice records, against engine-written records.

It re-implements the shuffle and the rules; the golden records and random engine games must verify, and
forged ones (a step that cannot have happened, a wrong result, a seed that is not the commitment's) must not.
"""

from __future__ import annotations

import ast
import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.icedice import PACKAGE
from engine.icedice import verify as verifier
from engine.icedice.game import GAME
from engine.kit.base import RESIGN
from engine.shuffle import commitment

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "engine" / "icedice" / "verify.py"
GOLDEN = sorted((ROOT / "tests" / "engine" / "golden").glob("icedice-*.record.json"))


def golden(name: str) -> dict[str, Any]:
    return json.loads((ROOT / "tests" / "engine" / "golden" / f"icedice-{name}.record.json").read_text())


def random_game(seed: str, players: list[str]) -> dict[str, Any]:
    rng = random.Random(seed)
    state = GAME.new_game(players, seed, {})
    moves: list[tuple[str, str]] = []
    while GAME.result(state) is None:
        mover = state.to_move or ""
        if rng.random() < 0.003:
            mover = rng.choice([p for p in players if p not in state.resigned])
            move: Any = RESIGN
        else:
            move = rng.choice(GAME.legal_moves(state, mover)[:-1])
        state = GAME.apply(state, move, mover)
        moves.append((mover, str(move)))
    return GAME.make_record(players, {}, seed, moves, GAME.record_result(state))


def test_the_package_declares_the_verifier_and_it_imports_only_the_standard_library() -> None:
    assert PACKAGE.verifier == "verify.py" and (ROOT / "engine" / "icedice" / PACKAGE.verifier).is_file()
    tree = ast.parse(SCRIPT.read_text())
    imported = {
        alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    }
    imported |= {
        node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name)
def test_a_golden_record_verifies_by_the_command_line(path: Path) -> None:
    record = json.loads(path.read_text())
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(path), "--commitment", commitment(record["seed"]), "-v"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "commitment: SHA-256(seed) matches" in done.stdout and "threw" in done.stdout
    assert done.stdout.rstrip().splitlines()[-1].startswith("verified: who starts, all")


@pytest.mark.parametrize("seed", [f"verify-{n}" for n in range(12)])
def test_random_engine_games_verify(seed: str) -> None:
    players = ["red", "yellow", "green", "blue", "black"][: 2 + int(seed[-1]) % 4]
    assert verifier.verify(random_game(seed, players)).startswith("verified")


def forge(change: Any) -> dict[str, Any]:
    record = copy.deepcopy(golden("two"))
    change(record)
    return record


FORGED = [
    ("another seed", lambda r: r.update(seed="forged"), "move"),
    ("a step out of turn", lambda r: r["moves"].__setitem__(1, {"by": "red", "move": "roll"}), "move 1"),
    (
        "a take not offered",
        lambda r: r["moves"].__setitem__(0, {"by": "blue", "move": "take M red from red"}),
        "move 0",
    ),
    ("a wrong winner", lambda r: r["result"].update(winner="red"), "the record says red won by trios"),
    ("no result", lambda r: r.update(result=None), "but the record has no result"),
    ("a cut record", lambda r: r.update(moves=r["moves"][:-1]), "the game is not over"),
]


@pytest.mark.parametrize(("name", "change", "message"), FORGED, ids=[f[0] for f in FORGED])
def test_a_tampered_record_is_rejected(name: str, change: Any, message: str) -> None:
    with pytest.raises(verifier.Rejected, match=message):
        verifier.verify(forge(change))


def test_exit_codes(tmp_path: Path) -> None:
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(forge(lambda r: r["result"].update(winner="red"))))
    done = subprocess.run([sys.executable, str(SCRIPT), str(tampered)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stderr.startswith("REJECTED: the record says red won by trios")
    wrong = subprocess.run(
        [sys.executable, str(SCRIPT), str(GOLDEN[0]), "--commitment", "00"], capture_output=True, text=True, timeout=60
    )
    assert wrong.returncode == 1 and "not the commitment 00" in wrong.stderr
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"format": "martianchess-game/1", "game": "martianchess"}))
    done = subprocess.run([sys.executable, str(SCRIPT), str(other)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "not an icedice-game/1 record" in done.stderr

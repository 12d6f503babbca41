"""engine/pharaoh/verify.py, Pharaoh's offline verifier: records the engine writes verify, forged ones
are rejected naming the move, and the file runs on the standard library alone.

The verifier is an independent re-implementation (who starts, every throw, every step, the result);
this test loads it by its path, as a player would run it.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.pharaoh import PACKAGE
from engine.pharaoh.game import GAME
from engine.shuffle import commitment

ROOT = Path(__file__).resolve().parents[2]
VERIFIER = ROOT / "engine" / "pharaoh" / PACKAGE.verifier
_spec = importlib.util.spec_from_file_location("pharaoh_verify", VERIFIER)
assert _spec is not None and _spec.loader is not None
verify = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(verify)

GOLDEN = sorted((ROOT / "tests" / "engine" / "golden").glob("pharaoh-*.record.json"))


def golden(name: str) -> dict[str, Any]:
    return json.loads((ROOT / "tests" / "engine" / "golden" / f"pharaoh-{name}.record.json").read_text())


def run(path: Path, *more: str) -> subprocess.CompletedProcess[str]:
    """The verifier as a player runs it: by its path, with no engine on the import path."""
    return subprocess.run(
        [sys.executable, "-I", str(VERIFIER), str(path), *more], capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name)
def test_a_golden_record_verifies_with_its_commitment(path: Path) -> None:
    honest = json.loads(path.read_text())
    result = run(path, "--commitment", commitment(honest["seed"]))
    assert result.returncode == 0, result.stderr
    assert f"all {len(honest['moves'])} moves" in result.stdout and "commitment: SHA-256(seed) matches" in result.stdout


def test_the_verifier_imports_only_the_standard_library() -> None:
    source = VERIFIER.read_text()
    imported = {line.split()[1].split(".")[0] for line in source.splitlines() if line.startswith(("import ", "from "))}
    assert imported <= {"__future__", "argparse", "hashlib", "json", "sys", "typing"}


@pytest.mark.parametrize("seed", ["a", "bb", "ccc"])
def test_the_throws_are_the_engines(seed: str) -> None:
    game = verify.Game(["red", "blue", "green"], seed, lambda line: None)
    state = GAME.new_game(["red", "blue", "green"], seed, {})
    assert (game.first, game.mover, game.points, game.dice) == (
        state.first_player,
        state.to_move,
        state.points,
        state.dice,
    )


def test_a_tampered_step_is_rejected_naming_it(tmp_path: Path) -> None:
    forged = copy.deepcopy(golden("two"))
    forged["moves"][4]["move"] = "enter L b5"  # north's edge, or a piece the mover does not have
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged))
    result = run(path)
    assert result.returncode == 1 and result.stderr.startswith("REJECTED: move 4 (")
    with pytest.raises(verify.Rejected, match="move 4"):
        verify.verify(forged)


def test_a_changed_seed_or_commitment_is_rejected(tmp_path: Path) -> None:
    honest = golden("three")
    with pytest.raises(verify.Rejected, match="not the commitment"):
        verify.verify(honest, commitment("another seed"))
    with pytest.raises(verify.Rejected):
        verify.verify(honest | {"seed": "another seed"})  # other throws: some step can no longer be paid


def test_a_wrong_result_is_rejected() -> None:
    honest = golden("four")
    winner = honest["result"]["winner"]
    other = next(p for p in honest["players"] if p != winner)
    with pytest.raises(verify.Rejected, match="the record says"):
        verify.verify(honest | {"result": {"winner": other, "reason": "goal-line"}})
    with pytest.raises(verify.Rejected, match="the game is not over"):
        verify.verify(honest | {"moves": honest["moves"][:-1]})


def test_an_unfinished_game_ended_by_agreement_verifies() -> None:
    honest = golden("two")
    assert verify.verify(honest | {"moves": honest["moves"][:10], "result": {"winner": None, "reason": "draw"}})


def test_a_malformed_file_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": "martianchess-game/1"}))
    result = run(path)
    assert result.returncode == 2 and result.stderr.startswith("malformed record:")

"""engine/launchpad23/verify.py: the standard-library verifier of Launch Pad 23 records, against engine-written
records. It re-implements the shuffle and the rules; the golden records and random engine games (with
resignations in setup and in play) must verify, and forged ones must not."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.kit.base import RESIGN
from engine.launchpad23 import PACKAGE
from engine.launchpad23 import verify as verifier
from engine.launchpad23.game import GAME
from engine.shuffle import commitment

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "engine" / "launchpad23" / "verify.py"
GOLDEN = sorted((ROOT / "tests" / "engine" / "golden").glob("launchpad23-*.record.json"))
SEATINGS = (["red", "blue"], ["red", "yellow", "green"], ["red", "yellow", "green", "blue"])


def golden(name: str) -> dict[str, Any]:
    return json.loads((ROOT / "tests" / "engine" / "golden" / f"launchpad23-{name}.record.json").read_text())


def random_game(seed: str, players: list[str], plies: int = 400) -> dict[str, Any]:
    """Random legal steps (a resignation now and then, in setup too); cut at `plies` with no result."""
    rng = random.Random(seed)
    state = GAME.new_game(players, seed, {})
    moves: list[tuple[str, str]] = []
    while GAME.result(state) is None and len(moves) < plies:
        mover = rng.choice(GAME.movers(state))
        if rng.random() < 0.004:
            mover = rng.choice(state.seated())
            move: Any = RESIGN
        else:
            move = rng.choice(GAME.legal_moves(state, mover)[:-1])
        state = GAME.apply(state, move, mover)
        moves.append((mover, str(move)))
    return GAME.make_record(players, {}, seed, moves, GAME.record_result(state))


def test_the_package_declares_the_verifier() -> None:
    assert PACKAGE.verifier == "verify.py" and (ROOT / "engine" / "launchpad23" / PACKAGE.verifier).is_file()
    assert verifier.FORMATS == {"launchpad23": "launchpad23-game/1"}


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
    assert "commitment: SHA-256(seed) matches" in done.stdout and "throws" in done.stdout
    assert done.stdout.rstrip().splitlines()[-1].startswith("verified: who starts, all")


@pytest.mark.parametrize("seed", [f"verify-{n}" for n in range(15)])
def test_random_engine_games_verify(seed: str) -> None:
    record = random_game(seed, SEATINGS[int(seed.rsplit("-", 1)[1]) % 3])
    assert verifier.verify(record).startswith("verified")


def test_a_resignation_during_setup_drops_the_pick_and_opens_for_the_rest() -> None:
    moves = [("red", "start S"), ("yellow", "resign"), ("green", "start L")]
    state = GAME.new_game(("red", "yellow", "green"), "s", {})
    for by, text in moves:
        state = GAME.apply(state, GAME.parse(text), by)
    record = GAME.make_record(("red", "yellow", "green"), {}, "s", moves, None)
    assert state.phase != "start" and verifier.verify(record).startswith("verified")


def forge(change: Any) -> dict[str, Any]:
    record = copy.deepcopy(golden("two"))
    change(record)
    return record


FORGED = [
    ("another seed", lambda r: r.update(seed="forged"), "move"),
    ("a pick changed", lambda r: r["moves"].insert(1, {"by": "red", "move": "start L"}), "move 1"),
    ("a step out of turn", lambda r: r["moves"].__setitem__(2, {"by": "blue", "move": "pass"}), "move 2"),
    ("a part not offered", lambda r: r["moves"].__setitem__(2, {"by": "red", "move": "add L black"}), "move 2"),
    ("a wrong winner", lambda r: r["result"].update(winner="red"), "the record says red won by rocket"),
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
    assert done.returncode == 1 and done.stderr.startswith("REJECTED: the record says red won by rocket")
    wrong = subprocess.run(
        [sys.executable, str(SCRIPT), str(GOLDEN[0]), "--commitment", "00"], capture_output=True, text=True, timeout=60
    )
    assert wrong.returncode == 1 and "not the commitment 00" in wrong.stderr
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"format": "icedice-game/1", "game": "icedice"}))
    done = subprocess.run([sys.executable, str(SCRIPT), str(other)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "not a launchpad23-game/1 record" in done.stderr
    via_tool = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "verify_game.py"), str(GOLDEN[0])],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert via_tool.returncode == 0 and "verified" in via_tool.stdout, via_tool.stderr

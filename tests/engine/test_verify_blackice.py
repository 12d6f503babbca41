"""engine/blackice/verify.py: the standard-library verifier of Black ICE records, against engine-written records.

It re-implements the shuffle and the rules; the golden records and random engine games must verify, and
forged ones (a step that cannot have happened, a wrong result, a seed that is not the commitment's) must not.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from blackice_helpers import pick

from engine.blackice import PACKAGE
from engine.blackice import verify as verifier
from engine.blackice.game import GAME
from engine.kit.base import RESIGN
from engine.shuffle import commitment

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "engine" / "blackice" / "verify.py"
GOLDEN = sorted((ROOT / "tests" / "engine" / "golden").glob("blackice-*.record.json"))


def golden(name: str) -> dict[str, Any]:
    return json.loads((ROOT / "tests" / "engine" / "golden" / f"blackice-{name}.record.json").read_text())


def random_game(seed: str) -> dict[str, Any]:
    """A random game to its end: declarations rare, a resignation now and then, written as steps."""
    rng = random.Random(seed)
    state = GAME.new_game(["red", "blue"], seed, {})
    moves: list[tuple[str, str]] = []
    while GAME.result(state) is None:
        if rng.random() < 0.002:
            seat, move = rng.choice(["red", "blue"]), RESIGN
        else:
            seat, move = pick(state, rng, declare=0.05)
        state = GAME.apply(state, move, seat)
        moves.append((seat, str(move)))
    return GAME.make_record(["red", "blue"], {}, seed, moves, GAME.record_result(state))


def test_the_package_declares_the_verifier() -> None:
    assert PACKAGE.verifier == "verify.py" and PACKAGE.verifier_path == str(SCRIPT)
    assert verifier.FORMATS["blackice"] == GAME.record_format


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
    assert "starts; the Codes are" in done.stdout
    assert done.stdout.rstrip().splitlines()[-1].startswith("verified: who starts, the Codes, all")


@pytest.mark.parametrize("seed", [f"verify-{n}" for n in range(16)])
def test_random_engine_games_verify(seed: str) -> None:
    record = random_game(seed)
    assert verifier.verify(json.loads(json.dumps(record))).startswith("verified")


def test_every_spelling_the_engine_reads_verifies() -> None:
    """The record keeps what was sent; the verifier reads the spec's other spellings as the engine does."""
    record = golden("two")
    spelled = {"peek": "tip", "set": "hop", "reset": "dig", "copy": "aim"}
    for entry in record["moves"]:
        words = entry["move"].split()
        if words[0] in spelled:
            words[0] = spelled[words[0]].upper()
        if words[0] == "swap":
            words = ["swap", words[1][:-1], words[3], words[2]]
        if len(words) == 3 and words[2] in ("red", "yellow", "green", "blue"):
            words[2] = words[2][0]
        entry["move"] = " ".join(words)
    assert GAME.replay(record) == GAME.replay(golden("two"))
    assert verifier.verify(record).startswith("verified")


def forge(change: Any, name: str = "two") -> dict[str, Any]:
    record = copy.deepcopy(golden(name))
    change(record)
    return record


def step(index: int, by: str, text: str) -> Any:
    return lambda r: r["moves"].__setitem__(index, {"by": by, "move": text})


FORGED = [
    ("another seed", lambda r: r.update(seed="forged"), "move"),
    ("a step out of turn", step(0, "blue", "peek 1"), "move 0"),
    ("a Reset of a Lock nobody else peeked", step(0, "red", "reset 2"), "move 0"),
    ("a declaration with an empty Node", step(2, "red", "declare"), "move 2"),
    ("an unreadable step", step(1, "red", "set 4 red"), "unreadable"),
    ("a wrong winner", lambda r: r["result"].update(winner="red"), "the record says red won by declaration"),
    ("no result", lambda r: r.update(result=None), "but the record has no result"),
    ("a cut record", lambda r: r.update(moves=r["moves"][:-1]), "the game is not over"),
]


@pytest.mark.parametrize(("name", "change", "message"), FORGED, ids=[f[0] for f in FORGED])
def test_a_tampered_record_is_rejected(name: str, change: Any, message: str) -> None:
    with pytest.raises(verifier.Rejected, match=message):
        verifier.verify(forge(change))


def test_a_resignation_and_a_timeout_verify() -> None:
    cut = forge(lambda r: r.update(moves=[*r["moves"][:5], {"by": "red", "move": "resign"}]))
    cut["result"] = {"winner": "blue", "reason": "resignation"}
    assert verifier.verify(cut).startswith("verified")
    cut["result"] = {"winner": "blue", "reason": "timeout"}
    assert verifier.verify(cut).startswith("verified")
    cut["result"] = {"winner": "red", "reason": "resignation"}
    with pytest.raises(verifier.Rejected, match="the record says red won by resignation"):
        verifier.verify(cut)


def test_exit_codes(tmp_path: Path) -> None:
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(forge(lambda r: r["result"].update(winner="red"))))
    done = subprocess.run([sys.executable, str(SCRIPT), str(tampered)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stderr.startswith("REJECTED: the record says red won by declaration")
    wrong = subprocess.run(
        [sys.executable, str(SCRIPT), str(GOLDEN[0]), "--commitment", "00"], capture_output=True, text=True, timeout=60
    )
    assert wrong.returncode == 1 and "not the commitment 00" in wrong.stderr
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"format": "icedice-game/1", "game": "icedice"}))
    done = subprocess.run([sys.executable, str(SCRIPT), str(other)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "not a blackice-game/1 record" in done.stderr


def test_tools_verify_game_runs_it() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "verify_game.py"), str(GOLDEN[0])],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stdout.rstrip().endswith("give the result"), done.stderr

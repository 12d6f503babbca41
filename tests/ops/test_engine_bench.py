"""bench/engine.py's smoke run: every registered game gets its per-step figures and its replay, beside
the machine's speed (the full run is for a quiet machine; docs/performance.md)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from engine import registry

ROOT = Path(__file__).resolve().parents[2]


def smoke_run(*arguments: str) -> str:
    environment = {k: v for k, v in os.environ.items() if k != "DJANGO_DEBUG"}
    command = [sys.executable, str(ROOT / "bench" / "engine.py"), "--smoke", *arguments]
    done = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_the_smoke_run_measures_every_registered_game() -> None:
    stdout = smoke_run()
    assert stdout.startswith("machine: Python loop of 10M additions")
    blocks = stdout.split("== ")[1:]
    assert [block.split("\n")[0] for block in blocks] == [f"{g.info.name} ({g.info.id})" for g in registry.all_games()]
    for block in blocks:
        if block.startswith("Homeworlds"):  # its real games instead: the next test
            continue
        assert "legal_moves median" in block and "apply       median" in block, block
        assert "-step record" in block and "a step;" in block, block


def test_homeworlds_is_measured_on_its_real_games() -> None:
    """Homeworlds' block: the golden corpus's positions (a smoke run takes every 30th of its 300 games)."""
    lines = smoke_run("--game", "homeworlds").splitlines()[2:]
    assert lines[0].startswith("10 real games (homeworlds-sdg-sample.jsonl.gz), 528 steps")
    assert lines[1].startswith("legal_moves at a turn's start (377 states, median 41 legal moves): median ")
    assert lines[2].startswith("legal_moves with a sacrifice's actions left (116 states, median 16 legal moves)")
    assert lines[3].startswith("apply of every step taken: median ")
    assert lines[4].startswith("replay of all 10 games ") and lines[4].endswith(" a step)")

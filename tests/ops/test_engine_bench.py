"""bench/engine.py's smoke run: every registered game gets its per-step figures and its replay, beside
the machine's speed (the full run is for a quiet machine; docs/performance.md)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from engine import registry

ROOT = Path(__file__).resolve().parents[2]


def test_the_smoke_run_measures_every_registered_game() -> None:
    environment = {k: v for k, v in os.environ.items() if k != "DJANGO_DEBUG"}
    command = [sys.executable, str(ROOT / "bench" / "engine.py"), "--smoke"]
    done = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("machine: Python loop of 10M additions")
    blocks = done.stdout.split("== ")[1:]
    assert [block.split("\n")[0] for block in blocks] == [f"{g.info.name} ({g.info.id})" for g in registry.all_games()]
    for block in blocks:
        assert "legal_moves median" in block and "apply       median" in block, block
        assert "-step record" in block and "a step;" in block, block

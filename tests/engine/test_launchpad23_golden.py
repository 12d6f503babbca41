"""Golden Launch Pad 23 playthroughs (2, 3 and 4 players): a scripted game's log, with the sealed picks,
every throw, automatic add and re-throw, its record and its final position, diffed against
tests/engine/golden/launchpad23-*.

The script is a fixed policy (tests/engine/launchpad23_helpers.py `builder_step`) that builds a rocket of
one size: its pick, parts of that size its pad lacks, moves that bring them nearer, else `pass`.
A change in the rules, the events or the files shows up as a diff. After a deliberate change,
regenerate with `LAUNCHPAD23_GOLDEN=write .venv/bin/python -m pytest tests/engine/test_launchpad23_golden.py`
and review the diff.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine.files import pretty
from engine.kit.base import RESIGN, Resign
from engine.launchpad23 import verify as verifier
from engine.launchpad23.game import GAME
from engine.launchpad23.notation import Move
from engine.launchpad23.state import State
from engine.shuffle import commitment
from tests.engine.launchpad23_helpers import builder_step

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "golden"
MAX_PLIES = 1500


@dataclass(frozen=True)
class Script:
    name: str
    players: tuple[str, ...]
    seed: str
    resign_at: dict[int, str]  # ply -> who resigns then (before the mover moves)


SCRIPTS = (
    Script("launchpad23-two", ("red", "blue"), "golden-two", {}),
    Script("launchpad23-three", ("red", "yellow", "green"), "golden-three", {}),
    Script("launchpad23-four", ("red", "yellow", "green", "blue"), "golden-four", {60: "yellow"}),
)


def play_script(script: Script) -> tuple[list[tuple[str, str]], list[str], State]:
    """The moves, the log lines and the final State of a scripted game."""
    outcome = GAME.begin(script.players, script.seed, {})
    state = outcome.state
    log = [f"# Launch Pad 23, players {', '.join(script.players)}, seed {script.seed!r}"]
    moves: list[tuple[str, str]] = []
    while GAME.result(state) is None and len(moves) < MAX_PLIES:
        ply = len(moves)
        by = script.resign_at.get(ply) or GAME.movers(state)[0]
        move: Move | Resign = RESIGN if ply in script.resign_at else builder_step(state, by, ply)
        after = GAME.apply(state, move, by)
        log.append(f"{ply + 1}. {by} {move}: {GAME.describe(move, by, state, after, None)}")
        moves.append((by, str(move)))
        state = after
    shown = GAME.view(state, None)
    log += ["", GAME.board_text(shown).rstrip(), "", GAME.table(shown).status]
    return moves, log, state


def files_of(script: Script) -> dict[str, str]:
    moves, log, state = play_script(script)
    record = GAME.make_record(script.players, {}, script.seed, moves, GAME.record_result(state))
    return {
        f"{script.name}.record.json": pretty(record) + "\n",
        f"{script.name}.playthrough.txt": "\n".join(log) + "\n",
        f"{script.name}.position.json": pretty(GAME.to_position(state)) + "\n",
    }


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
def test_the_playthrough_matches_its_golden_files(script: Script) -> None:
    made = files_of(script)
    if os.environ.get("LAUNCHPAD23_GOLDEN") == "write":
        for name, text in made.items():
            (GOLDEN / name).write_text(text, encoding="utf-8")
    for name, text in made.items():
        assert (GOLDEN / name).read_text(encoding="utf-8") == text, name


def test_the_golden_games_end_with_a_rocket_and_show_every_kind_of_event() -> None:
    logs = []
    for script in SCRIPTS:
        _, log, state = play_script(script)
        assert state.reason == "rocket" and state.winners
        logs.extend(log)
    text = "\n".join(logs)
    for words in ("an opening piece is chosen", "opening pieces:", "throws", "rerolls", "from the Bank", "'s pad to"):
        assert words in text, words
    for words in ("the dice are thrown again", "passes", "lift-off", "resigns"):
        assert words in text, words


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
def test_replaying_the_golden_record_gives_the_golden_position(script: Script) -> None:
    record = json.loads((GOLDEN / f"{script.name}.record.json").read_text(encoding="utf-8"))
    expected = (GOLDEN / f"{script.name}.position.json").read_text(encoding="utf-8")
    assert pretty(GAME.to_position(GAME.replay(record))) + "\n" == expected
    run = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(GOLDEN / f"{script.name}.record.json")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (run.returncode, run.stdout, run.stderr) == (0, expected, "")
    assert verifier.verify(record, commitment(record["seed"])).startswith("verified")

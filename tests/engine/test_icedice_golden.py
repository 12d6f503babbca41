"""Golden IceDice playthroughs (2 and 3 players): a scripted game's log, with every throw, forced take, bust,
steal and bonus, its record and its final position, diffed against tests/engine/golden/icedice-*.

The script is a fixed policy (in a choice, a steal when there is one, else a take picked by the ply
number; then roll until the Counter holds 2 to 5 pieces, by the ply number), so a change in the rules, the
events or the files shows up as a diff. After a deliberate change, regenerate with
`ICEDICE_GOLDEN=write .venv/bin/python -m pytest tests/engine/test_icedice_golden.py` and review the diff.
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
from engine.icedice.game import GAME
from engine.icedice.notation import Move, Roll, Stop, Take
from engine.icedice.state import State
from engine.kit.base import RESIGN, Resign
from engine.kit.events import lines

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "golden"
MAX_PLIES = 1000


@dataclass(frozen=True)
class Script:
    name: str
    players: tuple[str, ...]
    seed: str
    resign_at: dict[int, str]  # ply -> who resigns then (before the mover moves)


SCRIPTS = (
    Script("icedice-two", ("red", "blue"), "golden-two-3", {}),
    Script("icedice-three", ("red", "yellow", "blue"), "golden-three", {40: "yellow"}),
)


def choose(state: State, ply: int) -> Move:
    if state.phase == "take":
        takes = [m for m in GAME.legal_moves_of(state, state.to_move or "") if isinstance(m, Take)]
        steals = [t for t in takes if t.source]
        return steals[0] if steals else takes[ply % len(takes)]
    return Roll() if len(state.counter) < 2 + ply % 4 else Stop()  # 5: on to a bust or a rainbow bonus


def play_script(script: Script) -> tuple[list[tuple[str, str]], list[str], State]:
    """The moves, the log lines and the final State of a scripted game."""
    outcome = GAME.begin(script.players, script.seed, {})
    state = outcome.state
    log = [
        f"# IceDice, players {', '.join(script.players)}, seed {script.seed!r}: "
        + " ".join(lines(outcome.events, None))
    ]
    moves: list[tuple[str, str]] = []
    while GAME.result(state) is None and len(moves) < MAX_PLIES:
        ply = len(moves)
        move: Move | Resign
        by, move = (
            (script.resign_at[ply], RESIGN) if ply in script.resign_at else (state.to_move or "", choose(state, ply))
        )
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
    if os.environ.get("ICEDICE_GOLDEN") == "write":
        for name, text in made.items():
            (GOLDEN / name).write_text(text, encoding="utf-8")
    for name, text in made.items():
        assert (GOLDEN / name).read_text(encoding="utf-8") == text, name


def test_the_golden_games_end_with_three_trios_and_show_every_kind_of_event() -> None:
    logs = []
    for script in SCRIPTS:
        _, log, state = play_script(script)
        assert state.reason == "trios" and state.winner is not None
        logs.extend(log)
    text = "\n".join(logs)
    for words in ("threw", "busts:", "(the only choice)", "stole", "rainbow bonus", "gets nothing", "wins with"):
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

"""Golden Martian Chess playthroughs (2 and 4 players): a scripted game's log, record and final position,
diffed against tests/engine/golden/martianchess-*.

The script is a fixed policy (take the biggest capture, else a field promotion, else a move picked
by the ply number), so a change in move generation, describe or the files shows up as a diff. After a deliberate change,
regenerate with `MARTIANCHESS_GOLDEN=write .venv/bin/python -m pytest tests/engine/test_martianchess_golden.py`
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
from engine.martianchess.board import POINTS
from engine.martianchess.game import GAME
from engine.martianchess.notation import Move, Step
from engine.martianchess.state import State

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "golden"
MAX_PLIES = 600


@dataclass(frozen=True)
class Script:
    name: str
    players: tuple[str, ...]
    seed: str
    resign_at: dict[int, str]  # ply -> who resigns then (before the mover moves)


SCRIPTS = (
    Script("martianchess-two", ("red", "blue"), "golden-two", {}),
    Script("martianchess-four", ("red", "yellow", "green", "blue"), "golden-four", {30: "yellow"}),
)


def choose(state: State, ply: int) -> Move:
    mover = state.to_move or ""
    moves = [m for m in GAME.legal_moves(state, mover) if not isinstance(m, Resign)]
    steps = [m for m in moves if isinstance(m, Step)]
    captures = [m for m in steps if m.end in state.board and state.zone_owner(m.end) != mover]
    if captures:
        return max(captures, key=lambda m: (POINTS[state.board[m.end]], str(m)))
    merges = [m for m in steps if m.end in state.board]
    if merges:
        return merges[0]
    return moves[(ply * 7 + 3) % len(moves)]


def play_script(script: Script) -> tuple[list[tuple[str, str]], list[str], State]:
    """The moves, the log lines and the final State of a scripted game."""
    state = GAME.new_game(script.players, script.seed, {})
    moves: list[tuple[str, str]] = []
    log = [f"# Martian Chess, players {', '.join(script.players)}, seed {script.seed!r}: {state.to_move} starts"]
    while state.phase != "over" and len(moves) < MAX_PLIES:
        ply = len(moves)
        move: Move
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
    if os.environ.get("MARTIANCHESS_GOLDEN") == "write":
        for name, text in made.items():
            (GOLDEN / name).write_text(text, encoding="utf-8")
    for name, text in made.items():
        assert (GOLDEN / name).read_text(encoding="utf-8") == text, name


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
def test_the_golden_game_ends_by_the_rules(script: Script) -> None:
    moves, _, state = play_script(script)
    assert state.phase == "over" and state.reason == "score"
    result = GAME.result(state)
    assert result is not None and result.scores is not None
    best = max(score for colour, score in result.scores.items() if colour not in state.resigned)
    leaders = [c for c, s in result.scores.items() if s == best and c not in state.resigned]
    assert result.winners == ((leaders[0],) if len(leaders) == 1 else (moves[-1][0],))


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

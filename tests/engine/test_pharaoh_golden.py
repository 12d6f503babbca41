"""Golden Pharaoh playthroughs (2, 3 and 4 players): a scripted game's log, record and final position,
diffed against tests/engine/golden/pharaoh-*.

The script is a fixed policy (win if a step wins; else the step that puts the most of the mover's
pieces on one counting goal-line, a capture first; else a step picked by the ply number), so a change
in the rules, the throws, the events or the files shows up as a diff. The log is written from the
events of each step, throws and automatic turn ends included. After a deliberate change, regenerate
with `PHARAOH_GOLDEN=write .venv/bin/python -m pytest tests/engine/test_pharaoh_golden.py` and review
the diff.
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
from engine.kit.events import lines
from engine.pharaoh.board import goal_lines
from engine.pharaoh.game import GAME
from engine.pharaoh.notation import Move, Pass
from engine.pharaoh.state import State

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "golden"
MAX_PLIES = 600


@dataclass(frozen=True)
class Script:
    name: str
    players: tuple[str, ...]
    seed: str
    resign_at: dict[int, str]  # ply -> who resigns then (before the mover's step)


SCRIPTS = (
    Script("pharaoh-two", ("red", "blue"), "golden-two", {}),
    Script("pharaoh-three", ("red", "yellow", "green"), "golden-three", {40: "yellow"}),
    Script("pharaoh-four", ("red", "yellow", "green", "blue"), "golden-four", {}),
)


def on_a_line(state: State, seat: str) -> int:
    mine = {cell for cell, piece in state.board if piece.colour == seat}
    return max(len(mine & set(line)) for line in goal_lines(len(state.players)))


def choose(state: State, ply: int) -> Move:
    mover = state.to_move or ""
    steps = [m for m in GAME.legal_moves(state, mover) if not isinstance(m, Resign | Pass)]
    if not steps:
        return Pass()
    after = {str(m): GAME.apply(state, m, mover) for m in steps}
    for move in steps:
        if after[str(move)].winner == mover:
            return move
    best = max(on_a_line(after[str(m)], mover) for m in steps)
    good = [m for m in steps if on_a_line(after[str(m)], mover) == best]
    captures = [m for m in good if len(after[str(m)].board) < len(state.board) + (str(m).startswith("enter"))]
    if best > on_a_line(state, mover) or captures:
        return (captures or good)[ply % len(captures or good)]
    return steps[(ply * 7 + 3) % len(steps)]


def play_script(script: Script) -> tuple[list[tuple[str, str]], list[str], State]:
    """The steps, the log lines and the final State of a scripted game."""
    opening = GAME.begin(script.players, script.seed, {})
    state = opening.state
    moves: list[tuple[str, str]] = []
    log = [f"# Pharaoh, players {', '.join(script.players)}, seed {script.seed!r}"]
    log += [f"   {text}" for text in lines(opening.events, None)]
    while GAME.result(state) is None and len(moves) < MAX_PLIES:
        ply = len(moves)
        move: Move | Resign
        by, move = (
            (script.resign_at[ply], RESIGN) if ply in script.resign_at else (state.to_move or "", choose(state, ply))
        )
        outcome = GAME.step(state, move, by)
        told = lines(outcome.events, None)
        log.append(f"{ply + 1}. {told[0]}")
        log += [f"   {text}" for text in told[1:]]
        moves.append((by, str(move)))
        state = outcome.state
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
    if os.environ.get("PHARAOH_GOLDEN") == "write":
        for name, text in made.items():
            (GOLDEN / name).write_text(text, encoding="utf-8")
    for name, text in made.items():
        assert (GOLDEN / name).read_text(encoding="utf-8") == text, name


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
def test_the_golden_game_ends_on_a_goal_line(script: Script) -> None:
    moves, _, state = play_script(script)
    assert (state.reason, state.winner) == ("goal-line", moves[-1][0])
    mine = {cell for cell, piece in state.board if piece.colour == state.winner}
    assert any(mine == set(line) for line in goal_lines(len(script.players)))


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

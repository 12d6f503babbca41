"""Golden Launch Pad 23 playthroughs (2, 3 and 4 players): a scripted game's log, with the sealed picks,
every throw, automatic add and re-throw, its record and its final position, diffed against
tests/engine/golden/launchpad23-*.

The script is a fixed policy that builds a rocket of its opening piece's size: in setup a size by the
seat; a part of that size and a colour its pad lacks (else a reroll, else the first choice); then moves
that bring such a piece a step nearer its pad or take a piece that does not belong off it, else `pass`.
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
from engine.launchpad23.notation import Add, Move, Shift, Start, Word
from engine.launchpad23.state import SIZES, Piece, State
from engine.shuffle import commitment

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


def target(state: State, seat: str) -> str:
    return SIZES[state.players.index(seat) % 3]


def distance(one: str, two: str) -> int:
    return abs(ord(one[0]) - ord(two[0])) + abs(int(one[1]) - int(two[1]))


def wanted(state: State, seat: str, piece: Piece) -> bool:
    """A piece of the seat's size whose colour its pad lacks."""
    pad = state.cell(state.pad(seat))
    return piece.size == target(state, seat) and piece not in pad and all(p.colour != piece.colour for p in pad)


def choose(state: State, seat: str, ply: int) -> Move:
    moves = GAME.legal_moves_of(state, seat)
    if state.phase == "start":
        return Start(target(state, seat))
    if state.phase == "add":
        adds = [m for m in moves if isinstance(m, Add)]
        useful = [m for m in adds if wanted(state, seat, Piece(m.colour, m.size))]
        if useful:
            return useful[ply % len(useful)]
        return Word("reroll") if Word("reroll") in moves else moves[ply % len(moves)]
    return _best_move(state, seat, moves)


def _best_move(state: State, seat: str, moves: list[Move]) -> Move:
    pad = state.pad(seat)
    for move in moves:
        if isinstance(move, Shift) and move.origin == pad and not _belongs(state, seat, move):
            return move  # a piece that spoils the rocket leaves
    for move in moves:
        if not isinstance(move, Shift) or move.origin == pad:
            continue
        nearer = distance(move.target, pad) < distance(move.origin, pad)
        if nearer and wanted(state, seat, Piece(move.colour, move.size)):
            return move
    return Word("pass")


def _belongs(state: State, seat: str, move: Shift) -> bool:
    pad = state.cell(state.pad(seat))
    same = [p for p in pad if p == Piece(move.colour, move.size)]
    return move.size == target(state, seat) and len(same) == 1


def play_script(script: Script) -> tuple[list[tuple[str, str]], list[str], State]:
    """The moves, the log lines and the final State of a scripted game."""
    outcome = GAME.begin(script.players, script.seed, {})
    state = outcome.state
    log = [f"# Launch Pad 23, players {', '.join(script.players)}, seed {script.seed!r}"]
    moves: list[tuple[str, str]] = []
    while GAME.result(state) is None and len(moves) < MAX_PLIES:
        ply = len(moves)
        by = script.resign_at.get(ply) or GAME.movers(state)[0]
        move: Move | Resign = RESIGN if ply in script.resign_at else choose(state, by, ply)
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

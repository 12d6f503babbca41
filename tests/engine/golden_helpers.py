"""Golden playthroughs, the machinery every game's golden test shares: a scripted game's log, record and
final position, diffed against tests/engine/golden/<name>.*, and its record replayed (in process and by
the command line).

A game's test declares a `Playthroughs`: the game (on the kit: `KitGame`), its scripts' opening, its
fixed policy (`choose`) and how a step is written in the log; its tests call `check_files`,
`check_replay` and `play`. After a deliberate change, regenerate a game's files with
`<ITS_ENV>=write .venv/bin/python -m pytest tests/engine/test_<game>_golden.py` (PHARAOH_GOLDEN=write,
...) and review the diff.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.files import pretty
from engine.kit.base import RESIGN
from engine.kit.events import lines

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "golden"

Played = tuple[list[tuple[str, str]], list[str], Any]  # the (by, move) steps, the log lines, the final state


@dataclass(frozen=True)
class Script:
    name: str  # the golden files' stem: tests/engine/golden/<name>.record.json, ...
    players: tuple[str, ...]
    seed: str
    resign_at: Mapping[int, str] = field(default_factory=dict)  # ply -> who resigns then (before the mover moves)


def script_id(script: Script) -> str:
    """The test id of a script (pytest's `ids=`)."""
    return script.name


def described(game: Any, state: Any, move: Any, by: str, ply: int) -> tuple[Any, list[str]]:
    """A step applied and written as `describe` tells it: "12. red a1-b2: ..."."""
    after = game.apply(state, move, by)
    return after, [f"{ply + 1}. {by} {move}: {game.describe(move, by, state, after, None)}"]


def evented(game: Any, state: Any, move: Any, by: str, ply: int) -> tuple[Any, list[str]]:
    """A kit step written from its events, the first line numbered, the rest (throws, turn ends) indented."""
    outcome = game.step(state, move, by)
    told = lines(outcome.events, None)
    return outcome.state, [f"{ply + 1}. {told[0]}", *(f"   {text}" for text in told[1:])]


@dataclass(frozen=True)
class Playthroughs:
    """One game's golden playthroughs."""

    game: Any
    env: str  # the environment variable that, set to "write", regenerates the files
    opening: Callable[[Script], tuple[Any, list[str]]]  # the script's first state and the log's head
    choose: Callable[[Any, int], Any]  # the fixed policy: (state, ply) -> the mover's move
    told: Callable[[Any, Any, Any, str, int], tuple[Any, list[str]]] = described
    max_plies: int = 600

    def play(self, script: Script) -> Played:
        """The steps, the log lines and the final state of the scripted game."""
        state, log = self.opening(script)
        moves: list[tuple[str, str]] = []
        while self.game.result(state) is None and len(moves) < self.max_plies:
            ply = len(moves)
            if ply in script.resign_at:
                by, move = script.resign_at[ply], RESIGN
            else:
                by, move = state.to_move or "", self.choose(state, ply)
            state, told = self.told(self.game, state, move, by, ply)
            log += told
            moves.append((by, str(move)))
        shown = self.game.view(state, None)
        log += ["", self.game.board_text(shown).rstrip(), "", self.game.table(shown).status]
        return moves, log, state

    def files_of(self, script: Script) -> dict[str, str]:
        moves, log, state = self.play(script)
        record = self.game.make_record(script.players, {}, script.seed, moves, self.game.record_result(state))
        return {
            f"{script.name}.record.json": pretty(record) + "\n",
            f"{script.name}.playthrough.txt": "\n".join(log) + "\n",
            f"{script.name}.position.json": pretty(self.game.to_position(state)) + "\n",
        }

    def check_files(self, script: Script) -> None:
        """The playthrough's record, log and final position are the golden files (rewritten first when asked)."""
        made = self.files_of(script)
        if os.environ.get(self.env) == "write":
            for name, text in made.items():
                (GOLDEN / name).write_text(text, encoding="utf-8")
        for name, text in made.items():
            assert (GOLDEN / name).read_text(encoding="utf-8") == text, name

    def check_replay(self, script: Script) -> None:
        """Replaying the golden record, here and with `python -m engine replay`, gives the golden position."""
        record_file = GOLDEN / f"{script.name}.record.json"
        expected = (GOLDEN / f"{script.name}.position.json").read_text(encoding="utf-8")
        record = json.loads(record_file.read_text(encoding="utf-8"))
        assert pretty(self.game.to_position(self.game.replay(record))) + "\n" == expected
        run = subprocess.run(
            [sys.executable, "-m", "engine", "replay", str(record_file)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert (run.returncode, run.stdout, run.stderr) == (0, expected, "")

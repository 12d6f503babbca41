"""Golden Black ICE playthroughs (2 players): a scripted game's log, as a spectator and as the mover read
each step (a Peek's Code only in the mover's), its record and its final position, diffed against
tests/engine/golden/blackice-*.

The script is a fixed policy that reads the whole State (it is a test's script, not a player): declare
when the Keys match the Codes (or, in the second game, at the first chance), else a Set toward a Code
the mover has peeked, else a kind of step picked by the ply number. A change in the rules, the events
or the files shows up as a diff. After a deliberate change, regenerate with
`BLACKICE_GOLDEN=write .venv/bin/python -m pytest tests/engine/test_blackice_golden.py` and review it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine.blackice.game import GAME
from engine.blackice.notation import DECLARE, PASS, Move
from engine.blackice.state import State
from engine.files import pretty
from engine.kit.events import lines

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "golden"
MAX_PLIES = 400
ORDER = ("peek", "set", "swap", "copy", "reset", "pass")  # the kinds, tried from the ply's place on


@dataclass(frozen=True)
class Script:
    name: str
    seed: str
    rash: bool  # declares at the first chance, right or wrong


SCRIPTS = (Script("blackice-two", "golden-two", rash=False), Script("blackice-rash", "golden-rash", rash=True))


def choose(state: State, ply: int, rash: bool) -> Move:
    seat = state.to_move
    legal = GAME.legal_moves_of(state, seat)
    codes = [lock.code for lock in state.locks]
    if DECLARE in legal and (rash or list(state.keys_of(seat)) == codes):
        return DECLARE
    toward = [
        m for m in legal if m.verb == "set" and state.peeked(m.places[0], seat) and m.colour == codes[m.places[0] - 1]
    ]
    if toward:
        return toward[0]
    for verb in ORDER[ply % len(ORDER) :] + ORDER[: ply % len(ORDER)]:
        if verb == "pass" and ply % 7:
            continue  # pass now and then, not whenever its turn in the order comes
        kind = [m for m in legal if m.verb == verb]
        if kind:
            return kind[ply % len(kind)]
    return PASS


def play_script(script: Script) -> tuple[list[tuple[str, str]], list[str], State]:
    """The moves, the log lines and the final State of a scripted game."""
    outcome = GAME.begin(("red", "blue"), script.seed, {})
    state = outcome.state
    log = [f"# Black ICE, players red, blue, seed {script.seed!r}: " + " ".join(lines(outcome.events, None))]
    moves: list[tuple[str, str]] = []
    while GAME.result(state) is None and len(moves) < MAX_PLIES:
        ply, by = len(moves), state.to_move
        move = choose(state, ply, script.rash)
        after = GAME.apply(state, move, by)
        public = GAME.describe(move, by, state, after, None)
        own = GAME.describe(move, by, state, after, by)
        log.append(f"{ply + 1}. {by} {move}: {public}" + ("" if own == public else f" | {by} reads: {own}"))
        moves.append((by, str(move)))
        state = after
    shown = GAME.view(state, None)
    log += ["", GAME.board_text(shown).rstrip(), "", GAME.table(shown).status]
    return moves, log, state


def files_of(script: Script) -> dict[str, str]:
    moves, log, state = play_script(script)
    record = GAME.make_record(("red", "blue"), {}, script.seed, moves, GAME.record_result(state))
    return {
        f"{script.name}.record.json": pretty(record) + "\n",
        f"{script.name}.playthrough.txt": "\n".join(log) + "\n",
        f"{script.name}.position.json": pretty(GAME.to_position(state)) + "\n",
    }


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
def test_the_playthrough_matches_its_golden_files(script: Script) -> None:
    made = files_of(script)
    if os.environ.get("BLACKICE_GOLDEN") == "write":
        for name, text in made.items():
            (GOLDEN / name).write_text(text, encoding="utf-8")
    for name, text in made.items():
        assert (GOLDEN / name).read_text(encoding="utf-8") == text, name


def test_the_golden_games_end_both_ways_and_show_every_kind_of_step() -> None:
    reasons, logs = [], []
    for script in SCRIPTS:
        _, log, state = play_script(script)
        assert state.outcome is not None
        reasons.append(state.outcome.reason)
        logs.extend(log)
    assert reasons == ["declaration", "wrong declaration"]
    text = "\n".join(logs)
    for words in ("peeked Lock", "reads:", "swaps Locks", "swaps the Keys", "sets a", "resets Lock", "copies"):
        assert words in text, words
    for words in ("passes", "declares", ": actions", "wild"):
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

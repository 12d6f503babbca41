"""Golden Buyer's Market playthroughs (2, 3 and 4 players): a scripted game's log, record and final
position, diffed against tests/engine/golden/buyersmarket-*.

The script is a fixed policy (call the building phase when it may, else buy the pallet that costs the
fewest bank pips, else place or contribute by the ply number), so a change in the rules, describe or
the files shows up as a diff. After a deliberate change, regenerate with
`BUYERSMARKET_GOLDEN=write .venv/bin/python -m pytest tests/engine/test_buyersmarket_golden.py`
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

from engine.buyersmarket.game import GAME
from engine.buyersmarket.notation import Buy, Move
from engine.buyersmarket.rules import buildings
from engine.buyersmarket.state import State
from engine.files import pretty
from engine.kit.base import RESIGN

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "golden"
MAX_PLIES = 400


@dataclass(frozen=True)
class Script:
    name: str
    players: tuple[str, ...]
    seed: str
    resign_at: dict[int, str]  # ply -> who resigns then (before the mover moves)


SCRIPTS = (
    Script("buyersmarket-two", ("red", "blue"), "golden-two", {}),
    Script("buyersmarket-three", ("red", "yellow", "green"), "golden-three", {}),
    Script("buyersmarket-four", ("red", "yellow", "green", "blue"), "golden-four", {21: "green"}),
)


def choose(state: State, ply: int) -> Move:
    mover = state.to_move or ""
    moves = [m for m in GAME.legal_moves(state, mover) if not GAME.is_resign(m)]
    calls = [m for m in moves if getattr(m, "call", False)]
    if calls:
        return calls[0]
    buys = [m for m in moves if isinstance(m, Buy)]
    if buys and ply % 3 != 1:
        return min(buys, key=lambda m: (len(m.paid), len(m.back) + len(m.returned), str(m)))
    plain = [m for m in moves if not isinstance(m, Buy)] or moves
    return plain[(ply * 7 + 3) % len(plain)]


def play_script(script: Script) -> tuple[list[tuple[str, str]], list[str], State]:
    state = GAME.new_game(script.players, script.seed, {})
    moves: list[tuple[str, str]] = []
    log = [f"# Buyer's Market, players {', '.join(script.players)}, seed {script.seed!r}"]
    log.append(f"# setup: {', '.join(p.card for p in state.pallets)} in play; {state.to_move} to move ({state.phase})")
    while state.phase != "over" and len(moves) < MAX_PLIES:
        ply = len(moves)
        move: Move
        if ply in script.resign_at:
            by, move = script.resign_at[ply], RESIGN
        else:
            by, move = state.to_move or "", choose(state, ply)
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
    if os.environ.get("BUYERSMARKET_GOLDEN") == "write":
        for name, text in made.items():
            (GOLDEN / name).write_text(text, encoding="utf-8")
    for name, text in made.items():
        assert (GOLDEN / name).read_text(encoding="utf-8") == text, name


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
def test_the_golden_game_ends_by_the_building_phase(script: Script) -> None:
    moves, _, state = play_script(script)
    assert state.phase == "over" and state.reason == "score" and state.called_by is not None
    caller = state.called_by
    after_call = next(i for i, (by, text) in enumerate(moves) if by == caller and text.endswith(" call"))
    others = [p for p in state.active_players() if p != caller]
    last_turns = [by for by, text in moves[after_call + 1 :] if not text.startswith("pile ")]
    assert sorted(last_turns) == sorted(others), "everyone else has exactly one more turn (15.5)"
    result = GAME.result(state)
    assert result is not None and result.scores is not None
    assert result.scores == {c: b.total for c, b in buildings(state).items()}
    ranked = {c: (result.scores[c], len(state.collected[c])) for c in result.scores}
    assert set(result.winners) == {c for c, r in ranked.items() if r == max(ranked.values())}


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

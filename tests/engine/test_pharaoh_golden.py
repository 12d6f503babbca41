"""Golden Pharaoh playthroughs (2, 3 and 4 players): a scripted game's log, record and final position,
diffed against tests/engine/golden/pharaoh-* (tests/engine/golden_helpers.py).

The script is a fixed policy (win if a step wins; else the step that puts the most of the mover's
pieces on one counting goal-line, a capture first; else a step picked by the ply number), so a change
in the rules, the throws, the events or the files shows up as a diff. The log is written from the
events of each step, throws and automatic turn ends included. After a deliberate change, regenerate
with `PHARAOH_GOLDEN=write .venv/bin/python -m pytest tests/engine/test_pharaoh_golden.py` and review
the diff.
"""

from __future__ import annotations

import pytest

from engine.kit.base import Resign
from engine.kit.events import lines
from engine.pharaoh.board import goal_lines
from engine.pharaoh.game import GAME
from engine.pharaoh.notation import Move, Pass
from engine.pharaoh.state import State
from tests.engine.golden_helpers import Playthroughs, Script, evented, script_id

SCRIPTS = (
    Script("pharaoh-two", ("red", "blue"), "golden-two"),
    Script("pharaoh-three", ("red", "yellow", "green"), "golden-three", {40: "yellow"}),
    Script("pharaoh-four", ("red", "yellow", "green", "blue"), "golden-four"),
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


def opening(script: Script) -> tuple[State, list[str]]:
    outcome = GAME.begin(script.players, script.seed, {})
    head = f"# Pharaoh, players {', '.join(script.players)}, seed {script.seed!r}"
    return outcome.state, [head, *(f"   {text}" for text in lines(outcome.events, None))]


PLAYTHROUGHS = Playthroughs(GAME, "PHARAOH_GOLDEN", opening, choose, told=evented)


@pytest.mark.parametrize("script", SCRIPTS, ids=script_id)
def test_the_playthrough_matches_its_golden_files(script: Script) -> None:
    PLAYTHROUGHS.check_files(script)


@pytest.mark.parametrize("script", SCRIPTS, ids=script_id)
def test_the_golden_game_ends_on_a_goal_line(script: Script) -> None:
    moves, _, state = PLAYTHROUGHS.play(script)
    assert (state.reason, state.winner) == ("goal-line", moves[-1][0])
    mine = {cell for cell, piece in state.board if piece.colour == state.winner}
    assert any(mine == set(line) for line in goal_lines(len(script.players)))


@pytest.mark.parametrize("script", SCRIPTS, ids=script_id)
def test_replaying_the_golden_record_gives_the_golden_position(script: Script) -> None:
    PLAYTHROUGHS.check_replay(script)

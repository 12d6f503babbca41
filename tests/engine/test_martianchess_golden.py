"""Golden Martian Chess playthroughs (2 and 4 players): a scripted game's log, record and final position,
diffed against tests/engine/golden/martianchess-* (tests/engine/golden_helpers.py).

The script is a fixed policy (take the biggest capture, else a field promotion, else a move picked
by the ply number), so a change in move generation, describe or the files shows up as a diff. After a deliberate change,
regenerate with `MARTIANCHESS_GOLDEN=write .venv/bin/python -m pytest tests/engine/test_martianchess_golden.py`
and review the diff.
"""

from __future__ import annotations

import pytest

from engine.kit.base import Resign
from engine.martianchess.board import POINTS
from engine.martianchess.game import GAME
from engine.martianchess.notation import Move, Step
from engine.martianchess.state import State
from tests.engine.golden_helpers import Playthroughs, Script, script_id

SCRIPTS = (
    Script("martianchess-two", ("red", "blue"), "golden-two"),
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


def opening(script: Script) -> tuple[State, list[str]]:
    state = GAME.new_game(script.players, script.seed, {})
    return state, [
        f"# Martian Chess, players {', '.join(script.players)}, seed {script.seed!r}: {state.to_move} starts"
    ]


PLAYTHROUGHS = Playthroughs(GAME, "MARTIANCHESS_GOLDEN", opening, choose)


@pytest.mark.parametrize("script", SCRIPTS, ids=script_id)
def test_the_playthrough_matches_its_golden_files(script: Script) -> None:
    PLAYTHROUGHS.check_files(script)


@pytest.mark.parametrize("script", SCRIPTS, ids=script_id)
def test_the_golden_game_ends_by_the_rules(script: Script) -> None:
    moves, _, state = PLAYTHROUGHS.play(script)
    assert state.phase == "over" and state.reason == "score"
    result = GAME.result(state)
    assert result is not None and result.scores is not None
    best = max(score for colour, score in result.scores.items() if colour not in state.resigned)
    leaders = [c for c, s in result.scores.items() if s == best and c not in state.resigned]
    assert result.winners == ((leaders[0],) if len(leaders) == 1 else (moves[-1][0],))


@pytest.mark.parametrize("script", SCRIPTS, ids=script_id)
def test_replaying_the_golden_record_gives_the_golden_position(script: Script) -> None:
    PLAYTHROUGHS.check_replay(script)

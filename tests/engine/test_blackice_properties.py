"""Hypothesis playouts of Black ICE: at every ply each listed step is taken, every unlisted one
refused, the position file round-trips; at the end the record replays to the same State."""

from __future__ import annotations

import json
import random

from blackice_helpers import ALL_STEPS, playout
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.blackice.game import GAME
from engine.blackice.notation import parse
from engine.blackice.state import BOX, State
from engine.errors import IllegalMoveError

MAX_PLIES = 150


def check_ply(state: State) -> None:
    assert GAME.from_position(json.loads(json.dumps(GAME.to_position(state)))) == state
    assert sorted([lock.code for lock in state.locks] + list(state.box)) == sorted(BOX)
    seat = GAME.movers(state)[0]
    listed = {str(move) for move in GAME.legal_moves(state, seat)}
    for text in ALL_STEPS:
        move = parse(text)
        if text in listed:
            assert str(GAME.parse(text)) == text
            GAME.step(state, move, seat)
        else:
            try:
                GAME.step(state, move, seat)
            except IllegalMoveError:
                continue
            raise AssertionError(f"{text} is not listed but was taken")
    other = state.opponent(seat)
    assert [str(m) for m in GAME.legal_moves(state, other)] == ["resign"]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.text(min_size=1, max_size=8), choices=st.integers(0, 2**32))
def test_playouts_replay(seed: str, choices: int) -> None:
    state, played = playout(seed, MAX_PLIES, random.Random(choices), check_ply)
    record = GAME.make_record(["red", "blue"], {}, seed, played, GAME.record_result(state))
    assert GAME.replay(json.loads(json.dumps(record))) == state

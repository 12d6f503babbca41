"""Hypothesis playouts of Launch Pad 23, 2 to 4 players: random legal games keep every invariant.

At every step: every listed move is accepted by `apply` (sampled steps), moves print and parse
back, pieces are conserved (at most two of a kind; the board changes only by the Bank's adds, the
opening pieces and failures, as the events say), the turn's state is coherent, and the position
file round-trips. At the end the record, with its result, replays to the same state.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.kit.events import Event
from engine.launchpad23.game import GAME
from engine.launchpad23.rules import move_allowance
from engine.launchpad23.state import COPIES, KINDS, State

STEPS = 60
RESIGN_CHANCE = 0.01


def pieces(state: State) -> int:
    return sum(len(cell) for cell in state.board)


def expected_change(events: tuple[Event, ...]) -> int:
    """Pieces the events say came onto (or left) the board."""
    change = 0
    for event in events:
        if event.kind == "add" and event.data["from"] is None:
            change += 1
        elif event.kind == "failure":
            change -= len(event.data["pieces"])
        elif event.kind == "opening":
            change += len(event.data["starts"])
    return change


def check_state(state: State) -> None:
    assert all(state.on_board(kind) <= COPIES for kind in KINDS)
    if state.phase in ("add", "move"):
        assert state.to_move in state.seated() and state.throw is not None
        assert 0 < state.moves_left <= move_allowance(state.throw) or state.phase == "add"
    written = json.loads(json.dumps(GAME.to_position(state)))
    assert GAME.to_position(GAME.from_position(written)) == written


def check_listed(state: State, seat: str) -> None:
    for move in GAME.legal_moves(state, seat):
        assert GAME.parse(str(move)) == move
        GAME.apply(state, move, seat)  # accepted


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 4), st.integers(0, 2**32), st.text("abcdef", min_size=1, max_size=6))
def test_random_playouts_keep_the_invariants(count: int, choices: int, seed: str) -> None:
    players = ("red", "yellow", "green", "blue")[:count]
    chooser = random.Random(choices)
    state = GAME.new_game(players, seed, {})
    moves: list[tuple[str, str]] = []
    for number in range(STEPS):
        if GAME.result(state) is not None:
            break
        seat = chooser.choice(GAME.movers(state))
        if number % 7 == 0:
            check_listed(state, seat)
        listed = GAME.legal_moves(state, seat)
        playing = [move for move in listed if not GAME.is_resign(move)]
        move = listed[-1] if chooser.random() < RESIGN_CHANCE or not playing else chooser.choice(playing)
        outcome = GAME.step(state, move, seat)
        assert pieces(outcome.state) == pieces(state) + expected_change(outcome.events)
        state = outcome.state
        moves.append((seat, str(move)))
        check_state(state)
    record = GAME.make_record(players, {}, seed, moves, GAME.record_result(state))
    assert GAME.to_position(GAME.replay(json.loads(json.dumps(record)))) == GAME.to_position(state)

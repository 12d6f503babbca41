"""Hypothesis playouts of Martian Chess, 2 and 4 players: random legal games keep every invariant.

At every ply: pips are conserved (on the board plus captured: a merge keeps them, S+M=L, S+S=M),
the listed moves are exactly the well-formed steps `apply` accepts, moves print and parse back,
`apply` leaves its input alone, the position file round-trips, views hide only the seed and only
until the end, and the game is over exactly when a zone is empty or one player is left. At the end
the record, with its result, replays to the same State. (tests/engine/test_properties.py also runs
the interface-level invariants over every registered game, this one included.)
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine.errors import IllegalMoveError
from engine.interface import COLOURS
from engine.kit.base import RESIGN
from engine.martianchess.board import POINTS, all_cells, zone_of
from engine.martianchess.game import GAME
from engine.martianchess.notation import Move, Pass, Step
from engine.martianchess.state import State

START_PIPS = 18  # per zone: 3 Queens, 3 Drones, 3 Pawns
MAX_PLIES = 300
RESIGN_CHANCE = 0.002


def pips(state: State) -> int:
    return sum(POINTS[s] for s in state.board.values()) + sum(state.score(c) for c in state.players)


def check_state(state: State) -> None:
    count = len(state.players)
    assert pips(state) == START_PIPS * count
    zones = {zone_of(cell, count) for cell in state.board}
    if state.phase == "over":
        assert state.to_move is None
        assert (
            state.reason in ("score", "resignation")
            and (state.reason != "score" or len(zones) < count)
            and state.winner in state.active_players()
        )
    else:
        assert len(zones) == count and state.to_move in state.active_players()
    assert GAME.from_position(json.loads(json.dumps(GAME.to_position(state)))) == state


def check_views(state: State) -> None:
    for viewer in (None, *state.players):
        shown = GAME.view(state, viewer)
        text = json.dumps(shown)
        assert ("seed" in shown) == (state.phase == "over")
        if state.phase != "over" and state.seed:
            assert f'"{state.seed}"' not in text
        assert shown.get("board") == GAME.to_position(state)["board"]
    GAME.table(GAME.view(state, state.players[0]))
    assert GAME.board_svg(GAME.view(state, None), interactive=True).count("data-cell=") == len(
        all_cells(len(state.players))
    )


def check_listing(state: State, colour: str, rng: random.Random) -> list[Move]:
    moves = GAME.legal_moves(state, colour)
    assert moves[-1] == RESIGN and moves == sorted(moves[:-1], key=str) + [RESIGN]
    assert all(GAME.parse(str(m)) == m for m in moves)
    assert Pass() not in moves  # the piece nearest the canal can always move (docs/rules.md)
    listed = set(moves)
    count = len(state.players)
    cells = all_cells(count)
    mine = [c for c in cells if c in state.board and zone_of(c, count) == state.seat(colour)]
    for _ in range(12):  # steps from the player's own pieces that are not listed must be refused
        step = Step(rng.choice(mine), rng.choice(cells))
        if step not in listed:
            try:
                GAME.apply(state, step, colour)
            except IllegalMoveError:
                continue
            raise AssertionError(f"{step} was not listed but apply took it")
    return moves


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from([2, 4]),
    seed=st.text(alphabet="0123456789abcdef", min_size=1, max_size=12),
    rng=st.randoms(use_true_random=True),
)
def test_random_playouts_keep_every_invariant(players: int, seed: str, rng: random.Random) -> None:
    seating = COLOURS[:players] if players == 2 else ("red", "yellow", "green", "blue")
    seed = f"secret-{seed}"  # nothing else in a view reads like this
    state = GAME.new_game(seating, seed, {})
    log: list[tuple[str, str]] = []
    while state.phase != "over" and len(log) < MAX_PLIES:
        check_state(state)
        check_views(state)
        colour = state.to_move or ""
        moves = check_listing(state, colour, rng)
        move: Move
        if rng.random() < RESIGN_CHANCE:
            colour, move = rng.choice(state.active_players()), RESIGN
        else:
            move = rng.choice(moves[:-1])
        before = GAME.to_position(state)
        after = GAME.apply(state, move, colour)
        assert GAME.to_position(state) == before, "apply changed the State it was given"
        assert GAME.describe(move, colour, state, after, None).startswith(colour)
        log.append((colour, str(move)))
        state = after
    check_state(state)
    check_views(state)
    event(f"{players} players, ended by {state.reason}" if state.reason else f"{players} players, still on")
    record = GAME.make_record(seating, {}, seed, log, GAME.record_result(state))
    assert GAME.replay(json.loads(json.dumps(record))) == state

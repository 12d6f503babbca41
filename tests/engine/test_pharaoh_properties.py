"""Hypothesis playouts of Pharaoh, 2, 3 and 4 players: random legal games keep every invariant.

At every step: each seat still playing has its three pieces (on the board or in its supply) and a
resigned seat none, no cell holds two pieces, the points left never exceed the throw, the listed
steps are exactly the well-formed steps `apply` accepts, steps print and parse back, `apply` leaves
its input alone, the position file round-trips, views hide only the seed and only until the end,
and the game is over exactly when the mover fills a counting goal-line or one seat is left. Some
turns are played as one `;` line through the kit's `play_line`. At the end the record, with its
result, replays to the same State, and the offline verifier agrees.
"""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine.errors import IllegalMoveError
from engine.interface import COLOURS
from engine.kit.base import RESIGN, Resign
from engine.kit.steps import play_line
from engine.pharaoh.board import CELLS, SIZES, goal_lines
from engine.pharaoh.game import GAME
from engine.pharaoh.notation import Enter, Move, Pass, Step
from engine.pharaoh.rules import won_line
from engine.pharaoh.state import State

VERIFIER = Path(__file__).resolve().parents[2] / "engine" / "pharaoh" / "verify.py"
_spec = importlib.util.spec_from_file_location("pharaoh_verify", VERIFIER)
assert _spec is not None and _spec.loader is not None
verify = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(verify)

MAX_STEPS = 300
RESIGN_CHANCE = 0.003
LINE_CHANCE = 0.3  # a turn written as one line of several steps


def check_state(state: State) -> None:
    for colour in state.players:
        on_board = [piece.size for _, piece in state.board if piece.colour == colour]
        if colour in state.resigned:
            assert on_board == [] and state.supply(colour) == ()
        else:
            assert sorted(on_board + list(state.supply(colour))) == sorted(SIZES), "pieces are not conserved"
    assert len({cell for cell, _ in state.board}) == len(state.board) and {c for c, _ in state.board} <= set(CELLS)
    assert 0 <= state.points <= state.throw <= 6
    if state.over:
        assert state.to_move is None and GAME.movers(state) == ()
        if state.reason == "goal-line":
            assert state.winner is not None and won_line(state, state.winner) is not None
    else:
        assert state.to_move in state.active_players() and len(state.active_players()) >= 2
        assert all(won_line(state, seat) is None for seat in state.players)
    assert GAME.from_position(json.loads(json.dumps(GAME.to_position(state)))) == state


def check_views(state: State) -> None:
    for viewer in (None, *state.players):
        shown = GAME.view(state, viewer)
        text = json.dumps(shown)
        assert ("seed" in shown) == state.over
        if not state.over:
            assert f'"{state.seed}"' not in text
    svg = GAME.board_svg(GAME.view(state, state.to_move), interactive=True)
    assert all(f'data-target="{cell}"' in svg for cell in CELLS)
    GAME.table(GAME.view(state, state.players[0]))


def candidates(state: State, rng: random.Random) -> list[Move]:
    """Well-formed steps at random: entries of any size onto any cell, steps between any cells."""
    made: list[Move] = []
    for _ in range(10):
        if rng.random() < 0.4:
            made.append(Enter(rng.choice(SIZES), rng.choice(CELLS)))
        else:
            made.append(Step(rng.choice(CELLS), rng.choice(CELLS)))
    return made


def check_listing(state: State, colour: str, rng: random.Random) -> list[Move | Resign]:
    moves = GAME.legal_moves(state, colour)
    assert moves[-2:] == [Pass(), RESIGN]
    entries = [m for m in moves if isinstance(m, Enter)]
    steps = [m for m in moves if isinstance(m, Step)]
    assert moves == [*sorted(entries, key=str), *sorted(steps, key=str), Pass(), RESIGN]
    assert len(entries) <= 9 and len(steps) <= 24
    assert all(GAME.parse(str(m)) == m for m in moves)
    for move in candidates(state, rng):
        if move in moves:
            GAME.apply(state, move, colour)
            continue
        try:
            GAME.apply(state, move, colour)
        except IllegalMoveError:
            continue
        raise AssertionError(f"{move} was not listed but apply took it")
    for bystander in state.players:
        if bystander != colour:
            assert GAME.legal_moves(state, bystander) == ([] if bystander in state.resigned else [RESIGN])
    return moves


def take_turn(state: State, colour: str, rng: random.Random) -> list[tuple[str, str]]:
    """The rest of `colour`'s turn as one `;` line of random legal steps (applied all or nothing)."""
    texts: list[str] = []
    probe = state
    while probe.to_move == colour and not probe.over and len(texts) < 6:
        move = rng.choice([m for m in GAME.legal_moves(probe, colour) if not isinstance(m, Resign | Pass)] or [Pass()])
        texts.append(str(move))
        probe = GAME.apply(probe, move, colour)
    if rng.random() < 0.5:
        texts.append("pass")  # after the turn ended by itself it is dropped; else it ends the turn
    played = play_line(GAME, state, "; ".join(texts), colour)
    assert played[-1].state.to_move != colour or played[-1].state.over or texts[-1] != "pass"
    return [(colour, step.text) for step in played]


def winning(state: State, colour: str, moves: list[Move | Resign]) -> Move | None:
    """A step that wins at once, if any: so that games also end on a goal-line."""
    steps = [m for m in moves if isinstance(m, Enter | Step)]
    return next((m for m in steps if GAME.apply(state, m, colour).winner == colour), None)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from([2, 3, 4]),
    seed=st.text(alphabet="0123456789abcdef", min_size=1, max_size=12),
    rng=st.randoms(use_true_random=True),
)
def test_random_playouts_keep_every_invariant(players: int, seed: str, rng: random.Random) -> None:
    seating = COLOURS[:players]
    seed = f"secret-{seed}"  # nothing else in a view reads like this
    state = GAME.new_game(seating, seed, {})
    log: list[tuple[str, str]] = []
    while not state.over and len(log) < MAX_STEPS:
        check_state(state)
        if len(log) % 8 == 0:  # the pictures are the slow part: every few steps is enough
            check_views(state)
        colour = state.to_move or ""
        moves = check_listing(state, colour, rng)
        if rng.random() < RESIGN_CHANCE:
            quitter = rng.choice(state.active_players())
            state = GAME.apply(state, RESIGN, quitter)
            log.append((quitter, "resign"))
            continue
        if rng.random() < LINE_CHANCE:
            steps = take_turn(state, colour, rng)
            for by, text in steps:
                state = GAME.apply(state, GAME.parse(text), by)
            log += steps
            continue
        move = winning(state, colour, moves) or rng.choice(moves[:-1])
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
    if state.over:
        assert verify.verify(json.loads(json.dumps(record))).startswith("verified")
    assert len(goal_lines(players)) == {2: 1, 3: 2, 4: 4}[players]

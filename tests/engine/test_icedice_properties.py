"""Hypothesis playouts of IceDice, 2 to 5 players: random legal games keep every invariant.

At every step: pieces are conserved (n of each of the 15 kinds across the Bank, the Counter and the
Vaults), the Counter never holds a colour twice nor all five, only the mover's Vault can hold three
Trios and only once the game is over, the listed steps are exactly the well-formed steps `apply`
accepts, steps print and parse back, `apply` leaves its input alone, the position file round-trips,
views hide the seed until the end. At the end the record, with its result, replays to the same State
and the offline verifier agrees.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine.errors import IllegalMoveError
from engine.icedice import verify
from engine.icedice.game import GAME
from engine.icedice.notation import Move, Roll, Stop, Take
from engine.icedice.state import KINDS, SIZES, State, trios
from engine.interface import COLOURS
from engine.kit.base import RESIGN, Resign

MAX_PLIES = 1500
RESIGN_CHANCE = 0.003


def check_state(state: State) -> None:
    n = len(state.players)
    bank = state.bank()
    for kind in KINDS:
        held = state.counter.count(kind) + sum(vault.count(kind) for vault in state.vaults)
        assert bank[kind] + held == n
    colours = [colour for colour, _ in state.counter]
    assert len(set(colours)) == len(colours) < len(COLOURS)
    for seat in state.players:
        assert trios(state.vault(seat)) < 3 or (state.winner == seat and state.reason == "trios")
        assert seat not in state.resigned or state.vault(seat) == ()
    if state.reason is None:
        assert state.to_move in state.seated() and state.phase in ("take", "decide")
    assert GAME.from_position(json.loads(json.dumps(GAME.to_position(state)))) == state


def check_views(state: State) -> None:
    for viewer in (None, *state.players):
        shown = GAME.view(state, viewer)
        assert ("seed" in shown) == (state.reason is not None)
        if state.reason is None:
            assert f'"{state.seed}"' not in json.dumps(shown)
    GAME.table(GAME.view(state, state.players[0]))


def check_listing(state: State, seat: str, rng: random.Random) -> list[Move | Resign]:
    moves = GAME.legal_moves(state, seat)
    assert moves[-1] == RESIGN and moves[:-1] == sorted(moves[:-1], key=str)
    assert all(GAME.parse(str(m)) == m for m in moves)
    listed = set(moves)
    candidates: list[Move] = [Roll(), Stop()]
    candidates += [
        Take(size, colour, source) for colour in COLOURS for size in SIZES for source in (None, *state.players)
    ]
    for move in rng.sample(candidates, 12):  # unlisted steps must be refused
        if move in listed:
            continue
        try:
            after = GAME.apply(state, move, seat)
        except IllegalMoveError:
            continue
        # `take S green` with no seat is the listed steal from the only opponent who has one
        assert isinstance(move, Take) and move.source is None and after == GAME.apply(state, _named(state, move), seat)
    for other in state.players:
        if other != seat:
            assert GAME.legal_moves(state, other) == ([RESIGN] if other in state.seated() else [])
    return moves


def _named(state: State, move: Take) -> Take:
    (steal,) = [
        m
        for m in GAME.legal_moves_of(state, state.to_move or "")
        if isinstance(m, Take) and (m.size, m.colour) == (move.size, move.colour)
    ]
    return steal


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(min_value=2, max_value=5),
    seed=st.text(alphabet="0123456789abcdef", min_size=1, max_size=12),
    rng=st.randoms(use_true_random=True),
)
def test_random_playouts_keep_every_invariant(players: int, seed: str, rng: random.Random) -> None:
    seating = COLOURS[:players]
    seed = f"secret-{seed}"
    state = GAME.new_game(seating, seed, {})
    log: list[tuple[str, str]] = []
    while state.reason is None and len(log) < MAX_PLIES:
        check_state(state)
        check_views(state)
        seat = state.to_move or ""
        moves = check_listing(state, seat, rng)
        move: Move | Resign
        if rng.random() < RESIGN_CHANCE:
            seat, move = rng.choice(state.seated()), RESIGN
        else:
            move = rng.choice(moves[:-1])
        before = GAME.to_position(state)
        after = GAME.apply(state, move, seat)
        assert GAME.to_position(state) == before, "apply changed the State it was given"
        assert GAME.describe(move, seat, state, after, None).startswith(seat)
        log.append((seat, str(move)))
        state = after
    check_state(state)
    check_views(state)
    assert "<svg" in GAME.board_svg(GAME.view(state, None), interactive=True)
    event(f"{players} players, ended by {state.reason}" if state.reason else f"{players} players, still on")
    record = GAME.make_record(seating, {}, seed, log, GAME.record_result(state))
    assert GAME.replay(json.loads(json.dumps(record))) == state
    if state.reason is not None:
        assert verify.verify(record).startswith("verified")

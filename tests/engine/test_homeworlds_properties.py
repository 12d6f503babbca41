"""Hypothesis playouts of Homeworlds under every combination of options: random legal games keep
every invariant.

At every ply: the 36 pieces are conserved (table plus the derived bank, never more than 3 of one in
play), the listed steps print and parse back and `apply` takes them, random steps that are not
listed are refused (a discovery's name aside: any free name is as legal as the listed one), `apply`
leaves its input alone, the position file round-trips, and views hide only the seed, only until
the end. At the end the record, with its result, replays to the same State.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine.errors import IllegalMoveError
from engine.homeworlds.game import GAME
from engine.homeworlds.moves import free_name
from engine.homeworlds.notation import (
    Attack,
    Build,
    Catastrophe,
    Discover,
    Done,
    Homeworld,
    Move,
    Pass,
    SacrificeStep,
    Step,
    Trade,
)
from engine.homeworlds.pieces import COLOURS, PIECES
from engine.homeworlds.state import HOMEWORLD_NAMES, State
from engine.kit.base import RESIGN

MAX_PLIES = 250
RESIGN_CHANCE = 0.003
PLAYERS = ("red", "yellow")


def check_pieces(state: State) -> None:
    table = [piece for system in state.systems for piece in system.pieces()]
    assert all(0 <= state.bank[piece] <= 3 for piece in PIECES)
    assert len(table) + sum(state.bank.values()) == 36
    for system in state.systems:
        assert system.stars and (system.home is not None or not system.empty())


def check_files_and_views(state: State) -> None:
    assert GAME.from_position(json.loads(json.dumps(GAME.to_position(state)))) == state
    over = state.stage == "over"
    for viewer in (None, *PLAYERS):
        shown = GAME.view(state, viewer)
        assert ("seed" in shown) == over
        if not over:
            assert f'"{state.seed}"' not in json.dumps(shown)
    GAME.table(GAME.view(state, PLAYERS[0]))
    GAME.board_svg(GAME.view(state, None))


def as_listed(state: State, step: Step) -> Step:
    """A discovery under a free name is listed under the first free Greek letter."""
    if isinstance(step, Discover):
        name = step.name.lower()
        if state.system(name) is None and name not in (n.lower() for n in HOMEWORLD_NAMES):
            return replace(step, name=free_name(state))
    return step


def random_step(state: State, seat: str, rng: random.Random) -> Step:
    """A well-formed step, legal or not: mostly about one of `seat`'s ships, where it is."""
    names = [system.name for system in state.systems] or ["North"]
    piece, other, where, there = rng.choice(PIECES), rng.choice(PIECES), rng.choice(names), rng.choice(names)
    owned = [(system.name, ship) for system in state.systems for ship in system.ships[state.seat(seat)]]
    if owned and rng.random() < 0.7:
        where, piece = rng.choice(owned)
    kinds: list[Step] = [
        Build(piece, where),
        Trade(piece, other, where),
        Move(piece, where, there),
        Discover(piece, where, other, rng.choice(["Zed", "north", there, "Alpha"])),
        Attack(piece, where),
        SacrificeStep(piece, where),
        Catastrophe(where, rng.choice(COLOURS)),
        Pass(),
        Done(),
        Homeworld(tuple(sorted((piece, other), key=PIECES.index)), rng.choice(PIECES)),
    ]
    return rng.choice(kinds)


def check_listing(state: State, seat: str, rng: random.Random) -> list[Step]:
    listed = GAME.legal_moves(state, seat)
    assert listed[-1] == RESIGN
    steps = [step for step in listed[:-1] if step != RESIGN]
    assert all(GAME.parse(str(step)) == step for step in steps)
    assert len(set(map(str, steps))) == len(steps)
    for step in rng.sample(steps, min(6, len(steps))):
        GAME.apply(state, step, seat)  # every listed step is taken
    known = set(steps)
    for _ in range(15):
        step = random_step(state, seat, rng)
        if as_listed(state, step) in known:
            GAME.apply(state, step, seat)
            continue
        try:
            GAME.apply(state, step, seat)
        except IllegalMoveError:
            continue
        raise AssertionError(f"{step} was not listed but apply took it")
    return steps


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.text(alphabet="0123456789abcdef", min_size=1, max_size=12),
    catastrophes=st.sampled_from(["anytime", "end"]),
    suicide=st.sampled_from(["legal", "illegal"]),
    setup=st.sampled_from(["standard", "free"]),
    rng=st.randoms(use_true_random=True),
)
def test_random_playouts_keep_every_invariant(
    seed: str, catastrophes: str, suicide: str, setup: str, rng: random.Random
) -> None:
    options = {"catastrophes": catastrophes, "suicide": suicide, "setup": setup}
    seed = f"secret-{seed}"  # nothing else in a view reads like this
    state = GAME.new_game(PLAYERS, seed, options)
    log: list[tuple[str, str]] = []
    while state.stage != "over" and len(log) < MAX_PLIES:
        check_pieces(state)
        check_files_and_views(state)
        seat = state.to_move or ""
        steps = check_listing(state, seat, rng)
        assert GAME.legal_moves(state, state.other(seat)) == [RESIGN]
        if rng.random() < RESIGN_CHANCE or not steps:
            seat, step = rng.choice(PLAYERS), RESIGN
        else:
            step = rng.choice(steps)
        before = GAME.to_position(state)
        after = GAME.apply(state, step, seat)
        assert GAME.to_position(state) == before, "apply changed the State it was given"
        log.append((seat, str(step)))
        state = after
    check_pieces(state)
    check_files_and_views(state)
    event(f"ended by {state.reason}" if state.reason else "still on")
    record = GAME.make_record(PLAYERS, options, seed, log, GAME.record_result(state))
    assert GAME.replay(json.loads(json.dumps(record))) == state

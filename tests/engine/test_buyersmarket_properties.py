"""Random Buyer's Market playouts keep every invariant (STYLE.md, test layer 3).

At every ply: every pyramid and card is somewhere exactly once (the position file's own check), the
GRP pips on a pallet never exceed its value (B2), the legal-move list is canonical and every listed
move applies while sampled unlisted ones are refused, `apply` leaves its input alone, views hide the
piles below their top cards and the seed. A finished game is won by the best score (cards break a
tie), and its record replays to the very same State.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.buyersmarket.game import GAME
from engine.buyersmarket.notation import KIND_ORDER, Buy, Contribute, Move, PickPile, Place
from engine.buyersmarket.pieces import ALL_CARDS, SIZES, SUITS
from engine.buyersmarket.rules import scores
from engine.buyersmarket.state import State
from engine.errors import IllegalMoveError
from engine.interface import COLOURS
from engine.kit.base import RESIGN, Resign

RESIGN_CHANCE = 0.01
MAX_PLIES = 300


def check_state(state: State) -> None:
    assert GAME.from_position(json.loads(json.dumps(GAME.to_position(state)))) == state
    for pallet in state.pallets:
        assert pallet.resource_pips <= pallet.value, f"B2 broken on {pallet.card}"
    assert (state.phase == "over") == (GAME.result(state) is not None)
    if state.phase != "over":
        assert GAME.movers(state) == (state.to_move,)


def check_listing(state: State, colour: str, moves: list[Move]) -> None:
    texts = [str(m) for m in moves]
    assert len(set(texts)) == len(texts)
    assert moves[-1] == RESIGN
    keys = [(KIND_ORDER.index(type(m)), str(m)) for m in moves[:-1]]
    assert keys == sorted(keys)
    assert all(GAME.parse(t) == m for t, m in zip(texts, moves, strict=True))


def candidates(state: State, rng: random.Random) -> list[Move]:
    cards = [p.card for p in state.pallets] + [rng.choice(ALL_CARDS)]
    sizes = lambda: tuple(sorted(rng.choices(SIZES, k=rng.randint(0, 3)), key="SML".index, reverse=True))  # noqa: E731
    makers = [
        lambda: Place(rng.choice(SIZES), rng.choice(cards), rng.random() < 0.2),
        lambda: Contribute(rng.choice(SIZES), rng.choice(cards), rng.random() < 0.2),
        lambda: Buy(rng.choice(cards), sizes(), sizes(), sizes(), rng.random() < 0.2),
        lambda: PickPile(rng.choice(SUITS)),
    ]
    return [rng.choice(makers)() for _ in range(8)]


def check_moves(state: State, colour: str, moves: list[Move], rng: random.Random) -> None:
    before = json.dumps(GAME.to_position(state))
    for move in rng.sample(moves, min(4, len(moves))):
        GAME.apply(state, move, colour)
    for move in candidates(state, rng):
        if move in moves:
            continue
        try:
            GAME.apply(state, move, colour)
        except IllegalMoveError:
            continue
        raise AssertionError(f"{colour}: {move} is not listed but apply accepts it")
    assert json.dumps(GAME.to_position(state)) == before, "apply changed the State it was given"


def check_view(state: State, viewer: str) -> None:
    shown = GAME.view(state, viewer)
    text = json.dumps(shown)
    if state.phase == "over":
        return
    assert "seed" not in shown and "pile_order" not in shown, "a view shows the seed or the piles' order"
    hidden = {card for cards in state.piles.values() for card in cards[1:]}
    assert not [card for card in hidden if f'"{card}"' in text], "a view shows a card under a pile's top"


def check_outcome(state: State) -> None:
    if state.reason != "score":
        return
    points = scores(state)
    ranked = {c: (points[c], len(state.collected[c])) for c in points}
    assert set(state.winners) == {c for c, r in ranked.items() if r == max(ranked.values())}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from((2, 3, 4)),
    seed=st.text(alphabet="0123456789abcdef", min_size=1, max_size=12),
    rng=st.randoms(use_true_random=True),
)
def test_random_playouts_keep_every_invariant(players: int, seed: str, rng: random.Random) -> None:
    seating = COLOURS[:players]
    state = GAME.new_game(seating, seed, {})
    log: list[tuple[str, str]] = []
    while state.phase != "over" and len(log) < MAX_PLIES:
        check_state(state)
        check_view(state, rng.choice(seating))
        if rng.random() < RESIGN_CHANCE:
            colour = rng.choice(state.active_players())
            move: Move | Resign = RESIGN
        else:
            colour = state.to_move or ""
            moves = GAME.legal_moves(state, colour)
            check_listing(state, colour, moves)
            check_moves(state, colour, moves, rng)
            playable = moves[:-1]
            buys = [m for m in playable if isinstance(m, Buy)]
            move = rng.choice(buys) if buys and rng.random() < 0.4 else rng.choice(playable)
        state = GAME.apply(state, move, colour)
        log.append((colour, str(move)))
    check_state(state)
    check_outcome(state)
    record = GAME.make_record(seating, {}, seed, log, GAME.record_result(state))
    assert GAME.replay(json.loads(json.dumps(record))) == state

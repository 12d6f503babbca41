"""Hidden information: a player's view never shows another hand, the deck, the seed or an unrevealed starter."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine.kit.base import Resign
from engine.shuffle import commitment
from engine.zarkcity.game import GAME
from engine.zarkcity.notation import Choose, Move
from engine.zarkcity.rules import movers, new_game
from engine.zarkcity.state import Square, State
from engine.zarkcity.views import board_text, public_move_text, view

SEED = "v13w-s3cr3t"
legal_moves, apply = GAME.legal_moves, GAME.apply  # resign is the kit's step, listed last


def strings(data: Any) -> Iterator[str]:
    """Every string anywhere in a JSON-able value, keys included."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield str(key)
            yield from strings(value)
    elif isinstance(data, list):
        for item in data:
            yield from strings(item)


def secrets_of(state: State, viewer: str | None) -> set[str]:
    """Cards the viewer may not see: other hands, the deck, others' face-down starters (minus re-deal reveals)."""
    hidden = set(state.deck)
    for colour, hand in state.hands.items():
        if colour != viewer:
            hidden |= set(hand)
    if not state.starters_revealed():
        hidden |= {card for colour, card in state.starters if colour != viewer and card not in state.discard}
    shown = {card for _, _, hand in state.revealed for card in hand} | set(state.hands.get(viewer or "", ()))
    return hidden - shown - set(state.discard) - {sq.card for sq in state.board.values()}


def assert_hides_secrets(state: State, viewer: str | None) -> None:
    seen = view(state, viewer)
    json.dumps(seen)  # JSON-able
    found = set(strings(seen))
    if state.phase == "over":
        return
    assert not {"hands", "deck", "seed"} & set(seen)
    assert state.seed not in found
    assert not secrets_of(state, viewer) & found, f"{viewer} sees {secrets_of(state, viewer) & found}"
    if viewer in state.players:
        assert seen["hand"] == list(state.hands[viewer])
    else:
        assert "hand" not in seen


def playout(seed: str, players: list[str], deck_type: str, rng: random.Random, limit: int = 200) -> Iterator[State]:
    """A random legal game, resigning now and then, yielding every position."""
    state = new_game(players, seed, deck_type)
    yield state
    for _ in range(limit):
        if state.phase == "over":
            return
        colour = rng.choice(movers(state))
        options = legal_moves(state, colour)
        move: Move = rng.choice(options[:-1] or options)
        if rng.random() < 0.005:
            move = Resign()
        state = apply(state, move, colour)
        yield state


@pytest.mark.parametrize(
    ("players", "deck_type"), [(["red", "blue"], "standard"), (["red", "green", "black"], "arcade")]
)
def test_random_playouts_never_leak(players: list[str], deck_type: str) -> None:
    rng = random.Random(7)
    for game in range(4):
        for state in playout(f"{SEED}-{game}", players, deck_type, rng):
            for viewer in [None, *players]:
                assert_hides_secrets(state, viewer)


def test_seed_is_hidden_but_its_commitment_is_public() -> None:
    state = new_game(["red", "blue"], SEED)
    seen = view(state, "red")
    assert "seed" not in seen
    assert seen["seed_commitment"] == commitment(SEED)
    assert SEED not in json.dumps(seen)


def test_spectator_sees_only_sizes() -> None:
    state = new_game(["red", "blue", "green"], SEED)
    seen = view(state, None)
    assert "hand" not in seen
    assert seen["hand_sizes"] == {c: len(state.hands[c]) for c in state.players}
    assert seen["deck_size"] == len(state.deck)
    assert seen["movers"] == ["red", "blue", "green"]


def test_starters_hidden_until_all_have_chosen() -> None:
    state = new_game(["red", "blue"], SEED)
    red_card = next(c for c in state.hands["red"] if c[:-1].isdigit())
    chosen = apply(state, Choose(red_card), "red")
    assert view(chosen, "red")["starters"] == {"chosen": ["red"], "mine": red_card}
    assert view(chosen, "blue")["starters"] == {"chosen": ["red"], "mine": None}
    assert red_card not in json.dumps(view(chosen, "blue"))
    blue_card = next(c for c in chosen.hands["blue"] if c[:-1].isdigit())
    both = apply(chosen, Choose(blue_card), "blue")
    assert view(both, None)["starters"] == {
        "chosen": ["red", "blue"],
        "revealed": [["red", red_card], ["blue", blue_card]],
    }


def test_public_move_text() -> None:
    assert public_move_text(Choose("9S"), "red", False, "blue") == "choose ?"
    assert public_move_text(Choose("9S"), "red", False, None) == "choose ?"
    assert public_move_text(Choose("9S"), "red", False, "red") == "choose 9S"
    assert public_move_text(Choose("9S"), "red", True, "blue") == "choose 9S"
    assert public_move_text(Resign(), "red", False, "blue") == "resign"


def test_full_view_once_the_game_is_over() -> None:
    state = new_game(["red", "blue"], SEED)
    over = apply(state, Resign(), "red")
    seen = view(over, "blue")
    assert (seen["winner"], seen["reason"]) == ("blue", "resignation")
    assert seen["seed"] == SEED
    assert seen["deck"] == list(over.deck)
    assert seen["hands"] == {c: list(over.hands[c]) for c in over.players}


def test_board_and_stashes() -> None:
    board = {(1, 0): Square("8H"), (0, 0): Square("7H", (("blue", "M"), ("red", "S"), ("red", "S")))}
    state = State("standard", ("red", "blue"), "act", "red", board, {"red": (), "blue": ()}, (), ())
    seen = view(state, "red")
    assert seen["board"] == [
        {"at": [0, 0], "card": "7H", "pieces": {"red": "SS", "blue": "M"}},
        {"at": [1, 0], "card": "8H", "pieces": {}},
    ]
    assert seen["stashes"] == {"red": {"S": 1, "M": 3, "L": 3}, "blue": {"S": 3, "M": 2, "L": 3}}


def test_board_text() -> None:
    board = {(0, 0): Square("7H", (("blue", "M"), ("blue", "S"), ("red", "S"))), (1, 1): Square("8H")}
    state = State("standard", ("red", "blue"), "act", "red", board, {"red": (), "blue": ()}, (), ())
    assert board_text(state) == (
        "   0          1\n 0 7H rS bSM  .\n 1 .          8H\npieces: r=red b=blue; sizes S M L\n"
    )

"""The greedy bot makes progress in Deck Town (issue 30, item 23).

Scored on the one deal it imagines, a Draw with the hand at its limit looked like a gain every time
(the discard then keeps the best of a larger hand), so greedy drew three cards and discarded three,
turn after turn, and a game against it went nowhere. Now it draws only what it can keep.
"""

from __future__ import annotations

import pytest

from engine import registry
from engine.bots import choose_move

SEEDS = ("g1", "g2", "g3")
PLIES = 150


def greedy_against_random(seed: str) -> tuple[list[tuple[str, str]], object]:
    """A Deck Town game, greedy (red) against random (blue), for at most PLIES moves."""
    game = registry.get("decktown")
    state = game.new_game(["red", "blue"], seed, {})
    log: list[tuple[str, str]] = []
    while game.result(state) is None and len(log) < PLIES:
        seat = game.movers(state)[0]
        bot = "greedy" if seat == "red" else "random"
        text = choose_move(game, bot, state, seat, f"{seed}-{len(log)}", effort=0.01)
        state = game.apply(state, game.parse(text), seat)
        log.append((seat, text))
    return log, game.result(state)


@pytest.fixture(scope="module")
def games() -> dict[str, tuple[list[tuple[str, str]], object]]:
    return {seed: greedy_against_random(seed) for seed in SEEDS}


@pytest.mark.parametrize("seed", SEEDS)
def test_greedy_never_draws_only_to_discard_as_many(games, seed: str) -> None:
    log, _ = games[seed]
    undone = [
        ply
        for ply, ((by, move), (_, after)) in enumerate(zip(log, log[1:], strict=False))
        if by == "red" and move == "draw" and after.startswith("discard ") and len(after.split()) - 1 >= 3
    ]
    assert not undone, f"greedy drew three and discarded three at plies {undone}"


@pytest.mark.parametrize("seed", SEEDS)
def test_greedy_wins_against_random(games, seed: str) -> None:
    """Before the fix none of these games was over after 150 moves: greedy only drew and discarded."""
    log, result = games[seed]
    assert result is not None and result.winners == ("red",), f"after {len(log)} moves: {result}"

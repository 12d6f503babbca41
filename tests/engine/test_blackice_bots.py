"""The kit's bots on Black ICE: a bot's move follows from what its seat may know, so two states that
differ only in Codes the seat has not peeked (those nobody peeked, and those its opponent peeked), the
Box or the dice to come give the same move."""

from __future__ import annotations

import random
from typing import Any

import pytest
from blackice_helpers import make, pick, redealt, steps

from engine.blackice.game import GAME
from engine.blackice.state import State
from engine.bots import bots_for, choose_move, declared
from engine.bots.kit import KIT_BOTS, mcts_bot, random_bot

BOT = mcts_bot(iterations=24, playout=20)


def midgame(seed: str, plies: int) -> State:
    chooser = random.Random(seed)
    state = GAME.new_game(["red", "blue"], seed, {})
    for _ in range(plies):
        seat, move = pick(state, chooser, declare=0.0)
        state = GAME.apply(state, move, seat)
    return state


def test_same_move_when_only_unpeeked_codes_differ() -> None:
    state, _ = steps(
        make(codes=("green", "yellow", "blue"), keys={"red": ["green", None, None], "blue": [None] * 3}), "peek 1"
    )
    other = state.evolve(locks=(state.locks[0], state.locks[2], state.locks[1]))  # Locks 2 and 3 hold other Codes
    assert other != state and other.locks[0] == state.locks[0]
    bot = BOT("same")
    assert str(bot.choose(GAME, state, "red")) == str(bot.choose(GAME, other, "red"))


@pytest.mark.parametrize("plies", [3, 9, 17])
def test_same_move_in_played_games(plies: int) -> None:
    state = midgame(f"bots-{plies}", plies)
    seat = GAME.movers(state)[0]
    twin = redealt(state, seat, random.Random(plies))
    bot = BOT(f"bot-{plies}")
    assert str(bot.choose(GAME, state, seat)) == str(bot.choose(GAME, twin, seat))


def test_the_bots_finish_a_game() -> None:
    state = GAME.new_game(["red", "blue"], "bots-finish", {})
    bots = {"red": random_bot("r"), "blue": BOT("b")}
    for _ in range(400):
        if GAME.result(state) is not None:
            break
        seat = GAME.movers(state)[0]
        state = GAME.apply(state, bots[seat].choose(GAME, state, seat), seat)
    assert GAME.result(state) is not None


@pytest.mark.parametrize("plies", [0, 7, 21])
def test_determinize_reads_no_unpeeked_code(plies: int) -> None:
    """The same generator gives the same determinization of two states differing only in Codes the
    seat has not peeked; the Codes it peeked and every public fact are kept."""
    state = midgame(f"det-{plies}", plies)
    seat = GAME.movers(state)[0]
    twin = redealt(state, seat, random.Random(plies + 1))
    one, two = (GAME.determinize(s, seat, random.Random(5)) for s in (state, twin))
    assert one == two and one.seed != state.seed
    for lock, kept in zip(state.locks, one.locks, strict=True):
        assert kept.peeked_by == lock.peeked_by and (seat not in lock.peeked_by or kept.code == lock.code)
    assert one.keys == state.keys and one.actions == state.actions and len(one.box) == 9


def opponent_peeked() -> tuple[State, State]:
    """Red to move, having peeked Lock 1; blue has peeked Locks 2 and 3 (and holds Keys to copy). The
    twin differs only in the Codes blue knows and red does not, and in the Box's contents."""
    facts: dict[str, Any] = {
        "marks": (["red"], ["blue"], ["blue"]),
        "keys": {"red": ["green", None, None], "blue": [None, "yellow", "blue"]},
        "throw": ["tip", "dig", "aim"],
        "actions": ["wild", "dig", "aim"],
    }
    return make(codes=("green", "yellow", "blue"), **facts), make(codes=("green", "red", "red"), **facts)


@pytest.mark.parametrize("bot", ["random", "mcts"])
def test_the_opponents_peeked_codes_do_not_change_the_move(bot: str) -> None:
    """The package's bots (the kit's, through engine.bots.choose_move) see blue's marks, not blue's Codes."""
    state, twin = opponent_peeked()
    assert state.locks[1:] != twin.locks[1:] and state.box != twin.box
    for n in range(4):
        moves = {choose_move(GAME, bot, s, "red", f"seed-{n}", effort=0.2) for s in (state, twin)}
        assert len(moves) == 1, moves


def test_the_future_dice_and_resets_do_not_change_the_move() -> None:
    """Another seed means other dice to come and other Codes out of the Box on a Reset: the move stays."""
    state, _ = opponent_peeked()
    other = state.evolve(seed="another seed")
    assert {choose_move(GAME, "mcts", s, "red", "same", effort=0.2) for s in (state, other)} == {
        choose_move(GAME, "mcts", state, "red", "same", effort=0.2)
    }


def test_the_package_offers_the_kits_random_and_mcts() -> None:
    assert [bot.name for bot in bots_for("blackice")] == ["random", "mcts"]
    assert declared("blackice") is KIT_BOTS

"""The kit's bots (engine/bots/kit.py) on every registered game and on a dice game of the kit's own:
legal moves only, whole games that end, a seed that fixes the move, several steps a turn, dice, a
sealed step, 2 to 5 players, the evaluation plug-in, and nothing but what the seat may know."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine import registry
from engine.bots import arena, bot_factory, bots_for, choose_move
from engine.bots.kit import BotFactory, Mcts, Node, mcts_bot, play_steps, random_bot
from engine.bots.rng import Rng
from engine.interface import Game
from tests.engine.bots.dicegame import GAME as PIG
from tests.engine.bots.dicegame import TARGET, Bid, SealedPig, State, playing
from tests.engine.bots.test_bot_moves import mid_game, swap_hidden
from tests.registered import register

TINY = 0.05  # the kit MCTS's 100 iterations a move become 5
KIT_BOTS: dict[str, BotFactory] = {"random": random_bot, "mcts": mcts_bot()}


def play_game(game: Game, state: Any, bots: dict[str, BotFactory], plies: int, effort: float = TINY) -> Any:
    """Up to `plies` steps by `bots` for every seat (each sealed seat choosing unseen), each checked legal."""
    for ply in range(plies):
        if game.result(state) is not None:
            break
        sealed = PIG.sealed_seats(state) if game is PIG else ()
        deciding = sealed or game.movers(state)[:1]
        chosen = []
        for seat in deciding:
            move = bots[seat](f"ply{ply}", effort=effort).choose(game, state, seat)
            assert str(move) in {str(m) for m in game.legal_moves(state, seat)} and not game.is_resign(move)
            chosen.append((seat, move))
        state = play_steps(game, state, chosen)
    return state


# --- every registered game -------------------------------------------------------------------------


def test_every_registered_game_has_random_and_mcts() -> None:
    for game_id in registry.ids():
        names = [bot.name for bot in bots_for(game_id)]
        assert names[0] == "random" and "mcts" in names, game_id


@pytest.mark.parametrize("bot", sorted(KIT_BOTS))
@pytest.mark.parametrize("game_id", registry.ids())
def test_a_kit_bot_plays_only_legal_moves_in_every_game(game_id: str, bot: str) -> None:
    game = registry.get(game_id)
    state = game.new_game(["red", "blue", "green"][: min(game.info.player_counts)], f"kit-{game_id}", {})
    play_game(game, state, dict.fromkeys(("red", "blue", "green"), KIT_BOTS[bot]), 12)


@pytest.mark.parametrize("game_id", registry.ids())
def test_a_seed_fixes_a_kit_bots_move(game_id: str) -> None:
    game, state = mid_game(game_id, 10)
    seat = game.movers(state)[0]
    for make in KIT_BOTS.values():
        assert str(make("same", effort=TINY).choose(game, state, seat)) == str(
            make("same", effort=TINY).choose(game, state, seat)
        )


@pytest.mark.parametrize("game_id", ["buyersmarket", "martianchess"])
def test_the_kit_mcts_plays_a_whole_game_to_its_end(game_id: str) -> None:
    game = registry.get(game_id)
    bots = {"red": mcts_bot(playout=20), "blue": random_bot}
    final = play_game(game, game.new_game(["red", "blue"], f"whole-{game_id}", {}), bots, 600, effort=0.02)
    assert game.result(final) is not None


def test_a_game_without_its_own_mcts_is_given_the_kits() -> None:
    game = registry.get("buyersmarket")
    state = game.new_game(["red", "blue"], "given", {})
    seat = game.movers(state)[0]
    assert choose_move(game, "mcts", state, seat, "g", effort=TINY) == str(
        mcts_bot()("g", effort=TINY).choose(game, state, seat)
    )
    assert bot_factory("zarkcity", "mcts")("g").decide is not bot_factory("buyersmarket", "mcts")("g").decide


# --- only what the seat may know ---------------------------------------------------------------------


@pytest.mark.parametrize("plies", [0, 30])
def test_another_hand_does_not_change_the_kit_bots_move_in_zark_city(plies: int) -> None:
    game, state = mid_game("zarkcity", plies)
    seat = game.movers(state)[-1]
    other = swap_hidden(state, seat)
    assert other.hands != state.hands
    assert game.view(state, seat) | {"seed_commitment": ""} == game.view(other, seat) | {"seed_commitment": ""}
    for name, make in KIT_BOTS.items():
        for seed in ("s1", "s2"):
            moves = [str(make(seed, effort=0.03).choose(game, s, seat)) for s in (state, other)]
            assert moves[0] == moves[1], (name, seed)


class CountedPig(SealedPig):
    """The dice game, noting every determinization (a game of chance is reseeded: the seed of each)."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def reseed(self, state: State, seed: str) -> State:
        self.asked.append(seed)
        return super().reseed(state, seed)


def test_every_iteration_determinizes_afresh_for_the_bots_seat() -> None:
    game = CountedPig()
    mcts_bot(iterations=30)("fresh").choose(game, playing(3, turn_total=4, to_move=1), "yellow")
    # The bot's own view first, then one per iteration, each with future dice of its own.
    assert len(game.asked) == 31 and len(set(game.asked)) == 31


@pytest.mark.parametrize("seed", ["a", "b", "c"])
def test_the_future_dice_do_not_change_the_move(seed: str) -> None:
    """Two states differing only in the seed the die is thrown from: the bot samples its own dice."""
    state = playing(turn_total=5)
    other = replace(state, seed="another seed")
    assert PIG.die(state) != PIG.die(other) or PIG.die(replace(state, throws=1)) != PIG.die(replace(other, throws=1))
    for make in KIT_BOTS.values():
        assert make(seed).choose(PIG, state, "red") == make(seed).choose(PIG, other, "red")


# --- several steps a turn, chance, sealed steps, any number of players -----------------------------


def test_the_tree_lets_the_same_seat_choose_again_within_its_turn() -> None:
    """After red's `roll` the next node is red's again (its turn goes on), not the next seat's."""
    root = Mcts().search(PIG, playing(turn_total=4), "red", Rng(7), 200)
    assert set(root.stats) == {"red"}
    after_rolls = [child for key, child in root.children.items() if key == (("red", "roll"),)]
    assert after_rolls and "red" in after_rolls[0].stats


@pytest.mark.parametrize("seed", ["1", "2", "3", "4"])
def test_it_banks_a_winning_total(seed: str) -> None:
    state = playing(turn_total=TARGET + 1)  # red's target is TARGET + its bid of 1
    assert str(mcts_bot()(seed).choose(PIG, state, "red")) == "stop"


@pytest.mark.parametrize("seed", ["1", "2", "3", "4"])
def test_it_rolls_on_when_banking_would_hand_a_rival_the_game(seed: str) -> None:
    """Yellow needs one point and wins on almost any throw of its next turn: red's 2 banked would not
    save it, so red, choosing again and again within its own turn, rolls on."""
    state = playing(turn_total=2, scores=(0, TARGET))
    assert str(mcts_bot()(seed).choose(PIG, state, "red")) == "roll"


@pytest.mark.parametrize("players", [2, 3, 5])
@pytest.mark.parametrize("bot", sorted(KIT_BOTS))
def test_whole_dice_games_end_with_a_winner_from_the_sealed_bid_on(players: int, bot: str) -> None:
    seats = ("red", "yellow", "green", "blue", "black")[:players]
    state = PIG.new_game(seats, f"pig-{players}", {})
    assert PIG.sealed_seats(state) == seats
    final = play_game(PIG, state, dict.fromkeys(seats, KIT_BOTS[bot]), 2000, effort=0.1)
    result = PIG.result(final)
    assert result is not None and result.reason == "score" and len(result.winners) == 1


def test_at_a_sealed_step_every_seat_chooses_at_the_same_node() -> None:
    state = PIG.new_game(("red", "yellow", "green"), "sealed", {})
    root = Mcts().search(PIG, state, "yellow", Rng(3), 60)
    assert set(root.stats) == {"red", "yellow", "green"}
    assert all(len(key) == 3 for key in root.children)
    assert isinstance(mcts_bot()("x").choose(PIG, state, "yellow"), Bid)


# --- the evaluation plug-in ---------------------------------------------------------------------------


def banked(state: State, seat: str) -> float:
    """A plug-in that likes points in the bank (3 or more: as good as won)."""
    return min(1.0, state.scores[state.index(seat)] / 3)


def unbanked(state: State, seat: str) -> float:
    return 1.0 - banked(state, seat)


def test_a_games_own_evaluation_values_the_leaves() -> None:
    """With no playout the leaves are valued by the plug-in alone, so it decides the move."""
    state = playing(turn_total=3)
    assert str(mcts_bot(banked, playout=0)("e").choose(PIG, state, "red")) == "stop"
    assert str(mcts_bot(unbanked, playout=0)("e").choose(PIG, state, "red")) == "roll"


def test_without_an_evaluation_a_cut_line_is_an_even_share() -> None:
    values = Mcts(playout=0).values(PIG, playing(3), ("red", "yellow", "green"), {"red", "green"})
    assert values == {"red": pytest.approx(1 / 3), "green": pytest.approx(1 / 3)}


# --- the arena runs a game it has never heard of --------------------------------------------------------


def test_the_arena_plays_any_registered_game_with_the_kits_bots(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    register(monkeypatch, "tests.engine.bots.dicegame")
    assert [bot.name for bot in bots_for("sealedpig")] == ["random", "mcts"]
    argv = ["--game", "sealedpig", "--bots", "mcts,random,random", "--players", "3", "--games", "3"]
    assert arena.main([*argv, "--effort", "0.1"]) == 0
    out = capsys.readouterr().out
    assert "3 games, 3 players" in out and "mcts" in out and "0 without a winner" in out


def test_nodes_are_keyed_by_every_choosers_step() -> None:
    node = Node()
    assert node.child((("red", "roll"),)) is node.child((("red", "roll"),))

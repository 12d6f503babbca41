"""The bots' contract: which bots play which game, legal and deterministic moves, and no peeking.

A bot may decide only from what its seat sees: two states that differ only in cards the seat cannot
see (another hand, the deck order, a face-down starter, the seed) must give the very same move.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine import registry
from engine.bots import bot_info, bots_for, choose_move, unseen_dealt
from engine.bots.rng import Rng
from engine.interface import Game
from engine.kit.core import Hidden
from engine.zarkcity.state import State as ZarkState

TINY = 0.01  # a search budget small enough for tests: a few iterations, alpha-beta at depth 1
SEEDS = ("s1", "s2")


def play_until(game: Game, state: Any, plies: int, bot: str = "random") -> Any:
    """`plies` moves by one bot for every seat (the first mover of a simultaneous step first), short
    of a move that would end the game: a mid-game is a game in progress (random play may end one early)."""
    for ply in range(plies):
        seat = game.movers(state)[0]
        after = game.apply(state, game.parse(choose_move(game, bot, state, seat, f"setup{ply}", effort=TINY)), seat)
        if game.result(after) is not None:
            break
        state = after
    return state


def mid_game(game_id: str, plies: int = 24, players: int = 2) -> tuple[Game, Any]:
    game = registry.get(game_id)
    colours = ["red", "blue", "green", "yellow"][:players]
    return game, play_until(game, game.new_game(colours, f"mid-{game_id}", {}), plies)


# --- which bots play which game -----------------------------------------------------------------


def test_every_game_has_a_random_bot_and_the_listed_bots() -> None:
    """The games with bots of their own list them; every other game gets the kit's random and MCTS."""
    names = {game.info.id: [b.name for b in bots_for(game.info.id)] for game in registry.all_games()}
    own = {
        "zarkcity": ["random", "greedy", "mcts"],
        "decktown": ["random", "greedy", "mcts"],
        "martianchess": ["random", "mcts", "alphabeta"],
    }
    assert names == {game_id: own.get(game_id, ["random", "mcts"]) for game_id in registry.ids()}
    assert bot_info("mcts").label == "MCTS" and bot_info("alphabeta").label == "Alpha-beta"
    assert bots_for("no such game") == ()


def test_an_unknown_bot_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot 'clever'"):
        bot_info("clever")


def test_a_bot_refuses_a_game_it_does_not_play_and_a_seat_not_to_move() -> None:
    game = registry.get("martianchess")
    state = game.new_game(["red", "blue"], "refuse", {})
    with pytest.raises(ValueError, match="does not play Martian Chess"):
        choose_move(game, "greedy", state, game.movers(state)[0], "x")
    waiting = next(c for c in ("red", "blue") if c not in game.movers(state))
    with pytest.raises(ValueError, match=f"{waiting} is not to move"):
        choose_move(game, "alphabeta", state, waiting, "x")


# --- legal, whole games, deterministic -----------------------------------------------------------

# (game, bots for red and blue, the deal): deals where these bots finish within a few dozen moves.
LINE_UPS = [
    ("zarkcity", ("greedy", "mcts"), "whole-zarkcity-0"),
    ("decktown", ("mcts", "greedy"), "whole-decktown-7"),
    ("martianchess", ("alphabeta", "random"), "whole-martianchess"),
    ("buyersmarket", ("random", "random"), "whole-buyersmarket"),
]


@pytest.mark.parametrize(("game_id", "bots", "deal"), LINE_UPS)
def test_bots_play_a_whole_game_legally(game_id: str, bots: tuple[str, str], deal: str) -> None:
    game = registry.get(game_id)
    seats = {"red": bots[0], "blue": bots[1]}
    state = game.new_game(list(seats), deal, {})
    for ply in range(400):
        if game.result(state) is not None:
            break
        seat = game.movers(state)[0]
        text = choose_move(game, seats[seat], state, seat, f"ply{ply}", effort=TINY)
        move = game.parse(text)
        assert str(move) == text and not game.is_resign(move)
        assert text in {str(m) for m in game.legal_moves(state, seat)}
        state = game.apply(state, move, seat)
    assert game.result(state) is not None


@pytest.mark.parametrize("game_id", ["zarkcity", "decktown", "martianchess", "buyersmarket"])
def test_a_seed_fixes_the_move(game_id: str) -> None:
    game, state = mid_game(game_id)
    seat = game.movers(state)[0]
    for bot in bots_for(game_id):
        first = choose_move(game, bot.name, state, seat, "same", effort=TINY)
        assert choose_move(game, bot.name, state, seat, "same", effort=TINY) == first


# --- seat-only information -----------------------------------------------------------------------


def swap_hidden(state: ZarkState, seat: str) -> ZarkState:
    """The same view for `seat`, other cards hidden: each other hand traded with the deck, the deck
    reversed, face-down starters swapped for other number cards, and another seed."""
    deck = list(state.deck)
    hands = dict(state.hands)
    for colour in state.players:
        if colour == seat or not hands[colour] or not deck:
            continue
        given = len(hands[colour])
        pool = list(hands[colour]) + deck
        hands[colour], deck = tuple(pool[-given:]), pool[:-given]
    starters = list(state.starters)
    if state.phase == "choose":
        cards = state.ruleset.cards
        for i, (colour, card) in enumerate(starters):
            spare = next((j for j, c in enumerate(deck) if cards[c].is_number and c != card), None)
            if colour != seat and spare is not None:
                starters[i], deck[spare] = (colour, deck[spare]), card
    return state.evolve(hands=hands, deck=tuple(reversed(deck)), starters=tuple(starters), seed="another seed")


def assert_same_view_same_move(game: Game, real: Any, other: Any, seat: str) -> None:
    assert game.view(real, seat) | {"seed_commitment": ""} == game.view(other, seat) | {"seed_commitment": ""}
    for bot in bots_for(game.info.id):
        for seed in SEEDS:
            assert choose_move(game, bot.name, real, seat, seed, effort=TINY) == choose_move(
                game, bot.name, other, seat, seed, effort=TINY
            ), (bot.name, seed)


@pytest.mark.parametrize("game_id", ["zarkcity", "decktown"])
@pytest.mark.parametrize("plies", [0, 30])
def test_hidden_cards_do_not_change_the_move(game_id: str, plies: int) -> None:
    game, state = mid_game(game_id, plies)
    seat = game.movers(state)[-1]
    other = swap_hidden(state, seat)
    assert other.hands != state.hands or other.deck != state.deck
    assert_same_view_same_move(game, state, other, seat)


def test_a_face_down_starter_does_not_change_the_move() -> None:
    game = registry.get("zarkcity")
    state = play_until(game, game.new_game(["red", "blue", "green"], "starters", {}), 2)
    assert state.phase == "choose" and len(state.starters) == 2
    seat = game.movers(state)[0]
    other = swap_hidden(state, seat)
    assert dict(other.starters) != dict(state.starters)
    assert_same_view_same_move(game, state, other, seat)


def test_martian_chess_moves_do_not_depend_on_the_seed() -> None:
    game, state = mid_game("martianchess", 10)
    seat = game.movers(state)[0]
    for bot in ("random", "alphabeta"):
        for seed in SEEDS:
            assert choose_move(game, bot, state, seat, seed, effort=TINY) == choose_move(
                game, bot, state.evolve(seed="another"), seat, seed, effort=TINY
            )


def test_buyers_market_moves_do_not_depend_on_the_piles_under_their_tops() -> None:
    game, state = mid_game("buyersmarket", 6)
    seat = game.movers(state)[0]
    piles = {suit: cards[:1] + tuple(reversed(cards[1:])) for suit, cards in state.piles.items()}
    other = state.evolve(piles=piles, seed="another")
    assert other.piles != state.piles
    for seed in SEEDS:
        assert choose_move(game, "random", state, seat, seed) == choose_move(game, "random", other, seat, seed)


# --- determinize --------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", ["zarkcity", "decktown"])
@pytest.mark.parametrize("plies", [1, 30])
def test_a_deal_keeps_what_the_seat_sees(game_id: str, plies: int) -> None:
    game, state = mid_game(game_id, plies, players=3)
    seat = state.players[1]
    deal = game.determinize(state, seat, Rng.from_text("deal"))
    assert deal.hands[seat] == state.hands[seat]
    assert deal.board == state.board and deal.discard == state.discard
    assert {p: len(h) for p, h in deal.hands.items()} == {p: len(h) for p, h in state.hands.items()}
    assert len(deal.deck) == len(state.deck) and deal.seed != state.seed
    assert game.view(deal, seat) | {"seed_commitment": ""} == game.view(state, seat) | {"seed_commitment": ""}
    every = Counter(deal.deck) + sum((Counter(h) for h in deal.hands.values()), Counter())
    every += Counter(card for _, card in deal.starters if deal.phase == "choose")
    before = Counter(state.deck) + sum((Counter(h) for h in state.hands.values()), Counter())
    before += Counter(card for _, card in state.starters if state.phase == "choose")
    assert every == before
    numbers = state.ruleset.cards
    assert all(numbers[card].is_number for _, card in deal.starters)


def test_a_deal_depends_only_on_what_the_seat_sees() -> None:
    game, state = mid_game("zarkcity", 30, players=3)
    seat = state.players[0]
    other = swap_hidden(state, seat)
    assert game.determinize(state, seat, Rng.from_text("d")) == game.determinize(other, seat, Rng.from_text("d"))


def test_a_re_deal_hand_stays_with_its_holder_while_the_first_round_lasts() -> None:
    game = registry.get("zarkcity")
    seed = next(f"redeal{i}" for i in range(500) if game.new_game(["red", "blue"], f"redeal{i}", {}).revealed)
    state = game.new_game(["red", "blue"], seed, {})
    _, shown, cards = state.revealed[-1]
    seat = "blue" if shown == "red" else "red"
    for n in range(5):
        deal = game.determinize(state, seat, Rng.from_text(str(n)))
        assert not Counter(cards) - Counter(deal.hands[shown])


def test_buyers_market_deals_replace_the_seed_and_martian_chess_hides_nothing() -> None:
    game, state = mid_game("buyersmarket", 6)
    deal = unseen_dealt(game, state, state.players[0], Rng.from_text("x"))
    assert deal.seed != state.seed
    assert game.view(deal, state.players[0]) | {"seed_commitment": ""} == game.view(state, state.players[0]) | {
        "seed_commitment": ""
    }
    chess, position = mid_game("martianchess", 6)  # the seed decided only who started: nothing to deal
    assert (
        not isinstance(chess, Hidden)
        and unseen_dealt(chess, position, position.players[0], Rng.from_text("x")) is position
    )


# --- the generator ------------------------------------------------------------------------------


def test_the_generator_is_seeded_and_spreads_its_choices() -> None:
    first, second = Rng.from_text("a"), Rng.from_text("a")
    assert [first.randrange(10) for _ in range(20)] == [second.randrange(10) for _ in range(20)]
    rng = Rng.from_text("b")
    counts = Counter(rng.randrange(4) for _ in range(4000))
    assert set(counts) == {0, 1, 2, 3} and min(counts.values()) > 900
    items = list(range(10))
    Rng.from_text("c").shuffle(items)
    assert sorted(items) == list(range(10)) and items != list(range(10))
    assert all(0.0 <= Rng.from_text(str(i)).random() < 1.0 for i in range(50))

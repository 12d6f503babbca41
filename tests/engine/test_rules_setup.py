"""Setup of Zark City (rules.md 3): the deal, re-deal rounds, starters, the first round, the hand-limit step."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.errors import IllegalMoveError, PositionError
from engine.shuffle import shuffled
from engine.zarkcity import rules
from engine.zarkcity.cards import CARDS, deck_cards
from engine.zarkcity.rules import deal, movers, new_game
from engine.zarkcity.state import Square
from tests.engine.helpers import make_state, play

TWO = ("red", "blue")
THREE = ("red", "blue", "green")


def all_cards(state):
    return Counter(state.deck) + Counter(state.discard) + sum((Counter(h) for h in state.hands.values()), Counter())


# --- the deal ---------------------------------------------------------------------------------------


def test_deal_one_card_at_a_time_in_seat_order():
    state = new_game(THREE, "seed-1")
    deck = shuffled(deck_cards("standard"), "seed-1", 0)
    assert state.revealed == ()
    assert state.hands == {"red": deck[0:9:3], "blue": deck[1:9:3], "green": deck[2:9:3]}
    assert state.deck == deck[9:]
    assert (state.phase, state.to_move, state.turn, state.shuffles) == ("choose", None, 0, 0)
    assert state.board == {} and state.discard == ()


@pytest.mark.parametrize(
    ("deck_type", "size", "jokers"),
    [
        pytest.param("standard", 54, 2, id="standard-deck-54-cards-two-jokers"),
        pytest.param("arcade", 65, 0, id="arcade-deck-65-cards"),
    ],
)
def test_decks(deck_type, size, jokers):
    state = new_game(TWO, "deck", deck_type)
    cards = all_cards(state)
    assert sum(cards.values()) == size
    assert cards["JK"] == jokers
    assert state.deck_type == deck_type
    if deck_type == "arcade":
        assert {CARDS[c].suit for c in cards} == {"S", "H", "D", "C", "T"}


def test_same_seed_same_deal_other_seed_other_deal():
    assert new_game(TWO, "x") == new_game(TWO, "x")
    assert new_game(TWO, "x").deck != new_game(TWO, "y").deck


def test_redeal_reveals_hands_everyone_draws():
    # Seed "seed-10" deals yellow QD JK QS: no number card, twice in a row (the joker is no number card).
    state = new_game(("red", "yellow"), "seed-10")
    deck = shuffled(deck_cards("standard"), "seed-10", 0)
    assert state.revealed == ((1, "yellow", ("QD", "JK", "QS")), (2, "yellow", ("QD", "JK", "QS", "KS")))
    assert state.hands == {"red": (*deck[0:6:2], deck[6], deck[8]), "yellow": (*deck[1:6:2], deck[7], deck[9])}
    assert state.deck == deck[10:]


@pytest.mark.parametrize(
    ("deck", "revealed", "sizes"),
    [
        pytest.param(("2S", "KS", "3S", "QS", "4S", "JK", "5S", "5H"), ((1, "blue", ("KS", "QS", "JK")),), (4, 4),
                     id="joker-not-number-in-redeal"),
        pytest.param(("2S", "AS", "3S", "KS", "4S", "QS", "6S", "7S"), ((1, "blue", ("AS", "KS", "QS")),), (4, 4),
                     id="aces-and-face-cards-not-number"),
        pytest.param(("2S", "3S", "4S", "5S", "6S", "7S", "8S"), (), (3, 3), id="no-redeal-when-all-hold-numbers"),
    ],
)  # fmt: skip
def test_deal_from_a_known_deck(deck, revealed, sizes):
    hands, rest, shown = deal(TWO, deck)
    assert shown == revealed
    assert (len(hands["red"]), len(hands["blue"])) == sizes
    assert len(rest) == len(deck) - sum(sizes)


def test_deal_gives_up_when_the_deck_runs_out():
    assert deal(TWO, ("2S", "KS", "3S", "QS", "4S", "JK", "5S")) is None


def test_new_game_starts_again_with_the_next_shuffle_when_the_deck_runs_out(monkeypatch):
    dry = ("2S", "KS", "3S", "QS", "4S", "JK")

    def fake_shuffled(cards, seed, number):
        return dry if number == 0 else shuffled(cards, seed, number)

    monkeypatch.setattr(rules, "shuffled", fake_shuffled)
    state = new_game(TWO, "dry")
    assert state.shuffles == 1
    assert (state.hands, state.deck, state.revealed) == deal(TWO, shuffled(deck_cards("standard"), "dry", 1))


@pytest.mark.parametrize(
    ("players", "deck_type", "message"),
    [
        pytest.param(("red",), "standard", "2 to 5 players", id="one-player-refused"),
        pytest.param(("red", "yellow", "green", "blue", "black", "red"), "standard", "2 to 5", id="six-refused"),
        pytest.param(("red", "red"), "standard", "different colour", id="same-colour-twice-refused"),
        pytest.param(("red", "pink"), "standard", "not a player colour", id="unknown-colour-refused"),
        pytest.param(("red", "blue"), "tarot", "unknown deck", id="unknown-deck-refused"),
    ],
)
def test_bad_setup_arguments(players, deck_type, message):
    with pytest.raises(PositionError, match=message):
        new_game(players, "s", deck_type)


# --- choosing starters -----------------------------------------------------------------------------


def choosing(**hands):
    players = tuple(hands)
    return make_state(hands=hands, players=players, phase="choose", to_move=None, deck=("2C", "3C", "4C", "5C"))


def test_choose_takes_the_starter_out_of_the_hand_at_once():
    state = play(choosing(red=("9S", "KH"), blue=("4C",)), "red: choose 9S")
    assert state.hands["red"] == ("KH",)
    assert state.starters == (("red", "9S"),)
    assert movers(state) == ("blue",) and state.phase == "choose"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        pytest.param("red: choose KH", "Choose: KH is not a number card", id="choose-face-card-refused"),
        pytest.param("red: choose JK", "Choose: JK is not a number card", id="choose-joker-refused"),
        pytest.param("red: choose 2D", "Choose: 2D is not in your hand", id="choose-card-not-in-hand"),
        pytest.param("red: draw", "Draw: not now; every player is choosing a starter card", id="choose-phase-only"),
    ],
)
def test_choose_refused(line, message):
    with pytest.raises(IllegalMoveError, match=message):
        play(choosing(red=("9S", "KH", "JK"), blue=("4C",)), line)


def test_choose_only_once():
    state = play(choosing(red=("9S", "8S"), blue=("4C",), green=("5C",)), "red: choose 9S")
    with pytest.raises(IllegalMoveError, match="Choose: red has already chosen a starter"):
        play(state, "red: choose 8S")


def test_highest_starter_goes_first_and_is_placed_at_the_centre():
    state = play(choosing(red=("4S",), blue=("9C",), green=("5H",)), "red: choose 4S", "green: choose 5H",
                 "blue: choose 9C")  # fmt: skip
    assert state.first_player == "blue"
    assert state.board == {(0, 0): Square("9C", (("blue", "S"),))}
    assert (state.phase, state.to_move, state.pending) == ("place", "green", ("red",))


def test_starter_tie_commit_order():
    state = play(choosing(red=("9S",), blue=("9C",), green=("9H",)), "green: choose 9H", "red: choose 9S",
                 "blue: choose 9C")  # fmt: skip
    assert state.first_player == "green"
    assert (state.to_move, state.pending) == ("red", ("blue",))


def test_suits_do_not_break_ties():
    state = play(choosing(red=("9S",), blue=("9C",)), "blue: choose 9C", "red: choose 9S")
    assert state.first_player == "blue"


# --- the first round --------------------------------------------------------------------------------


def placing(**overrides):
    fields = {
        "board": {(0, 0): ("9C", "blue:S")},
        "hands": {"red": ("2H",), "blue": ("3H",), "green": ("4H",)},
        "phase": "place",
        "to_move": "green",
        "pending": ("red",),
        "starters": (("blue", "9C"), ("green", "5H"), ("red", "4S")),
        "first_player": "blue",
        "deck": ("2C", "3C", "4C"),
    }
    fields.update(overrides)
    return make_state(**fields)


def test_place_puts_the_starter_with_a_small_then_the_next_player_places():
    state = play(placing(), "green: place 1,0")
    assert state.board[(1, 0)] == Square("5H", (("green", "S"),))
    assert (state.phase, state.to_move, state.pending) == ("place", "red", ())


def test_place_next_to_any_card_in_play():
    state = play(placing(), "green: place 1,0", "red: place 2,0")
    assert state.board[(2, 0)] == Square("4S", (("red", "S"),))


def test_after_the_first_round_the_first_player_takes_turn_1_with_a_draw():
    state = play(placing(), "green: place 1,0", "red: place 0,1")
    assert (state.phase, state.to_move, state.turn) == ("act", "blue", 1)
    assert state.hands["blue"] == ("3H", "2C")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        pytest.param("green: place 1,1", "Place: 1,1 touches no card", id="place-diagonal-only-refused"),
        pytest.param("green: place 0,0", "Place: 0,0 already holds 9C", id="place-onto-card-refused"),
        pytest.param("red: place 1,0", "Not your turn: it is green's turn to place a starter", id="place-in-turn"),
        pytest.param("green: build 4H 1,0", "Build: not now; it is green.s turn to place", id="place-no-options"),
    ],
)
def test_place_refused(line, message):
    with pytest.raises(IllegalMoveError, match=message):
        play(placing(), line)


def test_setup_hand_limit_discards_in_turn_order_from_the_first_player():
    big = ("2S", "3S", "4S", "5S", "6S", "7S", "8S")
    state = placing(hands={"red": big, "blue": big + ("9S",), "green": ("2H",)}, to_move="red", pending=())
    state = play(state, "red: place 1,0")
    assert (state.phase, state.to_move, state.pending, state.turn) == ("discard", "blue", ("red",), 0)
    state = play(state, "blue: discard 2S 3S")
    assert (state.phase, state.to_move, state.pending) == ("discard", "red", ())
    state = play(state, "red: discard 8S")
    assert (state.phase, state.to_move, state.turn) == ("act", "blue", 1)
    assert state.discard == ("2S", "3S", "8S")
    assert len(state.hands["blue"]) == 7  # six kept plus the turn's automatic draw

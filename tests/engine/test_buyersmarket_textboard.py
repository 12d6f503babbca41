"""The market as text (the text part of a turn email): everything a player needs to move by reply,
in words, from the view alone: the pallets with their values and what they hold, each player's
bank and collected pyramids, the cards bought, whose move it is, and the buildings once scored."""

from __future__ import annotations

import re

from engine.buyersmarket.game import GAME
from tests.engine.test_buyersmarket_rules import market

PILES_TEXT = re.compile(r"\b(?:[SHDCT]|red|yellow|green|blue):[SML]\b")  # the files' "H:L", "red:S"


def mid_game():
    return market(
        3,
        pallets={"9H": "H:M H:S yellow:M green:S", "4S": "red:M", "3T": ""},
        crp={"red": "C:L red:L red:L H:M", "yellow": "D:L"},
        collected={"red": ("3H", "5C"), "yellow": ("3D",), "green": ()},
        banks={"red": {"L": 0, "M": 1, "S": 2}, "yellow": {"L": 1, "M": 1, "S": 2}, "green": {"L": 2, "M": 2, "S": 1}},
        to_move="green",
    )


def test_each_pallet_says_its_code_value_what_it_holds_and_what_lies_on_it() -> None:
    text = GAME.board_text(GAME.view(mid_game(), "red"))
    assert "9H 9♥, value 9: holds 6 pips, 3 short; hearts resources 3 of 9 pips" in text
    assert "on it: a hearts Medium, a hearts Small, a Medium of yellow's bank, a Small of green's bank" in text
    assert "4S 4♠, value 4: holds 2 pips, 2 short" in text and "on it: a Medium of red's bank" in text
    assert "3T 3★, value 3: holds 0 pips, 3 short" in text and "on it: nothing yet" in text
    assert not PILES_TEXT.search(text), PILES_TEXT.search(text)


def test_each_player_s_bank_collected_pyramids_cards_and_whose_move() -> None:
    text = GAME.board_text(GAME.view(mid_game(), "red"))
    assert text.startswith("Green's turn (turn 1).")
    assert "  red (you): bank 0 Large, 1 Medium, 2 Small; 2 cards bought: 3♥ 5♣" in text
    assert "collected 4: 3 Large (clubs, red's colour x2), 1 Medium (hearts)" in text
    assert "  yellow: bank 1 Large, 1 Medium, 2 Small; 1 card bought: 3♦" in text
    assert "  green (to move): bank 2 Large, 2 Medium, 1 Small; 0 cards bought" in text
    assert "collected nothing yet" in text
    assert "Global resources left (Large Medium Small): spades 3 3 3 | hearts" in text


def test_the_piles_show_their_top_card_and_size_and_nothing_under_it() -> None:
    state = mid_game()
    text = GAME.board_text(GAME.view(state, "green"))
    in_play = {p.card for p in state.pallets}  # made-up pallets: market() leaves their cards in the piles
    for suit, pile in state.piles.items():
        assert f"{pile[0]} " in text and f"({len(pile)} left)" in text
        for hidden in set(pile[1:]) - in_play:
            assert not re.search(rf"\b{hidden}\b", text), f"{hidden} lies under the {suit} pile"


def test_the_last_round_and_the_scored_end_in_words() -> None:
    called = mid_game().evolve(called_by="red", last_round=("yellow", "green"))
    assert "red called the building phase: everyone else has one more turn." in GAME.board_text(GAME.view(called, None))
    crp = "H:L S:L D:L red:L H:M C:M red:M T:S"
    scored = mid_game().evolve(to_move=None, reason="score", winners=("red",))
    scored = scored.evolve(crp={**scored.crp, "red": market(3, crp={"red": crp}).crp["red"]})
    text = GAME.board_text(GAME.view(scored, "yellow"))
    assert "The game is over: red won with" in text
    assert re.search(r"  red \(won\): \d+ points; bank", text)
    assert "red's building, " in text
    assert "level 1: 4 Large (spades, hearts, diamonds, red's colour)" in text
    assert "level 2: 3 Medium (hearts, clubs, red's colour)" in text and "level 3: 1 Small (stars)" in text
    assert re.search(r"bricks \+8, levels \+6, .* = \d+", text)
    assert not PILES_TEXT.search(text)

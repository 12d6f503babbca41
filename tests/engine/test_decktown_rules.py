"""Deck Town's rule tables: every difference of rules.md 14.2 (DT1-DT6 of 14.4) and each ruling D1-D9.

Each case is played on the shared Zark City family code under the DECK_TOWN ruleset; where the two
games differ, the same position is also played as Zark City to show the difference is the ruleset's.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from helpers import make_state, play

from engine.decktown.cards import CARDS, SUITS, myrmex_deck, parse_card
from engine.decktown.game import GAME
from engine.decktown.ruleset import DECK_TOWN, DECK_TYPE
from engine.errors import IllegalMoveError, NotationError, ReplayError
from engine.zarkcity.movegen import legal_moves
from engine.zarkcity.rules import deal, new_game, winners
from engine.zarkcity.state import State


def town(board: dict[Any, Any] | None = None, hands: dict[str, tuple[str, ...]] | None = None, **fields: Any) -> State:
    return make_state(board, hands, ruleset=DECK_TOWN, deck_type=DECK_TYPE, **fields)


def listed(state: State, colour: str = "red") -> set[str]:
    return {str(m) for m in legal_moves(state, colour)}


# --- D1: the Myrmex deck (14.1) ----------------------------------------------------------------------


def test_d1_the_myrmex_deck_has_72_cards() -> None:
    deck = myrmex_deck()
    kinds = Counter(CARDS[c].rank if not CARDS[c].number else "number" for c in deck)
    assert len(deck) == 72
    assert kinds == {"A": 6, "number": 48, "Crown": 6, "Pawn": 6, "Court": 6}


def test_d1_light_keeper_and_rite_are_left_out() -> None:
    names = {info.name for info in CARDS.values()}
    assert {"Watchman", "Harvest", "Borderland", "Consul", "Window", "Island"} <= names
    assert not {"Light Keeper", "Rite", "Excuse"} & names


@pytest.mark.parametrize(
    ("name", "code", "suits"),
    [
        ("Author", "2MK", ("M", "K")),
        ("Savage", "3LY", ("L", "Y")),
        ("Lunatic", "6MW", ("M", "W")),
        ("Chance Meeting", "7ML", ("M", "L")),
        ("Merchant", "9LK", ("L", "K")),
        ("Huntress", "KM", ("M",)),
        ("Windfall", "KK", ("K",)),
        ("Watchman", "PMYK", ("M", "Y", "K")),
        ("Borderland", "PWLY", ("W", "L", "Y")),
        ("Consul", "CMWK", ("M", "W", "K")),
        ("Island", "CSWY", ("S", "W", "Y")),
        ("Ace of Knots", "AK", ("K",)),
    ],
)
def test_d1_card_codes_names_and_suits(name: str, code: str, suits: tuple[str, ...]) -> None:
    assert (CARDS[code].name, CARDS[code].suits) == (name, suits)
    assert parse_card(name) == parse_card(code.lower()) == code


@pytest.mark.parametrize("rank", range(2, 10))
def test_d1_every_suit_once_per_rank(rank: int) -> None:
    cards = [info for info in CARDS.values() if info.number == rank]
    assert sorted(s for info in cards for s in info.suits) == sorted(SUITS)


@pytest.mark.parametrize("typed", ["chancemeeting", "Chance-Meeting", "7lm", "7ML"])
def test_codes_are_read_in_any_case_and_suit_order_and_by_name(typed: str) -> None:
    assert parse_card(typed) == "7ML"


@pytest.mark.parametrize("typed", ["7H", "10M", "6MS", "Light Keeper", "rite", ""])
def test_cards_outside_the_myrmex_deck_are_refused(typed: str) -> None:
    with pytest.raises(NotationError, match="not a Deck Town card"):
        parse_card(typed)


# --- DT1: Build beside a card you control -----------------------------------------------------------


def test_dt1_build_beside_a_shared_card_is_illegal_in_deck_town() -> None:
    state = town({(0, 0): ("6MW", "red:S blue:S")}, {"red": ("7ML",)})
    with pytest.raises(IllegalMoveError, match="must touch a card you control"):
        play(state, "red: build 7ML 1,0")
    assert not any(m.startswith("build") for m in listed(state))


def test_dt1_the_same_build_is_legal_in_zark_city() -> None:
    state = make_state({(0, 0): ("6S", "red:S blue:S")}, {"red": ("7H",)})
    assert play(state, "red: build 7H 1,0").board[(1, 0)].card == "7H"


def test_dt1_build_beside_a_card_you_control() -> None:
    state = town({(0, 0): ("6MW", "red:S blue:S"), (0, 1): ("2MK", "red:S")}, {"red": ("7ML",)})
    after = play(state, "red: build 7ML 1,1")
    assert after.board[(1, 1)].card == "7ML"
    assert "build 7ML 1,1" in listed(state) and "build 7ML 1,0" not in listed(state)


# --- DT2: three of a kind shares no suit --------------------------------------------------------------


def test_dt2_three_sixes_sharing_no_suit_in_an_l_win() -> None:
    board = {(0, 0): ("6MW", "red:S"), (1, 0): ("6LK", "red:S"), (1, 1): ("6SY", "blue:S")}
    after = play(town(board, {"red": ("PMYK",)}), "red: convert blue S 1,1 into S pay PMYK")
    assert (after.phase, after.winner, after.reason) == ("over", "red", "poker block")


def test_dt2_two_copies_of_a_card_are_no_three_of_a_kind() -> None:
    state = town({(0, 0): ("6MW", "red:S"), (1, 0): ("6MW", "red:S"), (2, 0): ("6LK", "red:S")}, {})
    assert winners(state) == set()


def test_dt2_zark_city_three_of_a_kind_ignores_suits() -> None:
    state = make_state({(0, 0): ("6S", "red:S"), (1, 0): ("6S", "red:S"), (2, 0): ("6H", "red:S")}, {})
    assert winners(state) == {"red"}


# --- DT3 and D3: straight flushes of four or more, connected ------------------------------------------


MOON_LINE = {(0, 0): ("2MK", "red:S"), (1, 0): ("3MW", "red:S"), (2, 0): ("4MS", "red:S")}


def test_dt3_three_suited_cards_in_a_line_do_not_win() -> None:
    assert winners(town(MOON_LINE, {})) == set()


def test_dt3_a_fourth_connected_moon_wins() -> None:
    state = town(MOON_LINE | {(2, 1): ("5ML", "red:S blue:S")}, {"red": ("PWLY",)})
    after = play(state, "red: demolish blue S 2,1 pay PWLY")
    assert (after.phase, after.winner, after.reason) == ("over", "red", "poker block")


def test_dt3_a_flush_in_any_order_and_shape_wins() -> None:
    square = {(0, 0): ("5ML", "red:S"), (1, 0): ("2MK", "red:S"), (0, 1): ("4MS", "red:S"), (1, 1): ("3MW", "red:S")}
    assert winners(town(square, {})) == {"red"}


def test_dt3_a_run_of_four_needs_consecutive_ranks() -> None:
    gap = {(0, 0): ("2MK", "red:S"), (1, 0): ("3MW", "red:S"), (2, 0): ("4MS", "red:S"), (3, 0): ("6MW", "red:S")}
    assert winners(town(gap, {})) == set()


def test_d3_the_hand_itself_must_be_connected() -> None:
    """Four Moons in one controlled region, but 9WY (no Moon) is the only link to the fourth: no win."""
    board = MOON_LINE | {(3, 0): ("9WY", "red:S"), (4, 0): ("5ML", "red:S")}
    assert winners(town(board, {})) == set()


def test_d3_all_cards_of_the_hand_controlled_by_one_player() -> None:
    board = MOON_LINE | {(3, 0): ("5ML", "red:S blue:S")}
    assert winners(town(board, {})) == set()


# --- DT4, D4, D7: attacks and the suit-matched replacement --------------------------------------------


def lunatic(card: str = "6MW") -> State:
    return town({(0, 0): (card, "blue:S"), (0, 1): ("2MK", "red:S")}, {"red": ("KW",)}, deck=("3SK", "4WL", "5SW"))


def test_dt4_sea_converts_a_small_on_the_lunatic_and_draws_two() -> None:
    after = play(lunatic(), "red: convert blue S 0,0 into S pay KW")
    assert after.board[(0, 0)].pieces == (("red", "S"),)
    assert after.hands["red"] == ("3SK", "4WL")  # change: 3 pips for a 1-pip piece; all of it by default
    assert "convert blue S 0,0 into S pay KW" in listed(lunatic())


# --- D9: the change draw is optional: none up to one a pip overpaid, the notation says how many ------


@pytest.mark.parametrize(("written", "drawn"), [("", ("3SK", "4WL")), (" draw 1", ("3SK",)), (" draw 0", ())])
def test_d9_the_attacker_draws_as_many_change_cards_as_the_move_says(written: str, drawn: tuple[str, ...]) -> None:
    after = play(lunatic(), f"red: demolish blue S 0,0 pay KW{written}")
    assert after.hands["red"] == drawn
    assert after.deck == ("3SK", "4WL", "5SW")[len(drawn) :]


def test_d9_the_legal_moves_offer_every_number_of_change_cards() -> None:
    demolish = {m for m in listed(lunatic()) if m.startswith("demolish")}
    assert demolish == {
        "demolish blue S 0,0 pay KW",
        "demolish blue S 0,0 pay KW draw 1",
        "demolish blue S 0,0 pay KW draw 0",
    }
    converts = {m for m in listed(lunatic()) if m.startswith("convert")}
    assert converts == {f"convert blue S 0,0 into S pay KW{n}" for n in ("", " draw 1", " draw 0")}


def test_d9_an_exact_payment_has_no_draw_to_choose() -> None:
    state = town({(0, 0): ("6MW", "blue:L"), (0, 1): ("2MK", "red:S")}, {"red": ("KW",)}, deck=("3SK",))
    assert {m for m in listed(state) if m.startswith("demolish")} == {"demolish blue L 0,0 pay KW"}
    assert play(state, "red: demolish blue L 0,0 pay KW draw 0").hands["red"] == ()


def test_d9_no_more_than_the_change() -> None:
    with pytest.raises(IllegalMoveError, match="overpays by 2 pips, so draw 0 to 2 change cards, not 3"):
        play(lunatic(), "red: demolish blue S 0,0 pay KW draw 3")


def test_d9_zark_city_draws_the_whole_change() -> None:
    state = make_state({(0, 0): ("6S", "blue:S"), (0, 1): ("2S", "red:S")}, {"red": ("KH",)}, deck=("3C", "4C"))
    with pytest.raises(IllegalMoveError, match=r"in Zark City the change is drawn in full \(ruling A9\)"):
        play(state, "red: demolish blue S 0,0 pay KH draw 0")
    assert not any("draw 0" in str(m) or "draw 1" in str(m) for m in legal_moves(state, "red"))


@pytest.mark.parametrize("text", ["demolish blue S 0,0 pay KW draw", "demolish blue S 0,0 pay KW draw two"])
def test_d9_draw_takes_one_number(text: str) -> None:
    with pytest.raises(NotationError, match="draw after the paid cards takes how many change cards"):
        GAME.parse(text)


@pytest.mark.parametrize("text", ["demolish blue S 0,0 pay KW draw 1", "convert blue M 1,-2 into M pay CMWK draw 0"])
def test_d9_the_notation_round_trips(text: str) -> None:
    assert str(GAME.parse(text)) == text
    assert GAME.parse(text.upper().replace("DRAW", "Draw")) == GAME.parse(text)


def test_dt4_on_the_market_the_sea_may_only_demolish() -> None:
    state = lunatic("6LK")
    with pytest.raises(IllegalMoveError, match="KW shares no suit with 6LK"):
        play(state, "red: convert blue S 0,0 into S pay KW")
    after = play(state, "red: demolish blue S 0,0 pay KW")
    assert after.board[(0, 0)].pieces == () and after.stash("blue")["S"] == 3
    assert "demolish blue S 0,0 pay KW" in listed(state)
    assert not any(m.startswith("convert") for m in listed(state))


def test_d4_the_replacement_is_the_same_size() -> None:
    state = town({(0, 0): ("6MW", "blue:M"), (0, 1): ("2MK", "red:S")}, {"red": ("CMWK",)})
    with pytest.raises(IllegalMoveError, match="same size"):
        play(state, "red: convert blue M 0,0 into S pay CMWK")
    assert play(state, "red: convert blue M 0,0 into M pay CMWK").board[(0, 0)].pieces == (("red", "M"),)
    assert {m for m in listed(state) if m.startswith("convert")} == {"convert blue M 0,0 into M pay CMWK"}


def test_d7_every_paid_card_must_share_a_suit_with_the_board_card() -> None:
    """The Author (Moons/Knots): the Watchman and the Harvest share Moons; the Borderland shares nothing."""
    board = {(0, 0): ("2MK", "blue:M"), (0, 1): ("6MW", "red:S")}
    state = town(board, {"red": ("PMYK", "PWLY")})
    assert play(state, "red: demolish blue M 0,0 pay PMYK PWLY").board[(0, 0)].pieces == ()
    with pytest.raises(IllegalMoveError, match="PWLY shares no suit with 2MK"):
        play(state, "red: convert blue M 0,0 into M pay PMYK PWLY")
    matched = town(board, {"red": ("PMYK", "PMSL")})
    assert play(matched, "red: convert blue M 0,0 into M pay PMSL PMYK").board[(0, 0)].pieces == (("red", "M"),)


def test_zark_city_still_converts_into_a_smaller_piece() -> None:
    state = make_state({(0, 0): ("6S", "blue:M"), (0, 1): ("2S", "red:S")}, {"red": ("QH",)})
    assert play(state, "red: convert blue M 0,0 into S pay QH").board[(0, 0)].pieces == (("red", "S"),)


# --- DT5: Aces only fly ------------------------------------------------------------------------------


def test_dt5_an_ace_is_no_attack_card() -> None:
    state = town({(0, 0): ("6MW", "blue:S"), (0, 1): ("2MK", "red:S")}, {"red": ("AM",)})
    with pytest.raises(IllegalMoveError, match="AM is not an attack card"):
        play(state, "red: demolish blue S 0,0 pay AM")
    assert not any(m.startswith(("demolish", "convert")) for m in listed(state))


def test_dt5_an_ace_flies() -> None:
    state = town({(0, 0): ("6MW", "blue:S"), (0, 1): ("2MK", "red:S")}, {"red": ("AM",)})
    after = play(state, "red: fly 0,1 1,0 pay AM")
    assert after.board[(1, 0)].card == "2MK" and after.discard == ("AM",)


# --- D5: no redundant payment card -------------------------------------------------------------------


def test_d5_two_crowns_against_a_small_are_redundant() -> None:
    state = town({(0, 0): ("6MW", "blue:S"), (0, 1): ("2MK", "red:S")}, {"red": ("KM", "KW")})
    with pytest.raises(IllegalMoveError, match="entirely redundant"):
        play(state, "red: demolish blue S 0,0 pay KM KW")


# --- DT6 and the turn: hand limit 5, no start-of-turn draw -------------------------------------------


def test_dt6_six_cards_at_the_end_of_a_turn_discard_one() -> None:
    state = town({(0, 0): ("6MW", "red:S")}, {"red": ("2MK", "3MW", "4MS")}, deck=("5ML", "AM", "KM", "PMYK"))
    after = play(state, "red: draw")
    assert (after.phase, after.to_move, len(after.hands["red"])) == ("discard", "red", 6)
    assert {str(m) for m in legal_moves(after, "red")} >= {"discard AM", "discard KM"}
    done = play(after, "red: discard AM")
    assert (done.phase, done.to_move, len(done.hands["red"])) == ("act", "blue", 5)


def test_no_card_is_drawn_when_a_turn_starts() -> None:
    state = town({(0, 0): ("6MW", "red:S")}, {"red": (), "blue": ("2MK",)}, deck=("5ML", "AM", "KM", "PMYK"))
    after = play(state, "red: spawn 0,0")
    assert after.to_move == "blue" and after.hands["blue"] == ("2MK",) and len(after.deck) == 4


def test_the_first_round_discard_keeps_five() -> None:
    hand = ("2MK", "3MW", "4MS", "5ML", "6MW", "7ML")
    state = town(
        {(0, 0): ("9MS", "red:S")},
        {"blue": hand},
        phase="place",
        to_move="blue",
        first_player="red",
        starters=(("red", "9MS"), ("blue", "8MS")),
    )
    after = play(state, "blue: place 1,0")
    assert (after.phase, after.to_move) == ("discard", "blue")


# --- D2: first player by rank, then suit order -------------------------------------------------------


@pytest.mark.parametrize(
    ("red", "blue", "first"),
    [
        ("9MS", "8MS", "red"),
        ("6SY", "6MW", "blue"),  # same rank: Moons beats Suns, whoever chose first
        ("6LK", "6SY", "blue"),  # Suns beats Leaves
        ("6MW", "6MW", "red"),  # the very same card: the first to choose
    ],
)
def test_d2_first_player(red: str, blue: str, first: str) -> None:
    state = town({}, {"red": (red,), "blue": (blue,)}, phase="choose", to_move=None)
    after = play(state, f"red: choose {red}", f"blue: choose {blue}")
    assert after.first_player == first and after.board[(0, 0)].card == (red if first == "red" else blue)


# --- D6: the first round hatches as Zark City places -------------------------------------------------


def test_d6_the_first_round_places_beside_any_card() -> None:
    state = town(
        {(0, 0): ("9MS", "red:S")},
        {},
        phase="place",
        to_move="blue",
        first_player="red",
        starters=(("red", "9MS"), ("blue", "8MS")),
    )
    assert {"place 1,0", "place 0,1", "place -1,0", "place 0,-1"} <= listed(state, "blue")
    after = play(state, "blue: place 0,-1")
    assert after.board[(0, -1)].pieces == (("blue", "S"),) and (after.phase, after.to_move) == ("act", "red")


# --- D8: only 2-9 count as number cards --------------------------------------------------------------


def test_d8_aces_crowns_pawns_and_courts_are_not_number_cards_for_the_deal() -> None:
    deck = ("AM", "2MK", "KM", "3MW", "PMYK", "4MS", "5ML", "6MW")
    hands, rest, shown = deal(("red", "blue"), deck, CARDS)
    assert hands == {"red": ("AM", "KM", "PMYK", "5ML"), "blue": ("2MK", "3MW", "4MS", "6MW")}
    assert shown == ((1, "red", ("AM", "KM", "PMYK")),) and rest == ()


def test_d8_a_crown_is_never_built() -> None:
    state = town({(0, 0): ("6MW", "red:S")}, {"red": ("KM",)})
    with pytest.raises(IllegalMoveError, match=r"only 2-9 go on the board"):
        play(state, "red: build KM 1,0")


# --- the simultaneous win: highest card, then suits, else a tie --------------------------------------


def test_the_higher_card_wins_a_double_win_even_for_the_player_not_moving() -> None:
    """Red's move completes red's three sixes and leaves blue alone on blue's three nines: blue wins."""
    board = {
        (0, 0): ("9MS", "blue:S"),
        (1, 0): ("9WY", "blue:S"),
        (2, 0): ("9LK", "blue:S red:S"),
        (2, 1): "6MW",
        (3, 1): ("6LK", "red:S"),
        (3, 0): ("6SY", "red:S"),
    }
    after = play(town(board, {}), "red: move S 2,0 2,1")
    assert (after.winner, after.reason) == ("blue", "poker block")


def test_the_same_highest_card_is_a_tie() -> None:
    board = {
        (0, 0): ("6MW", "blue:S"),
        (1, 0): ("6SY", "blue:S"),
        (2, 0): ("6LK", "blue:S red:S"),
        (2, 1): "6MW",
        (3, 1): ("6LK", "red:S"),
        (3, 0): ("6SY", "red:S"),
    }
    after = play(town(board, {}), "red: move S 2,0 2,1")
    assert (after.phase, after.winner, after.reason, after.tied) == ("over", None, "tie", ("red", "blue"))
    assert GAME.result(after) is not None and GAME.result(after).winners == ("red", "blue")  # type: ignore[union-attr]
    assert GAME.record_result(after) == {"winner": None, "reason": "tie", "tied": ["red", "blue"]}
    # The kit checks a record's stated tie like any result (rules.md B15): the same players, in seat order.
    assert GAME.check_result(after, GAME.record_result(after) or {}, 1) == after
    with pytest.raises(ReplayError, match="says red won by poker block, but after 1 moves red and blue tied"):
        GAME.check_result(after, {"winner": "red", "reason": "poker block"}, 1)
    with pytest.raises(ReplayError, match="red and blue tied"):
        GAME.check_result(after, {"winner": None, "reason": "tie", "tied": ["blue", "red"]}, 1)


def test_a_game_record_replays_under_deck_town_rules() -> None:
    state = new_game(("red", "blue"), "dt-record", DECK_TYPE, DECK_TOWN)
    red, blue = (next(c for c in state.hands[p] if CARDS[c].number) for p in ("red", "blue"))
    moves = [("red", f"choose {red}"), ("blue", f"choose {blue}")]
    record = GAME.make_record(["red", "blue"], {}, "dt-record", moves, None)
    assert (record["game"], record["format"], record["rules"]) == ("decktown", "decktown-game/1", "decktown/1")
    assert GAME.replay(record).phase == "place"

"""Tables for the move generator: one row per rule case of rules.md 5, 7 and 8."""

from __future__ import annotations

import pytest

from engine.kit.base import Resign
from engine.zarkcity.game import GAME
from engine.zarkcity.notation import Move, parse_cell
from engine.zarkcity.state import State
from tests.engine.helpers import make_state

legal_moves, apply, parse = GAME.legal_moves, GAME.apply, GAME.parse  # resign is the kit's step, listed last


def position(
    layout: dict[str, str],
    red: str = "",
    blue: str = "",
    phase: str = "act",
    to_move: str | None = "red",
    **fields: object,
) -> State:
    """Red and blue; the board as {"0,0": "7H red:S blue:SM"}: a card, then colour:sizes of its pieces."""
    board = {}
    for at, text in layout.items():
        card, _, pieces = text.partition(" ")
        board[parse_cell(at)] = (card, pieces) if pieces else card
    hands = {"red": tuple(red.split()), "blue": tuple(blue.split())}
    return make_state(board, hands, phase=phase, to_move=to_move, deck=("2S",), **fields)


def texts(moves: list[Move]) -> list[str]:
    return [str(m) for m in moves]


def kind(state: State, verb: str, colour: str = "red") -> list[str]:
    return [t for t in texts(legal_moves(state, colour)) if t.split()[0] == verb]


# --- who may move ------------------------------------------------------------------------------


def test_non_mover_may_only_resign() -> None:
    state = position({"0,0": "7H red:S blue:S"}, red="KH", blue="QH")
    assert legal_moves(state, "blue") == [Resign()]


def test_over_has_no_moves() -> None:
    state = position({"0,0": "7H red:S"}, phase="over", to_move=None, winner="red", reason="resignation")
    assert legal_moves(state, "red") == []
    assert legal_moves(state, "blue") == []


def test_resigned_player_has_no_moves_in_choose() -> None:
    state = position({}, red="7H", blue="8H", phase="choose", to_move=None, resigned=("blue",))
    assert legal_moves(state, "blue") == []
    assert texts(legal_moves(state, "red")) == ["choose 7H", "resign"]


def test_resign_comes_last() -> None:
    state = position({"0,0": "7H red:S"}, red="5C")
    assert legal_moves(state, "red")[-1] == Resign()


# --- setup phases ------------------------------------------------------------------------------


def test_choose_one_per_distinct_number_card() -> None:
    state = position({}, red="KH 7H 10C 3C JK JK AS", blue="9D", phase="choose", to_move=None)
    assert texts(legal_moves(state, "red")) == ["choose 10C", "choose 3C", "choose 7H", "resign"]


def test_choose_only_resign_once_chosen() -> None:
    state = position({}, red="7H", blue="9D", phase="choose", to_move=None, starters=(("red", "8H"),))
    assert legal_moves(state, "red") == [Resign()]
    assert texts(legal_moves(state, "blue")) == ["choose 9D", "resign"]


def test_place_every_empty_side_of_a_card() -> None:
    state = position({"0,0": "7H red:S", "1,1": "8H"}, blue="9D", phase="place", to_move="blue")
    expected = ["0,-1", "-1,0", "1,0", "0,1", "1,2", "2,1"]
    assert sorted(kind(state, "place", "blue")) == sorted(f"place {c}" for c in expected)
    assert legal_moves(state, "red") == [Resign()]


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        (
            "2S 3S 4S 5S 6S 7S 8S",
            ["discard 2S", "discard 3S", "discard 4S", "discard 5S", "discard 6S", "discard 7S", "discard 8S"],
        ),
        ("2S 3S 4S 5S 6S JK JK", ["discard 2S", "discard 3S", "discard 4S", "discard 5S", "discard 6S", "discard JK"]),
        ("2S 3S 4S 5S 6S 7S", []),
    ],
)
def test_discard_every_distinct_multiset(hand: str, expected: list[str]) -> None:
    state = position({"0,0": "7H red:S"}, red=hand, phase="discard")
    assert kind(state, "discard") == expected


def test_discard_two_with_two_jokers() -> None:
    state = position({"0,0": "7H red:S"}, red="2S 3S 4S 5S 6S JK JK KH", phase="discard")
    moves = kind(state, "discard")
    # C(8,2) = 28 pairs of positions; the two jokers make 6 pairs of the same multisets twice.
    assert len(moves) == 28 - 6
    assert "discard JK JK" in moves and len(set(moves)) == len(moves)
    assert texts(legal_moves(state, "red"))[-1] == "resign"
    assert all(m.split()[0] in ("discard", "resign") for m in texts(legal_moves(state, "red")))


# --- act: the simple options -------------------------------------------------------------------


def test_draw_is_always_listed() -> None:
    state = position({"0,0": "7H blue:S"}, red="")
    assert texts(legal_moves(state, "red")) == ["draw", "resign"]


@pytest.mark.parametrize(
    ("layout", "expected"),
    [
        ({"0,0": "7H red:SML"}, ["grow M 0,0", "grow S 0,0"]),
        ({"0,0": "7H red:S", "1,0": "8H red:MMM"}, ["grow M 1,0"]),  # no medium left for the small
        ({"0,0": "7H red:SM", "1,0": "8H red:LLL"}, ["grow S 0,0"]),  # no large left for the medium
        ({"0,0": "7H red:L"}, []),  # a large never grows
        ({"0,0": "7H red:S blue:S"}, ["grow S 0,0"]),  # only your own pieces
    ],
)
def test_grow_needs_the_next_size_in_stash(layout: dict[str, str], expected: list[str]) -> None:
    assert kind(position(layout), "grow") == expected


@pytest.mark.parametrize(
    ("layout", "expected"),
    [
        ({"0,0": "7H red:S", "1,0": "8H blue:S"}, ["spawn 0,0"]),
        ({"0,0": "7H red:M blue:S", "1,0": "8H red:L"}, ["spawn 0,0", "spawn 1,0"]),
        ({"0,0": "7H red:SS", "1,0": "8H red:S"}, []),  # no small left in the stash
    ],
)
def test_spawn_on_occupied_cards(layout: dict[str, str], expected: list[str]) -> None:
    assert kind(position(layout), "spawn") == expected


def test_build_orthogonal_to_an_occupied_card_not_diagonal() -> None:
    state = position({"0,0": "7H red:S blue:S", "1,1": "8H blue:S"}, red="3C 3C KH")
    expected = {f"build 3C {c}" for c in ("0,-1", "-1,0", "1,0", "0,1")}
    assert set(kind(state, "build")) == expected


def test_build_each_number_card_once() -> None:
    state = position({"0,0": "7H red:S"}, red="3C 4C AS JK")
    assert len(kind(state, "build")) == 2 * 4


def test_move_orthogonally_onto_cards_only() -> None:
    state = position({"0,0": "7H red:SS blue:L", "1,0": "8H", "1,1": "9H", "-1,-1": "2H"})
    assert kind(state, "move") == ["move S 0,0 1,0"]


def test_move_each_size() -> None:
    state = position({"0,0": "7H red:SM", "0,1": "8H blue:S", "1,1": "9H red:L"})
    assert kind(state, "move") == ["move L 1,1 0,1", "move M 0,0 0,1", "move S 0,0 0,1"]


def test_hatch_only_with_no_pieces() -> None:
    assert kind(position({"0,0": "7H red:S"}, red="3C"), "hatch") == []
    state = position({"0,0": "7H blue:S", "1,0": "8H"}, red="3C 4C")
    expected = [f"hatch {card} {c}" for card in ("3C", "4C") for c in ("-1,0", "0,-1", "0,1", "1,-1", "1,1", "2,0")]
    assert kind(state, "hatch") == sorted(expected)


# --- attacks: payments and range (rules.md 5.6, 7) ---------------------------------------------


@pytest.mark.parametrize(
    ("hand", "target", "payments"),
    [
        ("KH QH JH", "L", ["KH", "JH QH"]),  # not JH KH: the jack would be entirely redundant
        ("KH QH JH", "M", ["KH", "QH"]),  # not JH QH: 3 pips, the jack is redundant
        ("KH QH JH", "S", ["JH", "KH", "QH"]),  # change draws of 1 and 2 are allowed
        ("QH QS", "L", ["QS QH"]),  # total 4, change 1 ([004]'s worked example)
        ("QH QS", "M", ["QH", "QS"]),  # both queens: the second is redundant
        ("JK JK AS", "M", ["AS JK", "JK JK"]),  # two jokers are one card identity
        ("JK JK AS", "L", ["AS JK JK"]),
        ("JS JK", "L", []),  # not enough pips
        ("7H 8H", "S", []),  # number cards are not attack cards
    ],
)
def test_payments(hand: str, target: str, payments: list[str]) -> None:
    state = position({"0,0": f"7H red:S blue:{target}"}, red=hand)
    found = kind(state, "demolish")
    assert sorted(found) == sorted(f"demolish blue {target} 0,0 pay {p}" for p in payments)


def test_payment_lists_are_canonical_and_parse_back() -> None:
    state = position({"0,0": "7H red:S blue:L"}, red="JK QC JS AH")
    for move in legal_moves(state, "red"):
        assert parse(str(move)) == move


@pytest.mark.parametrize(
    ("layout", "expected"),
    [
        ({"0,0": "7H red:S blue:M"}, ["convert blue M 0,0 into M pay KH", "convert blue M 0,0 into S pay KH"]),
        ({"0,0": "7H red:SSS blue:M"}, ["convert blue M 0,0 into M pay KH"]),  # no small left
        ({"0,0": "7H red:S blue:S", "1,0": "8H red:MMM"}, ["convert blue S 0,0 into S pay KH"]),
        ({"0,0": "7H red:SSS blue:S"}, []),  # only a small would fit and none is left
        (
            {"0,0": "7H red:S blue:L"},
            [
                "convert blue L 0,0 into L pay KH",
                "convert blue L 0,0 into M pay KH",
                "convert blue L 0,0 into S pay KH",
            ],
        ),
    ],
)
def test_convert_into_same_size_or_smaller_from_stash(layout: dict[str, str], expected: list[str]) -> None:
    assert kind(position(layout, red="KH"), "convert") == expected


def test_attack_range_same_or_orthogonal_card_only() -> None:
    layout = {"0,0": "7H red:S", "1,0": "8H blue:S", "1,1": "9H blue:M", "0,1": "2H red:M blue:L", "2,0": "3H blue:S"}
    state = position(layout, red="KH")
    targets = {" ".join(t.split()[1:4]) for t in kind(state, "demolish")}
    # 1,1 is diagonal to 0,0 but beside 0,1; 2,0 is two cells away from every card red occupies.
    assert targets == {"blue S 1,0", "blue M 1,1", "blue L 0,1"}


def test_attack_not_diagonally() -> None:
    state = position({"0,0": "7H red:S", "1,0": "8H", "1,1": "9H blue:S"}, red="KH")
    assert kind(state, "demolish") == []


def test_attack_never_targets_own_pieces() -> None:
    state = position({"0,0": "7H red:SM"}, red="KH QH JH")
    assert kind(state, "demolish") == [] and kind(state, "convert") == []


# --- fly (rules.md 5.7, 8) ---------------------------------------------------------------------


def test_fly_across_a_diagonal_link() -> None:
    # Without 1,0 the board is 0,0 and 2,1: two parts. Only 1,1 touches both (and a side of 2,1).
    state = position({"0,0": "7H blue:S", "1,0": "8H red:S", "2,1": "9H blue:S"}, red="AS")
    assert kind(state, "fly") == ["fly 1,0 1,1 pay AS"]


def test_fly_may_land_on_a_diagonal_only_link_when_the_rest_is_connected() -> None:
    state = position({"0,0": "7H red:S", "1,0": "8H", "2,0": "9H"}, red="AS AD")
    flights = kind(state, "fly")
    # 0,0 may go anywhere beside 1,0 or 2,0 except its own cell.
    dests = sorted({t.split()[2] for t in flights})
    assert dests == sorted(["1,-1", "2,-1", "3,0", "1,1", "2,1"])
    assert len(flights) == 2 * len(dests)  # each ace is a distinct card


def test_fly_needs_a_side_contact_after_the_move() -> None:
    # Flying the only neighbour's card: a lone card cannot land beside nothing but its old cell.
    state = position({"0,0": "7H blue:S", "1,0": "8H red:S"}, red="AS")
    assert kind(state, "fly") == sorted(f"fly 1,0 {c} pay AS" for c in ("0,-1", "-1,0", "0,1"))


def test_fly_a_lone_card_nowhere() -> None:
    state = position({"0,0": "7H red:S"}, red="AS")
    assert kind(state, "fly") == []


def test_fly_needs_an_ace_and_occupancy() -> None:
    state = position({"0,0": "7H red:S", "1,0": "8H blue:S"}, red="JK KH")
    assert kind(state, "fly") == []
    state = position({"0,0": "7H red:S", "1,0": "8H blue:S", "2,0": "9H"}, red="AC")
    assert {t.split()[1] for t in kind(state, "fly")} == {"0,0"}


def test_fly_a_shared_card() -> None:
    state = position({"0,0": "7H red:S blue:L", "1,0": "8H", "1,1": "9H"}, red="AC")
    assert "fly 0,0 0,1 pay AC" in kind(state, "fly")


# --- order ------------------------------------------------------------------------------------


def test_moves_sorted_by_kind_then_text() -> None:
    state = position({"0,0": "7H red:S blue:S", "1,0": "8H blue:M"}, red="AS KH 3C")
    moves = texts(legal_moves(state, "red"))
    order = ["draw", "grow", "spawn", "build", "move", "demolish", "convert", "fly", "hatch", "resign"]
    verbs = [m.split()[0] for m in moves]
    assert verbs == sorted(verbs, key=order.index)
    for verb in set(verbs):
        group = [m for m in moves if m.split()[0] == verb]
        assert group == sorted(group)
    assert len(moves) == len(set(moves))


# --- agreement with apply on the positions above --------------------------------------------------

AGREEMENT = {
    "fly across a diagonal link": position({"0,0": "7H blue:S", "1,0": "8H red:S", "2,1": "9H blue:S"}, red="AS"),
    "attack range": position(
        {"0,0": "7H red:S", "1,0": "8H blue:S", "1,1": "9H blue:M", "0,1": "2H red:M blue:L"}, red="KH QS JK JK AD"
    ),
    "two jokers to discard": position({"0,0": "7H red:S"}, red="2S 3S 4S 5S 6S JK JK KH", phase="discard"),
    "hatch": position({"0,0": "7H blue:S", "1,0": "8H"}, red="3C 4C AS"),
    "choose": position({}, red="KH 7H 10C 3C JK", blue="9D", phase="choose", to_move=None),
}


@pytest.mark.parametrize("name", AGREEMENT)
def test_every_listed_move_applies(name: str) -> None:
    state = AGREEMENT[name]
    colour = "red"
    for move in legal_moves(state, colour):
        assert apply(state, move, colour) != state, f"{move} changed nothing"

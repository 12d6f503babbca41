"""The Turn Options (rules.md 5): one row per rule case, legal rows with the squares they change."""

from __future__ import annotations

import re

import pytest

from engine.errors import IllegalMoveError
from engine.zarkcity.notation import Demolish
from engine.zarkcity.rules import apply
from engine.zarkcity.state import State
from tests.engine.helpers import make_state, play, square

# y grows southwards:
#   -1,-1 4S blue:S
#    0,0 7H red:S    1,0 8H blue:SL    2,0 5D (empty)    3,0 6D blue:S
#    0,1 9C red:M blue:M
LAYOUT = {
    (-1, -1): ("4S", "blue:S"),
    (0, 0): ("7H", "red:S"),
    (1, 0): ("8H", "blue:SL"),
    (2, 0): "5D",
    (3, 0): ("6D", "blue:S"),
    (0, 1): ("9C", "red:M blue:M"),
}
RED_HAND = ("7C", "KH", "QS", "JD", "AS", "JK")
DECK = ("2S", "3H", "4C", "5S", "6S", "7S")


def base(**overrides: object) -> State:
    fields: dict[str, object] = {
        "board": LAYOUT,
        "hands": {"red": RED_HAND, "blue": ("4D",)},
        "deck": DECK,
        "discard": ("10C",),
    }
    fields.update(overrides)
    return make_state(**fields)  # type: ignore[arg-type]


def refused(message: str) -> pytest.RaisesExc[IllegalMoveError]:
    return pytest.raises(IllegalMoveError, match=re.escape(message))


def without(hand: tuple[str, ...], *cards: str) -> tuple[str, ...]:
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return tuple(rest)


# --- legal options: (move, squares after it, red's hand after it) -----------------------------------

LEGAL = [
    pytest.param("grow S 0,0", {(0, 0): ("7H", "red:M")}, RED_HAND, id="grow-small-to-medium"),
    pytest.param("grow M 0,1", {(0, 1): ("9C", "red:L blue:M")}, RED_HAND, id="grow-medium-to-large"),
    pytest.param("spawn 0,0", {(0, 0): ("7H", "red:SS")}, RED_HAND, id="spawn-on-own-card"),
    pytest.param("spawn 0,1", {(0, 1): ("9C", "red:SM blue:M")}, RED_HAND, id="spawn-on-shared-card"),
    pytest.param("build 7C 0,-1", {(0, -1): "7C"}, without(RED_HAND, "7C"), id="build-next-to-own-card"),
    pytest.param("build 7C -1,1", {(-1, 1): "7C"}, without(RED_HAND, "7C"), id="build-shared-card-is-enough"),
    pytest.param("move S 0,0 1,0", {(0, 0): "7H", (1, 0): ("8H", "red:S blue:SL")}, RED_HAND,
                 id="move-onto-other-players-card"),
    pytest.param("move M 0,1 0,0", {(0, 1): ("9C", "blue:M"), (0, 0): ("7H", "red:SM")}, RED_HAND,
                 id="move-leaves-the-card-on-the-board"),
    pytest.param("demolish blue S 1,0 pay JD", {(1, 0): ("8H", "blue:L")}, without(RED_HAND, "JD"),
                 id="demolish-adjacent-card"),
    pytest.param("demolish blue M 0,1 pay QS", {(0, 1): ("9C", "red:M")}, without(RED_HAND, "QS"),
                 id="attack-on-own-card"),
    pytest.param("convert blue S 1,0 into S pay JD", {(1, 0): ("8H", "red:S blue:L")}, without(RED_HAND, "JD"),
                 id="convert-same-size"),
    pytest.param("convert blue L 1,0 into M pay KH", {(1, 0): ("8H", "red:M blue:S")}, without(RED_HAND, "KH"),
                 id="convert-smaller-piece"),
    pytest.param("demolish blue S 1,0 pay AS", {(1, 0): ("8H", "blue:L")}, without(RED_HAND, "AS"),
                 id="attack-ace-counts-one-pip"),
    pytest.param("demolish blue S 1,0 pay JK", {(1, 0): ("8H", "blue:L")}, without(RED_HAND, "JK"),
                 id="attack-joker-counts-one-pip"),
    pytest.param("fly 0,0 -1,0 pay AS", {(0, 0): None, (-1, 0): ("7H", "red:S")}, without(RED_HAND, "AS"),
                 id="fly-diagonal-link-keeps-board-connected"),
    pytest.param("fly 0,0 0,-1 pay AS", {(0, 0): None, (0, -1): ("7H", "red:S")}, without(RED_HAND, "AS"),
                 id="fly-isolated-piece-allowed"),
    pytest.param("fly 0,1 2,1 pay AS", {(0, 1): None, (2, 1): ("9C", "red:M blue:M")}, without(RED_HAND, "AS"),
                 id="fly-shared-card-carries-every-piece"),
]  # fmt: skip


@pytest.mark.parametrize(("line", "squares", "hand"), LEGAL)
def test_legal_option(line, squares, hand):
    before = base()
    after = play(before, f"red: {line}")
    for cell, spec in squares.items():
        assert after.board.get(cell) == (None if spec is None else square(spec)), cell
    untouched = before.board.keys() - squares.keys()
    assert {c: after.board[c] for c in untouched} == {c: before.board[c] for c in untouched}
    assert after.hands["red"] == hand
    assert (after.phase, after.to_move, after.turn) == ("act", "blue", 2)
    assert after.hands["blue"] == ("4D", "2S")  # the next turn opened with its draw


def test_draw_option_takes_three_cards_then_the_hand_limit():
    after = play(base(), "red: draw")
    assert after.hands["red"] == RED_HAND + ("2S", "3H", "4C")
    assert (after.phase, after.to_move, after.pending) == ("discard", "red", ())


def test_spent_cards_go_to_the_discard_pile_in_deck_order():
    after = play(base(hands={"red": ("QS", "JD", "7C")}), "red: demolish blue L 1,0 pay QS JD")
    assert after.discard == ("10C", "QS", "JD")
    after = play(base(), "red: fly 0,0 -1,0 pay AS")
    assert after.discard == ("10C", "AS")


def test_fly_isolated_piece_has_no_side_neighbour():
    after = play(base(), "red: fly 0,0 0,-1 pay AS")
    assert not any(n in after.board for n in ((1, 1), (-1, 1), (0, 0), (0, 2)))


# --- refused options -----------------------------------------------------------------------------

ILLEGAL = [
    pytest.param("build 7C 1,-1", "Build: 7C must touch a card you occupy; 1,-1 touches only blue's card at 1,0",
                 id="build-needs-occupied-neighbour"),
    pytest.param("build 7C 2,1", "Build: 7C must touch a card you occupy; 2,1 touches only an empty card at 2,0",
                 id="build-empty-card-not-enough"),
    pytest.param("build 7C 1,2", "Build: 1,2 touches no card", id="build-diagonal-neighbour-not-enough"),
    pytest.param("build 7C 2,0", "Build: 2,0 already holds 5D", id="build-onto-a-card-refused"),
    pytest.param("build KH 0,-1", "Build: KH is not a number card", id="build-face-card-refused"),
    pytest.param("build AS 0,-1", "Build: AS is not a number card", id="build-ace-refused"),
    pytest.param("build JK 0,-1", "Build: JK is not a number card", id="build-joker-refused"),
    pytest.param("build 2C 0,-1", "Build: 2C is not in your hand", id="build-card-not-in-hand"),
    pytest.param("grow L 1,0", "Grow: a large never grows", id="grow-large-never"),
    pytest.param("grow S 1,0", "Grow: red has no small on 1,0", id="grow-needs-own-piece"),
    pytest.param("grow S 5,5", "Grow: 5,5 has no card", id="grow-needs-a-card"),
    pytest.param("spawn 1,0", "Spawn: red does not occupy 1,0", id="spawn-needs-occupied-card"),
    pytest.param("spawn 2,0", "Spawn: red does not occupy 2,0", id="spawn-empty-card-refused"),
    pytest.param("move S 0,0 1,1", "Move: 1,1 is not orthogonally adjacent to 0,0", id="move-diagonal-refused"),
    pytest.param("move S 0,0 2,0", "Move: 2,0 is not orthogonally adjacent to 0,0", id="move-one-step-only"),
    pytest.param("move S 0,0 -1,0", "Move: -1,0 has no card (a piece moves only onto an orthogonally adjacent card)",
                 id="move-onto-empty-cell-refused"),
    pytest.param("move L 1,0 2,0", "Move: red has no large on 1,0", id="move-needs-own-piece"),
    pytest.param("demolish red S 0,0 pay JD", "Demolish: you may not attack your own piece", id="self-target-refused"),
    pytest.param("convert red M 0,1 into S pay QS", "Convert: you may not attack your own piece",
                 id="convert-self-target-refused"),
    pytest.param("demolish blue S 3,0 pay JD", "Demolish: 3,0 is out of range", id="attack-out-of-range"),
    pytest.param("demolish blue S -1,-1 pay JD", "Demolish: -1,-1 is out of range", id="attack-diagonal-out-of-range"),
    pytest.param("demolish blue M 1,0 pay QS", "Demolish: blue has no medium on 1,0", id="attack-needs-target-piece"),
    pytest.param("demolish blue S 4,4 pay JD", "Demolish: 4,4 has no card", id="attack-needs-a-card"),
    pytest.param("demolish blue S 1,0 pay 7C", "Demolish: 7C is not an attack card", id="attack-number-card-refused"),
    pytest.param("demolish blue S 1,0 pay QH", "Demolish: QH is not in your hand", id="attack-card-not-in-hand"),
    pytest.param("demolish blue S 1,0 pay JK JK", "Demolish: JK is in your hand only once",
                 id="attack-joker-twice-needs-two"),
    pytest.param("demolish blue L 1,0 pay QS", "Demolish: 2 pips do not pay for a large (3 pips)",
                 id="attack-underpaid-refused"),
    pytest.param("demolish blue L 1,0 pay KH JD",
                 "Demolish: JD is entirely redundant (the other cards already pay the 3 pips a large costs)",
                 id="attack-redundant-card-refused"),
    pytest.param("demolish blue S 1,0 pay AS JD",
                 "Demolish: AS is entirely redundant (the other cards already pay the 1 pip a small costs)",
                 id="attack-redundant-ace-refused"),
    pytest.param("convert blue S 1,0 into M pay QS", "Convert: a small cannot become a medium",
                 id="convert-never-larger"),
    pytest.param("fly 0,0 4,0 pay AS", "Fly: the board would split in two", id="fly-board-would-split"),
    pytest.param("fly 0,0 -1,0 pay KH", "Fly: KH is not an ace", id="fly-needs-an-ace"),
    pytest.param("fly 0,0 -1,0 pay JK", "Fly: JK is not an ace", id="fly-joker-cannot-fly"),
    pytest.param("fly 0,0 -1,0 pay AH", "Fly: AH is not in your hand", id="fly-ace-not-in-hand"),
    pytest.param("fly 1,0 1,1 pay AS", "Fly: red does not occupy 1,0", id="fly-must-occupy-the-card"),
    pytest.param("fly 5,5 1,1 pay AS", "Fly: 5,5 has no card", id="fly-needs-a-card"),
    pytest.param("fly 0,0 2,0 pay AS", "Fly: 2,0 already holds 5D", id="fly-onto-a-card-refused"),
    pytest.param("fly 0,0 0,0 pay AS", "Fly: the card is already at 0,0", id="fly-to-the-same-cell-refused"),
    pytest.param("fly 0,1 4,4 pay AS", "Fly: 4,4 touches no card", id="fly-must-land-beside-a-card"),
    pytest.param("fly 0,1 4,1 pay AS", "Fly: 4,1 touches no card", id="fly-diagonal-landing-not-enough"),
    pytest.param("fly 0,1 0,2 pay AS", "Fly: 0,2 touches no card once 0,1 has left",
                 id="fly-beside-its-own-old-cell-refused"),
    pytest.param("hatch 7C 0,-1", "Hatch: red still has pieces on the board", id="hatch-only-with-no-pieces"),
]  # fmt: skip


@pytest.mark.parametrize(("line", "message"), ILLEGAL)
def test_illegal_option(line, message):
    with refused(message):
        play(base(), f"red: {line}")


def test_attack_needs_a_payment():
    with refused("Demolish: pay with at least one attack card"):
        apply(base(), Demolish("blue", "S", (1, 0), ()), "red")


def test_an_illegal_move_leaves_the_state_unchanged():
    before = base()
    copy = base()
    for line, _ in [p.values for p in ILLEGAL]:
        with pytest.raises(IllegalMoveError):
            play(before, f"red: {line}")
    assert before == copy


# --- stash limits (rules.md 6) ----------------------------------------------------------------------


def full_stash_state() -> State:
    """Red has all three smalls and all three mediums on the board."""
    return base(
        board={
            (0, 0): ("7H", "red:SSS"),
            (1, 0): ("8H", "red:MMM blue:S"),
            (2, 0): ("5D", "blue:M"),
        }
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        pytest.param("spawn 0,0", "Spawn: no small left in red's stash (spawn needs a small", id="spawn-needs-small"),
        pytest.param("grow S 0,0", "Grow: no medium left in red's stash", id="grow-needs-next-size-in-stash"),
        pytest.param("convert blue M 2,0 into M pay QS", "Convert: no medium left in red's stash",
                     id="convert-needs-size-in-stash"),
    ],
)  # fmt: skip
def test_stash_limits(line, message):
    with refused(message):
        play(full_stash_state(), f"red: {line}")


def test_convert_into_a_smaller_size_when_the_same_size_is_used_up():
    state = base(board={(0, 0): ("7H", "red:S"), (1, 0): ("8H", "red:MMM blue:S"), (2, 0): ("5D", "blue:M")})
    after = play(state, "red: convert blue M 2,0 into S pay QS")
    assert after.board[(2, 0)] == square(("5D", "red:S")) and after.stash("blue")["M"] == 3


def test_grow_returns_the_smaller_piece_to_the_stash():
    after = play(full_stash_state(), "red: grow M 1,0")
    assert after.stash("red") == {"S": 0, "M": 1, "L": 2}


# --- hatch (rules.md 5.8) --------------------------------------------------------------------------


def hatching() -> State:
    """Red has no pieces on the board (it keeps taking turns: no elimination, A16)."""
    return make_state({(0, 0): ("7H", "blue:S"), (1, 0): "8H"}, {"red": ("7C", "KH")}, deck=DECK)


@pytest.mark.parametrize(
    ("line", "cell"),
    [
        pytest.param("hatch 7C 2,0", (2, 0), id="hatch-beside-an-empty-card"),
        pytest.param("hatch 7C 0,1", (0, 1), id="hatch-beside-another-players-card"),
    ],
)
def test_hatch(line, cell):
    after = play(hatching(), f"red: {line}")
    assert after.board[cell] == square(("7C", "red:S"))
    assert after.hands["red"] == ("KH",)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        pytest.param("hatch 7C 5,5", "Hatch: 5,5 touches no card", id="hatch-must-touch-a-card"),
        pytest.param("hatch 7C 2,1", "Hatch: 2,1 touches no card", id="hatch-diagonal-not-enough"),
        pytest.param("hatch 7C 1,0", "Hatch: 1,0 already holds 8H", id="hatch-onto-a-card-refused"),
        pytest.param("hatch KH 2,0", "Hatch: KH is not a number card", id="hatch-face-card-refused"),
        pytest.param("build 7C 2,0", "Build: 7C must touch a card you occupy; 2,0 touches only an empty card at 1,0",
                     id="without-pieces-build-refused"),
        pytest.param("spawn 1,0", "Spawn: red does not occupy 1,0", id="without-pieces-spawn-refused"),
    ],
)  # fmt: skip
def test_hatch_refused(line, message):
    with refused(message):
        play(hatching(), f"red: {line}")


def test_without_pieces_draw_is_still_legal():
    after = play(hatching(), "red: draw")
    assert after.hands["red"] == ("7C", "KH", "2S", "3H", "4C")

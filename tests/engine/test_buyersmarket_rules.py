"""Buyer's Market rule tables (rules.md 15.3-15.5, rulings B2-B9 and docs/rules.md): one row a rule.

Each row is a position, a move by red, and either None (legal) or words the refusal must contain.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.buyersmarket import rules
from engine.buyersmarket.game import GAME
from engine.buyersmarket.notation import Buy, Contribute, Pass, PickPile, Place
from engine.buyersmarket.pieces import Piece
from engine.buyersmarket.setup import roll
from engine.buyersmarket.state import Pallet, State
from engine.errors import IllegalMoveError, NotationError
from engine.kit.base import RESIGN

SEED = "rule-tables"


def pieces(text: str) -> tuple[Piece, ...]:
    """ "H:L red:S" -> (("H", "L"), ("red", "S"))."""
    return tuple((o, s) for o, _, s in (w.partition(":") for w in text.split()))


def market(players: int = 2, pallets: dict[str, str] | None = None, **changes: Any) -> State:
    """A game of `players` with red to move and the given pallets ({"7H": "H:L red:S"}); other fields
    as given (crp as {"red": "H:L ..."})."""
    seats = ("red", "yellow", "green", "blue")[:players]
    state = rules.new_game(seats, SEED)
    while state.pending is not None:  # setup atoms: take the first pile
        state = state.evolve(pending=None)
    if pallets is not None:
        changes["pallets"] = tuple(Pallet(card, pieces(text)) for card, text in pallets.items())
    if "crp" in changes:
        changes["crp"] = {c: pieces(changes["crp"].get(c, "")) for c in seats}
    changes.setdefault("to_move", "red")
    changes.setdefault("turn", 1)
    return state.evolve(**changes)


BANKRUPT = {"S": 0, "M": 0, "L": 0}
FULL = {"S": 2, "M": 2, "L": 2}


def refusal(state, text: str, by: str = "red") -> str | None:
    move = GAME.parse(text)
    try:
        GAME.apply(state, move, by)
    except IllegalMoveError as error:
        assert move not in GAME.legal_moves(state, by), f"{text} is listed but refused"
        return str(error)
    assert move in GAME.legal_moves(state, by), f"{text} is accepted but not listed"
    return None


TABLE = [
    # turn choice 2: a GRP pyramid onto a pallet of its colour, GRP pips at most the value (B2)
    ("place on an empty pallet", market(pallets={"7H": ""}), "place L 7H", None),
    ("place up to the value", market(pallets={"7H": "H:L H:M"}), "place M 7H", None),
    ("B2: GRP pips over the value", market(pallets={"7H": "H:L H:L"}), "place M 7H", "B2"),
    ("B2 counts pips, not pieces", market(pallets={"3H": "H:S H:S"}), "place S 3H", None),
    ("B2 ignores bank pips", market(pallets={"3H": "red:L"}), "place L 3H", None),
    ("B3: placing on a complete pallet", market(pallets={"3H": "red:L"}), "place S 3H", None),
    ("ace is 11", market(pallets={"AH": "H:L H:L H:L"}), "place M AH", None),
    ("ace: 12 is over", market(pallets={"AH": "H:L H:L H:L H:M"}), "place S AH", "B2"),
    (
        "the GRP has none of that size",
        market(pallets={"7H": ""}, grp={s: {"S": 3, "M": 3, "L": 3} for s in "SDCT"} | {"H": {"S": 3, "M": 3, "L": 0}}),
        "place L 7H",
        "no hearts Large",
    ),
    ("no such pallet", market(pallets={"7H": ""}), "place L 8H", "not a pallet in play"),
    # turn choice 3: a bank pyramid onto a pallet not complete (B5: it may complete it)
    ("contribute", market(pallets={"7H": ""}), "contribute L 7H", None),
    ("B5: contributing completes the pallet", market(pallets={"4H": "H:S"}), "contribute L 4H", None),
    ("contribute to a complete pallet", market(pallets={"4H": "H:L H:S"}), "contribute S 4H", "already complete"),
    (
        "contribute from an empty bank",
        market(pallets={"7H": ""}, banks={"red": BANKRUPT, "yellow": FULL}),
        "contribute S 7H",
        "bank has no",
    ),
    # turn choice 1b: take a complete pallet
    ("buy a complete pallet", market(pallets={"4H": "H:L yellow:S"}), "buy 4H", None),
    ("buy a short pallet", market(pallets={"4H": "H:L"}), "buy 4H", "short of its value 4"),
    (
        "3+ players: a resource must be on it",
        market(3, pallets={"3H": "yellow:L"}),
        "buy 3H",
        "must already hold a resource",
    ),
    ("2 players: none needed", market(2, pallets={"3H": "yellow:L"}), "buy 3H", None),
    ("3+ players with a resource", market(3, pallets={"3H": "yellow:M H:S"}), "buy 3H", None),
    ("(1a) applies too with 3+", market(3, pallets={"3H": ""}), "buy 3H with L", "must already hold a resource"),
    # turn choice 1a: complete it with bank pyramids, at most 4 pips (B4)
    ("buy with a Large and a Small", market(pallets={"5H": "H:S"}), "buy 5H with LS", None),
    ("B4: a Large and a Medium is 5 pips", market(pallets={"6H": "H:S"}), "buy 6H with LM", "at most 4 pips"),
    ("B4: two Mediums", market(pallets={"5H": "H:S"}), "buy 5H with MM", None),
    ("still short after paying", market(pallets={"9H": "H:S"}), "buy 9H with LS", "short of its value 9"),
    (
        "paying more than the bank holds",
        market(pallets={"3H": ""}, banks={"red": {"S": 0, "M": 2, "L": 0}, "yellow": FULL}),
        "buy 3H with SSS",
        "only 0 Small",
    ),
    ("1a on a complete pallet", market(pallets={"3H": "H:L"}), "buy 3H with S", "already complete"),
    # making change (15.4): at most the overpayment, own colour to the bank or pallet colour to the GRP
    (
        "the seed's example: Large on a 3 holding a Small, a Small back",
        market(pallets={"3C": "C:S"}, crp={"red": "red:S"}),
        "buy 3C with L back S",
        None,
    ),
    ("change from the bought Small back to the GRP", market(pallets={"3C": "C:S"}), "buy 3C with L return S", None),
    (
        "change over the overpayment",
        market(pallets={"3C": "C:S"}, crp={"red": "red:M"}),
        "buy 3C with L back M",
        "2 pips of change for 1 overpaid",
    ),
    ("change of a piece not collected", market(pallets={"3C": "C:S"}), "buy 3C with L back S", "would hold only 0"),
    # B12: any change from none up to the overpayment (2 here: L S on a 3 holding a Small)
    ("B12: keeping the whole overpayment", market(pallets={"3C": "C:S"}), "buy 3C with LS", None),
    ("B12: change of part of the overpayment", market(pallets={"3C": "C:S"}), "buy 3C with LS return S", None),
    ("B12: change of all of it", market(pallets={"3C": "C:M"}, crp={"red": "red:M"}), "buy 3C with LS back M", None),
    (
        "B12: never more than the overpayment",
        market(pallets={"3C": "C:S"}, crp={"red": "red:L"}),
        "buy 3C with LS back L",
        "B12): 3 pips of change for 2 overpaid",
    ),
    # B13: one kind of change per purchase
    (
        "B13: own colour back and pallet colour returned in one purchase",
        market(pallets={"3C": "C:S"}, crp={"red": "red:S"}),
        "buy 3C with LS back S return S",
        "one kind of change per purchase",
    ),
    (
        "no change without paying",
        market(pallets={"3C": "C:L C:S"}, crp={"red": "red:S"}),
        "buy 3C back S",
        "only after paying",
    ),
    # B8/B9: calling the building phase after one's action
    (
        "call with 4 L, 3 M, 1 S",
        market(pallets={"7H": ""}, crp={"red": "H:L H:L D:L C:L H:M H:M D:M T:S"}),
        "place S 7H call",
        None,
    ),
    (
        "call short of a building",
        market(pallets={"7H": ""}, crp={"red": "H:L H:L D:L H:M H:M D:M T:S"}),
        "place S 7H call",
        "B9",
    ),
    (
        "call made possible by the purchase",
        market(pallets={"3H": "H:L"}, crp={"red": "H:L H:L D:L H:M H:M D:M T:S"}),
        "buy 3H call",
        None,
    ),
    (
        "call twice",
        market(
            pallets={"7H": ""}, crp={"red": "H:L H:L D:L C:L H:M H:M D:M T:S"}, called_by="yellow", last_round=("red",)
        ),
        "place S 7H call",
        "already called",
    ),
    # pass: only with no action at all
    ("pass with an action", market(pallets={"7H": ""}), "pass", "only when you have no action"),
    ("out of turn", market(pallets={"7H": ""}), "place L 7H", None),
]


@pytest.mark.parametrize(("name", "state", "move", "expected"), TABLE, ids=[row[0] for row in TABLE])
def test_rule_table(name, state, move, expected) -> None:
    error = refusal(state, move)
    if expected is None:
        assert error is None, f"{name}: refused: {error}"
    else:
        assert error is not None and expected in error, f"{name}: {error!r} does not say {expected!r}"


def test_only_the_player_to_move_acts_and_others_may_resign() -> None:
    state = market(pallets={"7H": ""})
    assert GAME.legal_moves(state, "yellow") == [RESIGN]
    with pytest.raises(IllegalMoveError, match="red's turn"):
        GAME.apply(state, Place("L", "7H"), "yellow")


def test_purchase_resolution_sends_other_banks_home_and_keeps_the_card() -> None:
    state = market(pallets={"4H": "H:M yellow:S red:S"}, crp={"red": "D:L"})
    after = GAME.apply(state, Buy("4H"), "red")
    assert sorted(after.crp["red"]) == sorted(pieces("D:L H:M red:S"))
    assert after.banks["yellow"]["S"] == state.banks["yellow"]["S"] + 1
    assert after.collected["red"] == ("4H",)
    assert after.pallet("4H") is None


def test_making_change_moves_pieces_back() -> None:
    state = market(pallets={"3C": "C:S"}, crp={"red": "red:S"})
    after = GAME.apply(state, GAME.parse("buy 3C with L back S"), "red")
    assert sorted(after.crp["red"]) == sorted(pieces("C:S red:L"))
    assert after.banks["red"] == {"S": 3, "M": 2, "L": 1}
    returned = GAME.apply(state, GAME.parse("buy 3C with L return S"), "red")
    assert sorted(returned.crp["red"]) == sorted(pieces("red:S red:L"))
    assert returned.grp["C"]["S"] == state.grp["C"]["S"] + 1


def _first_roll(seed_prefix: str, face: str) -> str:
    """A seed whose die roll number 4 (the first after setup) shows `face`."""
    return next(f"{seed_prefix}{i}" for i in range(1000) if roll(f"{seed_prefix}{i}", 4) == face)


def test_the_buyer_rolls_a_replacement_and_the_atom_lets_them_pick() -> None:
    seed = _first_roll("atom", "atom")
    state = market(pallets={"4H": "H:L H:S"}).evolve(seed=seed, rolls=4)
    after = GAME.apply(state, Buy("4H"), "red")
    assert after.pending is not None and after.pending.reason == "atom" and after.to_move == "red"
    assert after.phase == "pick"
    assert set(GAME.legal_moves(after, "red")[:-1]) == {PickPile(s) for s in "SHDCT" if after.piles[s]}
    with pytest.raises(IllegalMoveError, match="atom"):
        GAME.apply(after, Place("L", "4H"), "red")
    top = after.piles["D"][0]
    picked = GAME.apply(after, PickPile("D"), "red")
    assert picked.pallet(top) is not None and picked.to_move == "yellow"


def test_b6_a_colour_with_no_resources_left_is_a_free_choice() -> None:
    seed = _first_roll("b6-", "H")
    empty = {"S": 0, "M": 0, "L": 0}
    grp = {s: {"S": 3, "M": 3, "L": 3} for s in "SDCT"} | {"H": empty}
    state = market(pallets={"4C": "C:L C:S"}, grp=grp).evolve(seed=seed, rolls=4)
    after = GAME.apply(state, Buy("4C"), "red")
    assert after.pending is not None and after.pending.reason == "nothing left" and after.pending.rolled == "H"


def test_b6_an_empty_pile_is_a_free_choice_and_one_pile_left_is_taken() -> None:
    seed = _first_roll("pile-", "H")
    piles = {s: () for s in "SHDCT"} | {"D": ("5D", "6D")}
    state = market(pallets={"4C": "C:L C:S", "7H": ""}, piles=piles).evolve(seed=seed, rolls=4)
    after = GAME.apply(state, Buy("4C"), "red")
    assert after.pending is None and after.pallet("5D") is not None


def test_b7_no_piles_and_no_pallets_ends_the_game() -> None:
    piles = {s: () for s in "SHDCT"}
    state = market(pallets={"4C": "C:L C:S"}, piles=piles)
    after = GAME.apply(state, Buy("4C"), "red")
    assert after.phase == "over" and after.reason == "score" and after.winners == ("red",)


def test_a_full_round_of_passes_ends_the_game() -> None:
    # 8H holds 7 pips and the GRP is empty: nothing to place, nothing in the banks, nothing to buy.
    empty = {s: dict(BANKRUPT) for s in "SHDCT"}
    state = market(pallets={"8H": "H:L H:L H:S"}, banks={"red": BANKRUPT, "yellow": BANKRUPT}, grp=empty)
    assert GAME.legal_moves(state, "red") == [Pass(), RESIGN]
    once = GAME.apply(state, Pass(), "red")
    assert once.to_move == "yellow" and once.phase == "play"
    assert GAME.apply(once, Pass(), "yellow").phase == "over"


def test_b8_calling_gives_everyone_else_one_more_turn() -> None:
    crp = {"red": "H:L H:L D:L C:L H:M H:M D:M T:S", "yellow": "D:S"}
    state = market(3, pallets={"7H": "", "8D": ""}, crp=crp)
    called = GAME.apply(state, GAME.parse("place S 7H call"), "red")
    assert called.called_by == "red" and called.last_round == ("yellow", "green") and called.phase == "last"
    after_yellow = GAME.apply(called, Place("L", "8D"), "yellow")
    assert after_yellow.to_move == "green" and after_yellow.last_round == ("green",)
    over = GAME.apply(after_yellow, Contribute("S", "8D"), "green")
    assert over.phase == "over" and over.winners == ("red",) and over.reason == "score"


def test_a_tie_on_points_goes_to_the_most_cards() -> None:
    # Nothing collected: each scores only the 6 pyramids left in the bank (Unspent).
    tied = market(3, collected={"red": ("5D",), "yellow": ("6D", "7D"), "green": ()})
    over = rules.score_end(tied)
    assert rules.scores(over) == {"red": 6, "yellow": 6, "green": 6}
    assert over.winners == ("yellow",)
    shared = rules.score_end(market(collected={"red": ("5D",), "yellow": ("6D",)}))
    assert shared.winners == ("red", "yellow")


def test_resigning_sends_the_bank_home_and_the_last_player_wins() -> None:
    state = market(3, pallets={"7H": "red:L H:S"})
    after = GAME.resign(state, "red")
    assert after.pallet("7H").pieces == (("H", "S"),)
    assert after.banks["red"]["L"] == 3 and after.to_move == "yellow"
    assert GAME.resign(after, "yellow").winners == ("green",)


def test_a_roller_who_resigns_has_the_pile_picked() -> None:
    seed = _first_roll("atom", "atom")
    state = market(pallets={"4H": "H:L H:S"}).evolve(seed=seed, rolls=4)
    after = GAME.apply(state, Buy("4H"), "red")
    assert after.pending is not None
    three = market(3, pallets={"4H": "H:L H:S"}).evolve(seed=seed, rolls=4)
    picking = GAME.apply(three, Buy("4H"), "red")
    left = GAME.resign(picking, "red")
    assert left.pending is None and left.to_move == "yellow" and len(left.pallets) == 1


def test_draw_and_abandon_end_without_a_winner() -> None:
    state = market()
    assert GAME.agree_draw(state).reason == "draw" and GAME.agree_draw(state).winners == ()
    assert GAME.abandon(state).reason == "timeout"


@pytest.mark.parametrize(
    "text",
    [
        "place M 7H",
        "contribute L 10T",
        "buy AH",
        "buy 3C with LS",
        "buy 3C with L back S",
        "buy 3C with MS return S call",
        "pile H",
        "pass",
        "resign",
        "place S 2D call",
    ],
)
def test_canonical_notation_round_trips(text: str) -> None:
    assert str(GAME.parse(text)) == text


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("BUY 3c WITH s l", "buy 3C with LS"), ("place m 7h", "place M 7H"), ("Pile t", "pile T")],
)
def test_other_spellings_read_to_the_canonical_form(text: str, canonical: str) -> None:
    assert str(GAME.parse(text)) == canonical


@pytest.mark.parametrize(
    "text", ["place X 7H", "place M JH", "buy", "buy 7H back S with L", "pile Q", "draw", "buy 7H with"]
)
def test_unreadable_moves_say_what_a_move_looks_like(text: str) -> None:
    with pytest.raises(NotationError):
        GAME.parse(text)


def test_the_first_player_picks_the_pile_for_a_setup_atom() -> None:
    seed = next(f"setup{i}" for i in range(1000) if roll(f"setup{i}", 0) == "atom")
    state = rules.new_game(("red", "yellow"), seed)
    assert state.phase == "setup" and state.turn == 0 and not state.pallets
    assert state.to_move == state.first_player and state.pending is not None
    dealt = GAME.apply(state, PickPile("T"), state.first_player)
    assert dealt.pallets[0].card[-1] == "T"
    assert dealt.phase in ("play", "setup") and (dealt.phase == "setup" or len(dealt.pallets) == 4)


def test_a_timeout_is_a_resignation_with_its_reason() -> None:
    state = market(pallets={"7H": ""})
    over = GAME.resign(state, "red", "timeout")
    assert over.winners == ("yellow",) and over.reason == "timeout"


def test_resigning_in_the_last_round_skips_that_turn() -> None:
    crp = {"red": "H:L H:L D:L C:L H:M H:M D:M T:S"}
    called = GAME.apply(market(3, pallets={"7H": "", "8D": ""}, crp=crp), GAME.parse("place S 7H call"), "red")
    assert called.to_move == "yellow"
    after = GAME.resign(called, "yellow")
    assert after.to_move == "green" and after.last_round == ("green",)
    assert GAME.apply(after, Place("L", "8D"), "green").phase == "over"


def test_a_purchase_and_its_pile_pick_are_one_turn() -> None:
    seed = _first_roll("atom", "atom")
    state = market(pallets={"4H": "H:L H:S"}).evolve(seed=seed, rolls=4)
    bought = GAME.apply(state, Buy("4H"), "red")
    assert GAME.continues_turn(state, bought)
    assert not GAME.continues_turn(bought, GAME.apply(bought, PickPile("D"), "red"))

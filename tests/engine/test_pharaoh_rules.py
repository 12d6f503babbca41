"""Pharaoh rule tables (pharaoh.md): one row per rule, per REC-P ruling and per scenario, named after it.

Each row sets a position (the mover, this turn's throw and what is left of it), plays one line of
steps the way every channel does (the kit's `play_line`, `;` between steps) and states either what
the line leaves (cells, supplies, points, who moves, the winner) or the refusal's words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from engine.errors import IllegalMoveError, NotationError
from engine.kit.base import RESIGN
from engine.kit.steps import play_line
from engine.pharaoh.board import CELLS, NEIGHBOURS, goal_lines
from engine.pharaoh.game import GAME
from engine.pharaoh.notation import Enter, Pass, Step
from engine.pharaoh.position import from_position
from engine.pharaoh.rules import die, first_player
from engine.pharaoh.state import State
from engine.shuffle import shuffled

TWO = ("red", "blue")
THREE = ("red", "yellow", "green")
FOUR = ("red", "yellow", "green", "blue")


def pos(
    board: dict[str, str],
    *,
    players: tuple[str, ...] = TWO,
    to_move: str = "red",
    throw: int = 6,
    points: int | None = None,
    seed: str = "rules",
    **more: Any,
) -> State:
    """A position: `board` maps cells to "colour:size"; the mover has `points` left of `throw`."""
    data = {
        "format": "pharaoh-position/1",
        "game": "pharaoh",
        "players": list(players),
        "first_player": players[0],
        "to_move": to_move,
        "throw": throw,
        "points": throw if points is None else points,
        "board": board,
        "dice": 4,
        "resigned": [],
        "winner": None,
        "reason": None,
        "seed": seed,
    }
    return from_position(data | more)


def line(state: State, text: str, by: str = "red") -> State:
    return play_line(GAME, state, text, by)[-1].state


@dataclass(frozen=True)
class Case:
    name: str
    board: dict[str, str]
    text: str  # the line `by` writes
    throw: int
    players: tuple[str, ...] = TWO
    points: int | None = None
    by: str = "red"
    to_move: str = ""  # the mover, when not `by`
    error: str = ""  # a refused line: words of the message
    after: dict[str, Any] = field(default_factory=dict)  # position fields the line leaves
    supplies: dict[str, tuple[str, ...]] = field(default_factory=dict)


CASES = [
    # --- board and seats ---------------------------------------------------------------------------
    Case("neighbours touch by a side", {"c2": "red:S"}, "c2-c3", 6, after={"board": {"c3": "red:S"}, "points": 5}),
    Case("neighbours touch by a corner", {"c2": "red:S"}, "c2-d3", 6, after={"board": {"d3": "red:S"}, "points": 4}),
    Case("a cell two away is no neighbour", {"c2": "red:S"}, "c2-c4", 6, error="not next to c2"),
    Case("REC-P1 two players: red is south", {}, "enter S c1", 6, after={"board": {"c1": "red:S"}}),
    Case("REC-P1 two players: blue is north", {}, "enter S c5", 6, by="blue", after={"board": {"c5": "blue:S"}}),
    Case(
        "REC-P1 three players: the second seat is west",
        {},
        "enter S a3",
        6,
        THREE,
        by="yellow",
        after={"board": {"a3": "yellow:S"}},
    ),
    Case(
        "REC-P1 three players: the third seat is north",
        {},
        "enter S d5",
        6,
        THREE,
        by="green",
        after={"board": {"d5": "green:S"}},
    ),
    Case("REC-P1 three players: east is nobody's", {}, "enter S e3", 6, THREE, by="green", error="not on your edge"),
    Case(
        "REC-P1 four players: the fourth seat is east",
        {},
        "enter S e2",
        6,
        FOUR,
        by="blue",
        after={"board": {"e2": "blue:S"}},
    ),
    Case(
        "REC-P2 two players: the row wins",
        {"b3": "red:S", "c3": "red:M", "d2": "red:L"},
        "d2-d3",
        6,
        after={"winner": "red", "reason": "goal-line", "to_move": None},
    ),
    Case(
        "REC-P2 two players: the column does not count",
        {"c2": "red:L", "c3": "red:M", "b4": "red:S"},
        "b4-c4",
        6,
        after={"winner": None, "to_move": "red", "points": 5},
    ),
    Case(
        "REC-P2 three players: the column counts",
        {"c2": "red:L", "c3": "red:M", "b4": "red:S"},
        "b4-c4",
        6,
        THREE,
        after={"winner": "red", "reason": "goal-line"},
    ),
    Case(
        "REC-P2 three players: a diagonal does not count",
        {"b2": "red:L", "c3": "red:M", "d5": "red:S"},
        "d5-d4",
        6,
        THREE,
        after={"winner": None},
    ),
    Case(
        "REC-P2 four players: a diagonal counts",
        {"b4": "red:L", "c3": "red:M", "d1": "red:S"},
        "d1-d2",
        6,
        FOUR,
        after={"winner": "red", "reason": "goal-line"},
    ),
    # --- the turn: costs, entering, landing ----------------------------------------------------------
    Case(
        "REC-P4 the throw is the turn's points",
        {},
        "enter S b1; b1-b2; b2-b3",
        3,
        after={"to_move": "blue", "board": {"b3": "red:S"}},
    ),
    Case("an orthogonal step costs the pips: Medium 2", {"b1": "red:M"}, "b1-b2", 6, after={"points": 4}),
    Case("an orthogonal step costs the pips: Large 3", {"b1": "red:L"}, "b1-b2", 6, after={"points": 3}),
    Case("a diagonal step costs twice: Small 2", {"b1": "red:S"}, "b1-c2", 6, after={"points": 4}),
    Case("a diagonal step costs twice: Large 6", {"b1": "red:L"}, "b1-c2", 6, after={"to_move": "blue"}),
    Case("a step the points cannot pay for is illegal", {"b1": "red:L"}, "b1-c2", 5, error="costs 6 and you have 5"),
    Case("REC-P5 entering costs one orthogonal step: Small 1", {}, "enter S d1", 6, after={"points": 5}),
    Case("REC-P5 entering costs one orthogonal step: Large 3", {}, "enter L d1", 6, after={"points": 3}),
    Case("entering needs the piece in the supply", {"c3": "red:M"}, "enter M c1", 6, error="on the board"),
    Case("entering is only onto your own edge", {}, "enter S a2", 6, error="not on your edge"),
    Case("never land on your own piece", {"b1": "red:S", "b2": "red:M"}, "b1-b2", 6, error="your own Medium"),
    Case("never land on a larger piece", {"b1": "red:S", "b2": "blue:M"}, "b1-b2", 6, error="larger than your Small"),
    Case(
        "landing on a smaller piece captures it",
        {"b1": "red:L", "b2": "blue:S"},
        "b1-b2",
        6,
        after={"board": {"b2": "red:L"}},
        supplies={"blue": ("S", "M", "L")},
    ),
    Case(
        "REC-P6 the captured piece goes back to its owner's supply",
        {"c3": "red:M", "c4": "blue:M", "c5": "blue:L"},
        "c3-c4",
        6,
        after={"board": {"c4": "red:M", "c5": "blue:L"}},
        supplies={"blue": ("S", "M")},
    ),
    Case(
        "REC-P6 a captured piece enters again later",
        {"b5": "red:L"},
        "enter S b5",
        6,
        by="blue",
        error="larger than your Small",
    ),
    Case(
        "REC-P7 a capture does not stop the piece",
        {"c2": "red:S", "c3": "blue:S"},
        "c2-c3; c3-c4",
        6,
        after={"board": {"c4": "red:S"}, "points": 4},
    ),
    Case(
        "REC-P8 entering may capture on your edge",
        {"d1": "blue:S"},
        "enter S d1",
        6,
        after={"board": {"d1": "red:S"}},
        supplies={"blue": ("S", "M", "L")},
    ),
    Case(
        "REC-P9 points split over pieces and steps, back and forth",
        {},
        "enter S b1; enter M c1; b1-b2; b2-b1",
        6,
        after={"board": {"b1": "red:S", "c1": "red:M"}, "points": 1},
    ),
    Case("REC-P10 no hopping over a piece", {"b1": "red:S", "b2": "blue:L"}, "b1-b3", 6, error="not next to b1"),
    Case("REC-P10 a diagonal passes the blocked corner", {"b1": "red:S"}, "b1-a2", 6, after={"board": {"a2": "red:S"}}),
    Case(
        "REC-P11 the win ends the game, points left unused",
        {"b3": "red:S", "c3": "red:M", "d2": "red:L"},
        "d2-d3",
        6,
        after={"reason": "goal-line", "points": 3},
    ),
    Case("pass ends the turn, even before the first step", {}, "pass", 6, after={"to_move": "blue"}),
    Case("a pass after the turn ended by itself is ignored", {}, "enter L c1; pass", 3, after={"to_move": "blue"}),
    Case(
        "any other step after the turn ended refuses the line",
        {},
        "enter L c1; enter S b1",
        3,
        error="step 2 (enter S b1): comes after your turn",
    ),
    Case(
        "only the player to move takes steps",
        {},
        "enter S c5",
        6,
        by="blue",
        to_move="red",
        error="red's turn, not blue's",
    ),
    Case("a path is its steps in order", {"b1": "red:S"}, "b1-b2-b3", 6, after={"board": {"b3": "red:S"}, "points": 4}),
    # --- the scenarios of pharaoh.md ---------------------------------------------------------------
    Case(
        "scenario 1: enter L c1 spends 3 and the turn ends",
        {},
        "enter L c1",
        3,
        after={"board": {"c1": "red:L"}, "to_move": "blue"},
    ),
    Case(
        "scenario 1: enter L c1; pass is accepted alike",
        {},
        "enter L c1; pass",
        3,
        after={"board": {"c1": "red:L"}, "to_move": "blue"},
    ),
    Case("scenario 2: enter L c1 costs 3 of 2", {}, "enter L c1", 2, error="costs 3 and you have 2"),
    Case("scenario 2: enter M c1 leaves 0", {}, "enter M c1", 2, after={"board": {"c1": "red:M"}, "to_move": "blue"}),
    Case("scenario 3: b1-c2 costs 4 of 3", {"b1": "red:M"}, "b1-c2", 3, error="costs 4 and you have 3"),
    Case("scenario 3: b1-b2 leaves 1", {"b1": "red:M"}, "b1-b2", 3, after={"board": {"b2": "red:M"}, "points": 1}),
    Case(
        "scenario 4: entering captures an equal piece",
        {"c1": "blue:M"},
        "enter M c1",
        2,
        after={"board": {"c1": "red:M"}},
        supplies={"blue": ("S", "M", "L")},
    ),
    Case("scenario 4: not a larger one", {"c1": "blue:L"}, "enter M c1", 2, error="larger than your Medium"),
    Case(
        "scenario 5: capture, then on",
        {"b2": "red:S", "b3": "blue:S"},
        "b2-b3; b3-c3",
        2,
        after={"board": {"c3": "red:S"}},
        supplies={"blue": ("S", "M", "L")},
    ),
    Case(
        "scenario 6: never onto your own piece",
        {"b2": "red:S", "b3": "red:M", "c2": "blue:S"},
        "b2-b3",
        6,
        error="your own Medium",
    ),
    Case(
        "scenario 6: the diagonal past two pieces",
        {"b2": "red:S", "b3": "red:M", "c2": "blue:S"},
        "b2-c3",
        6,
        after={"board": {"b3": "red:M", "c2": "blue:S", "c3": "red:S"}, "points": 4},
    ),
    Case(
        "scenario 7: a step after the win refuses the line",
        {"c3": "red:L", "b3": "red:M", "d2": "red:S"},
        "d2-d3; d3-e3",
        4,
        error="step 2 (d3-e3): comes after your turn or the game ended",
    ),
    Case(
        "scenario 7: d2-d3 alone wins",
        {"c3": "red:L", "b3": "red:M", "d2": "red:S"},
        "d2-d3",
        4,
        after={"winner": "red", "reason": "goal-line"},
    ),
    Case(
        "scenario 8: three players, the column wins",
        {"c2": "red:L", "c3": "red:M", "c5": "red:S"},
        "c5-c4",
        6,
        THREE,
        by="red",
        after={"winner": "red"},
    ),
    Case(
        "scenario 8: two players, the column does not",
        {"c2": "red:L", "c3": "red:M", "c5": "red:S"},
        "c5-c4",
        6,
        after={"winner": None},
    ),
    Case(
        "scenario 9: four players, b2 c3 d4 wins",
        {"b2": "red:L", "c3": "red:M", "d5": "red:S"},
        "d5-d4",
        6,
        FOUR,
        after={"winner": "red"},
    ),
    Case(
        "scenario 9: three players, it does not",
        {"b2": "red:L", "c3": "red:M", "d5": "red:S"},
        "d5-d4",
        6,
        THREE,
        after={"winner": None},
    ),
    Case(
        "scenario 10: a throw that pays for nothing",
        {"b1": "red:S", "c1": "red:M", "b2": "blue:L", "d3": "red:L"},
        "pass",
        1,
        after={"to_move": "blue"},
    ),
    Case("scenario 11: b5 is north's edge", {}, "enter S b5", 6, error="b5 is not on your edge"),
    Case(
        "scenario 13: enter L c1; c1-c2 spends 6",
        {},
        "enter L c1; c1-c2",
        6,
        after={"board": {"c2": "red:L"}, "to_move": "blue", "dice": 5},
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_rule(case: Case) -> None:
    mover = case.to_move or case.by
    state = pos(case.board, players=case.players, to_move=mover, throw=case.throw, points=case.points)
    if case.error:
        with pytest.raises(IllegalMoveError, match=re.escape(case.error)):
            line(state, case.text, case.by)
        return
    after = line(state, case.text, case.by)
    position = GAME.to_position(after)
    for key, value in case.after.items():
        assert position[key] == value, key
    for colour, sizes in case.supplies.items():
        assert after.supply(colour) == sizes


# --- the rules that are not one line -------------------------------------------------------------


def test_the_board_has_21_cells_and_no_corners() -> None:
    assert len(CELLS) == 21 and not {"a1", "e1", "a5", "e5"} & set(CELLS)
    assert set(NEIGHBOURS["b1"]) == {"a2", "b2", "c1", "c2"}  # a1 is not a cell


@pytest.mark.parametrize("text", ["a1-a2", "enter S a5", "b1-a1"])
def test_a_corner_is_no_cell(text: str) -> None:
    with pytest.raises(NotationError, match="corners"):
        GAME.parse(text)


def test_goal_lines_pass_through_c3() -> None:
    assert all(line[1] == "c3" for line in goal_lines(4)) and len(goal_lines(4)) == 4


@pytest.mark.parametrize("seed", ["a", "b", "demo", "golden"])
def test_rec_p3_who_starts_is_drawn_from_the_seed(seed: str) -> None:
    state = GAME.new_game(THREE, seed, {})
    assert state.first_player == state.to_move == shuffled(list(THREE), seed, 0)[0] == first_player(THREE, seed)


@pytest.mark.parametrize("seed", ["a", "b", "demo"])
def test_rec_p4_each_throw_is_one_d6_from_the_seed(seed: str) -> None:
    """Throw k is the first face of shuffle 100 + k; the opening throw is number 0."""
    state = GAME.new_game(TWO, seed, {})
    assert (state.throw, state.points, state.dice) == (shuffled([1, 2, 3, 4, 5, 6], seed, 100)[0],) * 2 + (1,)
    assert sorted({die(seed, k) for k in range(60)}) == [1, 2, 3, 4, 5, 6]
    after = GAME.apply(state, Pass(), state.to_move or "")
    assert after.throw == shuffled([1, 2, 3, 4, 5, 6], seed, 101)[0] and after.dice == 2


def seed_throwing(face: int, number: int) -> str:
    return next(seed for seed in (f"s{i}" for i in range(500)) if die(seed, number) == face)


def test_scenario_10_the_turn_ends_by_itself_and_the_next_seat_throws() -> None:
    board = {"b1": "red:S", "c1": "red:M", "b2": "blue:L", "d3": "red:L"}
    stuck = pos(board, to_move="red", throw=1, points=1)
    assert GAME.legal_moves(stuck, "red") == [Pass(), RESIGN]
    # Blue passes; red throws 1 (throw number 4), can do nothing, so blue throws again (number 5).
    seed = seed_throwing(1, 4)
    outcome = GAME.step(pos(board, to_move="blue", seed=seed), Pass(), "blue")
    kinds = [(event.kind, event.seat) for event in outcome.events]
    assert kinds == [("pass", "blue"), ("throw", "red"), ("turn-end", "red"), ("throw", "blue")]
    assert outcome.state.to_move == "blue" and outcome.state.dice == 6
    assert outcome.state.throw == die(seed, 5)


def test_scenario_12_a_resignation_removes_the_pieces_and_skips_the_seat() -> None:
    board = {"c1": "red:S", "a3": "yellow:M", "a2": "yellow:S", "c5": "green:S"}
    state = pos(board, players=THREE, to_move="red", throw=6)
    state = GAME.apply(state, RESIGN, "yellow")
    assert state.resigned == ("yellow",) and "yellow" not in {p.colour for _, p in state.board}
    assert state.supply("yellow") == ()
    order = []
    for _ in range(4):
        order.append(state.to_move)
        state = GAME.apply(state, Pass(), state.to_move or "")
    assert order == ["red", "green", "red", "green"]
    assert GAME.view(state, None)["goal_lines"] == [["b3", "c3", "d3"], ["c2", "c3", "c4"]]  # type: ignore[typeddict-item]


def test_resigning_on_your_turn_lets_the_next_seat_throw() -> None:
    state = pos({}, players=THREE, to_move="yellow")
    outcome = GAME.step(state, RESIGN, "yellow")
    assert [e.kind for e in outcome.events] == ["resign", "throw"] and outcome.state.to_move == "green"


def test_the_last_player_left_wins_by_resignation() -> None:
    after = GAME.apply(pos({"c1": "red:S"}), RESIGN, "red")
    assert GAME.result(after) is not None and (after.winner, after.reason, after.to_move) == (
        "blue",
        "resignation",
        None,
    )


def test_an_agreed_draw_has_no_winner() -> None:
    result = GAME.result(GAME.agree_draw(pos({})))
    assert result is not None and (result.winners, result.reason) == ((), "draw")


# --- events and the listing ----------------------------------------------------------------------


def test_the_events_of_a_capture_and_the_throw() -> None:
    state = pos({"c2": "red:M", "c3": "blue:M"}, throw=2)
    outcome = GAME.step(state, Step("c2", "c3"), "red")
    texts = [(e.kind, e.text) for e in outcome.events]
    assert texts[:2] == [
        ("capture", "red c2-c3 captures blue's M"),
        ("turn-end", "red's turn ends: no points left"),
    ]
    throw = outcome.events[2]
    assert throw.kind == "throw" and throw.text == f"blue threw {outcome.state.throw}"
    assert throw.data == {"dice": [outcome.state.throw]}


def test_the_win_event_names_the_line() -> None:
    state = pos({"b3": "red:S", "c3": "red:M", "d2": "red:L"})
    events = GAME.step(state, Step("d2", "d3"), "red").events
    assert [e.text for e in events] == ["red d2-d3", "red wins: goal-line b3 c3 d3"]


def test_moves_lists_entries_then_steps_then_pass_then_resign() -> None:
    state = pos({"c2": "red:M"}, throw=2)
    texts = [str(m) for m in GAME.legal_moves(state, "red")]
    assert texts == ["enter S b1", "enter S c1", "enter S d1", "c2-b2", "c2-c1", "c2-c3", "c2-d2", "pass", "resign"]
    assert [str(m) for m in GAME.legal_moves(state, "blue")] == ["resign"]


def test_the_listing_never_exceeds_9_entries_24_steps_and_2() -> None:
    state = pos({"b3": "red:S", "c2": "red:M", "d4": "red:L"}, players=FOUR)
    assert len(GAME.legal_moves(state, "red")) <= 9 + 24 + 2
    opening = pos({}, players=FOUR)
    assert [str(m) for m in GAME.legal_moves(opening, "red")][:9] == sorted(
        f"enter {s} {c}" for s in "SML" for c in ("b1", "c1", "d1")
    )


@pytest.mark.parametrize(
    ("text", "moves"),
    [
        ("enter M c1", [Enter("M", "c1")]),
        ("M@c1", [Enter("M", "c1")]),
        ("m c1", [Enter("M", "c1")]),
        ("ENTER l D1", [Enter("L", "d1")]),
        ("c1-c2", [Step("c1", "c2")]),
        ("c1c2", [Step("c1", "c2")]),
        ("C1xC2", [Step("c1", "c2")]),
        ("c1 c2", [Step("c1", "c2")]),
        ("c1-c2-c3", [Step("c1", "c2"), Step("c2", "c3")]),
        ("Pass", [Pass()]),
    ],
)
def test_the_notation_reads_every_spelling(text: str, moves: list[object]) -> None:
    assert GAME.parse_steps(text) == moves
    assert all(GAME.parse(str(m)) == m for m in moves)


@pytest.mark.parametrize("text", ["", "enter", "enter X c1", "f3-f4", "c1-", "c9-c8", "move c1 c2"])
def test_unreadable_steps_are_notation_errors(text: str) -> None:
    with pytest.raises(NotationError):
        GAME.parse(text)


def test_a_path_is_not_one_step() -> None:
    with pytest.raises(NotationError, match="2 steps"):
        GAME.parse("c1-c2-c3")


def test_reseed_changes_only_future_throws() -> None:
    state = pos({"c1": "red:S"}, to_move="blue", seed="one")
    other = GAME.reseed(state, "two")
    assert GAME.to_position(other) == GAME.to_position(state) | {"seed": "two"}
    assert GAME.apply(other, Pass(), "blue").throw == die("two", 4)

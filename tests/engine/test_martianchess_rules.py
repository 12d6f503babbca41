"""Martian Chess rule tables (martian_chess.md): one row per rule case, named after the rule."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import IllegalMoveError
from engine.kit.base import RESIGN
from engine.martianchess.game import GAME
from engine.martianchess.notation import Pass, Step
from engine.martianchess.position import from_position
from engine.martianchess.rules import first_player, new_game
from engine.martianchess.state import State
from engine.shuffle import shuffled

TWO = ["red", "blue"]
FOUR = ["red", "yellow", "green", "blue"]


def pos(board: dict[str, str], players: list[str] = TWO, to_move: str = "red", **more: Any) -> State:
    """A position from a board like {"c2": "S"}; red owns a1-d4 in both games."""
    return from_position(
        {"format": "martianchess-position/1", "game": "martianchess", "players": players, "to_move": to_move}
        | {"board": board}
        | more
    )


def targets(state: State, cell: str, colour: str = "red") -> set[str]:
    return {str(m)[3:] for m in GAME.legal_moves(state, colour) if str(m).startswith(cell + "-")}


def step(text: str) -> Step:
    move = GAME.parse(text)
    assert isinstance(move, Step)
    return move


def play(state: State, *moves: str) -> State:
    for text in moves:
        state = GAME.apply(state, GAME.parse(text), state.to_move or "")
    return state


# Far-away pieces keep every zone occupied so that no move in these tables ends the game.
KEEP2 = {"d8": "S"}
KEEP4 = {"a8": "S", "h8": "S", "h1": "S"}


# --- move patterns --------------------------------------------------------------------------------------

PATTERNS = [
    # name, board (red's piece first), cell, expected targets
    ("pawn, empty board", {"b2": "S"}, "b2", {"a1", "c1", "a3", "c3"}),
    ("pawn, in a corner", {"a1": "S"}, "a1", {"b2"}),
    ("pawn, crowded by its own pieces", {"b2": "S", "a1": "L", "c3": "L", "a3": "M"}, "b2", {"c1"}),
    ("drone, empty board", {"b2": "M"}, "b2", {"b1", "b3", "b4", "a2", "c2", "d2"}),
    ("drone, one or two steps across the canal", {"c4": "M"}, "c4", {"c5", "c6", "c3", "c2", "b4", "a4", "d4"}),
    ("drone, blocked path: no jumping", {"b2": "M", "b3": "S", "c2": "L"}, "b2", {"b1", "a2"}),
    (
        "queen, empty board",
        {"a1": "L"},
        "a1",
        {"a2", "a3", "a4", "a5", "a6", "a7", "a8", "b1", "c1", "d1", "b2", "c3", "d4"},
    ),
    ("queen, blocked path: no jumping", {"a1": "L", "a3": "S", "c1": "M", "b2": "S"}, "a1", {"a2", "b1"}),
    (
        "queen, capture stops the line",
        {"a1": "L", "a6": "S"},
        "a1",
        {"a2", "a3", "a4", "a5", "a6", "b1", "c1"} | {"d1", "b2", "c3", "d4"},
    ),
]


@pytest.mark.parametrize(("name", "board", "cell", "expected"), PATTERNS, ids=[p[0] for p in PATTERNS])
def test_move_patterns_two_players(name: str, board: dict[str, str], cell: str, expected: set[str]) -> None:
    state = pos({**KEEP2, **board})
    assert targets(state, cell) == expected


def test_queen_on_the_four_player_board_reaches_every_quadrant() -> None:
    state = pos({**KEEP4, "d4": "L"}, FOUR)
    assert {"h8", "a7", "h4", "d1", "a1", "g1", "e3", "e5", "d5"} <= targets(state, "d4")
    assert "h8" in targets(state, "d4")  # across the corner where the two canals meet


def test_only_pieces_in_your_own_zone_move() -> None:
    state = pos({"b2": "S", "b7": "L"})
    assert {str(m)[:2] for m in GAME.legal_moves(state, "red") if str(m) != "resign"} == {"b2"}
    with pytest.raises(IllegalMoveError, match="in blue's zone"):
        GAME.apply(state, GAME.parse("b7-b6"), "red")


@pytest.mark.parametrize(
    ("move", "rule"),
    [
        ("b2-b4", "a Pawn moves one step diagonally"),
        ("c1-c4", "a Drone moves one or two steps"),
        ("a1-b3", "a Queen moves along a file, rank or diagonal"),
        ("a1-a3", "may not pass over the piece on a2"),
        ("c3-c4", "no piece on c3"),
        ("b2-e5", "e5 is not on the board"),
        ("a1-a2", "may not move onto your own Pawn on a2"),
    ],
)
def test_illegal_steps_name_the_rule(move: str, rule: str) -> None:
    state = pos({**KEEP2, "a1": "L", "a2": "S", "b2": "S", "c1": "M"})
    with pytest.raises(IllegalMoveError, match=rule):
        GAME.apply(state, GAME.parse(move), "red")


# --- captures: only into another zone, across each canal --------------------------------------------------

CAPTURES = [
    # players, board, move, captured size
    (TWO, {"c4": "L", "c5": "M", "a1": "S"}, "c4-c5", "M"),
    (TWO, {"b4": "S", "c5": "L", "a1": "S"}, "b4-c5", "L"),
    (FOUR, {**KEEP4, "d3": "M", "e3": "S", "a1": "S"}, "d3-e3", "S"),  # red -> blue across the file canal
    (FOUR, {**KEEP4, "d4": "S", "e5": "L", "a1": "S"}, "d4-e5", "L"),  # red -> green across the corner
    (FOUR, {**KEEP4, "b3": "M", "b5": "M", "a1": "S"}, "b3-b5", "M"),  # red -> yellow across the rank canal
]


@pytest.mark.parametrize(("players", "board", "move", "size"), CAPTURES)
def test_a_capture_across_each_canal_scores_for_the_mover(
    players: list[str], board: dict[str, str], move: str, size: str
) -> None:
    state = pos(board, players)
    after = play(state, move)
    assert after.captured["red"] == (size,)
    assert after.score("red") == {"S": 1, "M": 2, "L": 3}[size]
    end = step(move).end
    assert after.board[end] == board[move[:2]]  # the capturing piece stands there, now the zone owner's
    assert after.zone_owner(end) != "red"
    assert after.controls("red").get(end) is None


def test_crossing_a_canal_changes_ownership_and_the_zone_owner_moves_it() -> None:
    state = play(pos({"c4": "M", "a1": "S", "d8": "S"}), "c4-c5")
    assert state.to_move == "blue"
    assert "c5-c6" in {str(m) for m in GAME.legal_moves(state, "blue")}


# --- field promotions ------------------------------------------------------------------------------------

PROMOTIONS = [
    # name, board, move, result on the destination (None: refused)
    ("drone onto pawn, no queen: queen", {"b2": "M", "b3": "S"}, "b2-b3", "L"),
    ("pawn onto drone, no queen: queen", {"b2": "S", "c3": "M"}, "b2-c3", "L"),
    ("drone onto pawn, holding a queen: refused", {"b2": "M", "b3": "S", "d1": "L"}, "b2-b3", None),
    ("pawn onto pawn, no drone: drone", {"b2": "S", "c3": "S", "d1": "L"}, "b2-c3", "M"),
    ("pawn onto pawn, holding a drone: refused", {"b2": "S", "c3": "S", "d1": "M"}, "b2-c3", None),
    ("queen onto pawn: refused", {"b2": "L", "b3": "S"}, "b2-b3", None),
    ("drone onto drone: refused", {"b2": "M", "b3": "M"}, "b2-b3", None),
    ("queen absent but a queen in another zone does not count", {"b2": "M", "b3": "S", "b6": "L"}, "b2-b3", "L"),
]


@pytest.mark.parametrize(("name", "board", "move", "made"), PROMOTIONS, ids=[p[0] for p in PROMOTIONS])
def test_field_promotions(name: str, board: dict[str, str], move: str, made: str | None) -> None:
    state = pos({**KEEP2, **board})
    if made is None:
        with pytest.raises(IllegalMoveError, match="only when you control no|onto your own"):
            play(state, move)
        return
    after = play(state, move)
    assert after.board[step(move).end] == made
    assert step(move).start not in after.board
    assert after.captured["red"] == ()  # a merge scores nothing


# --- no undo with two ---------------------------------------------------------------------------------------


def test_no_undo_refuses_the_immediate_reply_moving_the_piece_back() -> None:
    state = play(pos({"c4": "M", "a1": "S", "d8": "S"}), "c4-c5")
    assert state.last_crossing == ((2, 3), (2, 4))
    assert "c5-c4" not in {str(m) for m in GAME.legal_moves(state, "blue")}
    with pytest.raises(IllegalMoveError, match="no undo with two"):
        play(state, "c5-c4")


def test_no_undo_allows_the_piece_elsewhere_and_back_later() -> None:
    state = play(pos({"c4": "M", "a1": "S", "d8": "S"}), "c4-c5")
    assert "c5-c3" in {str(m) for m in GAME.legal_moves(state, "blue")}  # another cell is fine
    later = play(state, "d8-c7", "a1-b2")
    assert later.last_crossing is None
    assert "c5-c4" in {str(m) for m in GAME.legal_moves(later, "blue")}  # not the immediate reply any more


def test_no_undo_does_not_apply_with_four() -> None:
    state = play(pos({**KEEP4, "d3": "M", "a1": "S", "e1": "S"}, FOUR), "d3-e3")  # red's Drone to blue's zone
    state = play(state, "a8-b7", "h8-g7")  # yellow and green
    assert state.to_move == "blue"
    assert "e3-d3" in {str(m) for m in GAME.legal_moves(state, "blue")}
    fresh = play(pos({**KEEP4, "d5": "M", "a1": "S"}, FOUR, to_move="yellow"), "d5-e5")  # yellow -> green
    assert "e5-d5" in {str(m) for m in GAME.legal_moves(fresh, "green")}  # the immediate reply, yet allowed


# --- pass ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [TWO, FOUR])
def test_pass_is_refused_while_any_piece_can_move(players: list[str]) -> None:
    state = new_game(players, "s")
    with pytest.raises(IllegalMoveError, match="pass: only when you have no legal move"):
        play(state, "pass")
    assert Pass() not in GAME.legal_moves(state, state.to_move or "")


@pytest.mark.parametrize(
    ("board", "to_move"),
    [
        ({"a4": "S", "d8": "S"}, "red"),  # a lone Pawn on the canal's edge: b5 or b3
        ({"a4": "S", "b3": "L", "d8": "S"}, "red"),  # b3 can step up to b4
        ({"a1": "L", "a2": "M", "b1": "M", "b2": "S", "d8": "S"}, "red"),  # a boxed corner: b2 steps up
        ({"d5": "M", "a1": "S"}, "blue"),
    ],
)
def test_the_piece_nearest_the_canal_always_has_a_move(board: dict[str, str], to_move: str) -> None:
    """The ruling behind pass (docs/rules.md): whoever holds a piece in their zone can move, so pass,
    though in the notation, is never legal and the game never stalls."""
    state = pos(board, to_move=to_move)
    assert GAME.legal_moves(state, to_move)[:1] != [Pass()]


def test_a_position_with_an_empty_zone_must_be_over() -> None:
    with pytest.raises(ValueError, match="blue's zone is empty"):
        pos({"a1": "S"})


# --- the end and the result ---------------------------------------------------------------------------------


def test_the_game_ends_when_a_capture_empties_a_zone() -> None:
    state = play(pos({"c4": "L", "c5": "M", "a1": "S"}), "c4-c5")  # the capturer now stands in blue's zone
    assert state.phase == "play"
    final = play(pos({"b4": "S", "c5": "M", "a1": "S"}, captured={"red": ["S"], "blue": ["L"]}), "b4-c5")
    assert final.phase == "play"  # the Pawn that captured keeps blue's zone occupied
    last = play(pos({"c4": "S", "a1": "S", "d5": "M"}, to_move="blue"), "d5-d4")  # blue's zone now empty
    assert (last.phase, last.winner, last.reason, last.to_move) == ("over", "blue", "score", None)
    assert GAME.legal_moves(last, "red") == []


def test_resignation_with_two_ends_the_game() -> None:
    state = new_game(TWO, "s")
    over = GAME.apply(state, RESIGN, "blue")
    assert (over.winner, over.reason, over.phase) == ("red", "resignation", "over")


def test_resignation_with_four_leaves_the_zone_capturable_and_frozen() -> None:
    state = pos({**KEEP4, "a1": "S", "b4": "S", "c5": "M"}, FOUR)
    state = GAME.apply(state, RESIGN, "yellow")
    assert state.phase == "play" and state.resigned == ("yellow",)
    assert GAME.legal_moves(state, "yellow") == []
    with pytest.raises(IllegalMoveError, match="yellow has resigned"):
        GAME.apply(state, GAME.parse("a8-b7"), "yellow")
    state = play(state, "b4-c5")  # red captures in yellow's zone
    assert state.captured["red"] == ("M",)
    assert state.to_move == "green"  # yellow is skipped
    state = play(state, "h8-g7", "h1-g2")
    assert state.to_move == "red"


def test_the_last_player_standing_wins() -> None:
    state = new_game(FOUR, "s")
    for colour in ("yellow", "green"):
        state = GAME.apply(state, RESIGN, colour)
    assert state.phase == "play"
    state = GAME.apply(state, RESIGN, "blue")
    assert (state.winner, state.reason) == ("red", "resignation")


def test_draw_by_agreement_and_abandon_have_no_winner() -> None:
    state = new_game(TWO, "s")
    assert (GAME.agree_draw(state).winner, GAME.agree_draw(state).reason) == (None, "draw")
    assert (GAME.abandon(state).winner, GAME.abandon(state).reason) == (None, "timeout")
    with pytest.raises(IllegalMoveError, match="over"):
        GAME.apply(GAME.agree_draw(state), Pass(), "red")


def test_nobody_moves_out_of_turn() -> None:
    state = new_game(TWO, "s")
    other = "blue" if state.to_move == "red" else "red"
    assert GAME.legal_moves(state, other) == [RESIGN]
    with pytest.raises(IllegalMoveError, match="turn"):
        GAME.apply(state, GAME.legal_moves(state, state.to_move or "")[0], other)


# --- setup and who starts ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [TWO, FOUR])
def test_who_starts_is_the_first_of_the_seeded_shuffle(players: list[str]) -> None:
    starters = {new_game(players, f"seed-{i}").to_move for i in range(40)}
    assert starters == set(players)  # every seat starts sometimes
    assert new_game(players, "x").to_move == shuffled(players, "x", 0)[0] == first_player(players, "x")


def test_setup_matches_the_spec() -> None:
    two = GAME.to_position(new_game(TWO, "s"))["board"]
    assert two == {
        "a1": "L", "b1": "L", "a2": "L", "c1": "M", "b2": "M", "a3": "M", "c2": "S", "b3": "S", "c3": "S",
        "d8": "L", "c8": "L", "d7": "L", "b8": "M", "c7": "M", "d6": "M", "b7": "S", "c6": "S", "b6": "S",
    }  # fmt: skip
    four = new_game(FOUR, "s")
    assert len(four.board) == 36
    assert {four.zone_owner(c) for c in four.board} == set(FOUR)
    assert GAME.to_position(four)["board"]["h8"] == "L" and GAME.to_position(four)["board"]["f6"] == "S"


@pytest.mark.parametrize("players", [["red"], ["red", "blue", "green"], ["red", "red"], ["red", "pink"]])
def test_seating_refuses_bad_tables(players: list[str]) -> None:
    with pytest.raises(ValueError):
        new_game(players, "s")

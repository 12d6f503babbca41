"""What Martian Chess shows: views, the table, moves in words, the board picture, text and script data."""

from __future__ import annotations

import pytest

from engine.interface import Game
from engine.kit.core import CardFaces, Hands, Hidden, Scores
from engine.martianchess.game import GAME
from engine.martianchess.position import from_position
from engine.martianchess.state import State
from engine.registry import get

TWO = ["red", "blue"]


def pos(board: dict[str, str], to_move: str = "red", **more: object) -> State:
    base = {"format": "martianchess-position/1", "game": "martianchess", "players": TWO, "to_move": to_move}
    return from_position(base | {"board": board} | more)


def play(state: State, *moves: str) -> State:
    for text in moves:
        state = GAME.apply(state, GAME.parse(text), state.to_move or "")
    return state


def test_the_game_is_registered_with_its_info() -> None:
    game = get("martianchess")
    assert isinstance(game, Game) and game is GAME
    info = game.info
    assert (info.id, info.name, info.player_counts, info.hidden_information) == (
        "martianchess",
        "Martian Chess",
        (2, 4),
        False,
    )
    assert [k.verb for k in game.move_kinds()] == ["move", "pass", "resign"]  # resign: the kit's
    assert not isinstance(game, (Hands, CardFaces, Hidden)) and isinstance(game, Scores)  # no stubs
    assert all(game.parse(example.split()[0]) for example, _ in game.notation_help())
    start = game.new_game(TWO, "s", {})
    legal = game.legal_moves(start, start.to_move or "")
    assert {game.move_kind(m) for m in legal} == {"move", "resign"}
    assert game.move_kind(game.parse("pass")) == "pass"


def test_views_show_everything_but_the_seed_until_the_end() -> None:
    state = GAME.new_game(TWO, "hush", {})
    red, spectator = GAME.view(state, "red"), GAME.view(state, None)
    assert "seed" not in red and "hush" not in str(red)
    assert {k: v for k, v in red.items() if k != "viewer"} == {k: v for k, v in spectator.items() if k != "viewer"}
    over = GAME.view(GAME.agree_draw(state), "blue")
    assert over.get("seed") == "hush"
    assert "hush" not in str(GAME.table(GAME.view(state, "red")))


DESCRIBED = [
    ({"a1": "L", "c3": "M", "d8": "S"}, ["a1-b2"], "red moved a Queen from a1 to b2"),
    (
        {"c4": "L", "c5": "M", "a1": "S"},
        ["c4-c5"],
        "red moved a Queen from c4 to c5, capturing a Drone (2); it is now blue's",
    ),
    ({"b2": "M", "b3": "S", "d8": "S"}, ["b2-b3"], "red merged a Drone from b2 with the Pawn on b3 into a Queen"),
    (
        {"b2": "S", "c3": "S", "d8": "S", "a1": "L"},
        ["b2-c3"],
        "red merged a Pawn from b2 with the Pawn on c3 into a Drone",
    ),
    (
        {"c4": "M", "d8": "S"},
        ["c4-c5"],
        "red moved a Drone from c4 to c5; it is now blue's; the game is over and they win",
    ),
]


@pytest.mark.parametrize(("board", "moves", "text"), DESCRIBED)
def test_describe(board: dict[str, str], moves: list[str], text: str) -> None:
    before = pos(board, captured={"red": ["S"], "blue": []})
    move = GAME.parse(moves[0])
    assert GAME.describe(move, "red", before, GAME.apply(before, move, "red"), "blue") == text


def test_the_table_has_scores_captures_and_a_status_line() -> None:
    state = play(pos({"c4": "L", "c5": "M", "a1": "S", "d8": "S"}), "c4-c5")
    table = GAME.table(GAME.view(state, "blue"))
    assert table.status == "Your move (move 2)."
    red, blue = table.seats
    assert red.facts == ("2 points", "captured: M", "zone a1-d4: 1 piece")
    assert blue.facts[:2] == ("0 points", "captured: none")
    assert table.notes == ("Last move: red c4-c5.",)
    assert GAME.table(GAME.view(state, "red")).status == "Blue to move (move 2)."
    over = play(pos({"c4": "M", "d8": "S"}, captured={"red": ["L"], "blue": []}), "c4-c5")
    assert GAME.table(GAME.view(over, "red")).status == "The game is over: You won with 3 points."


def test_a_resigned_seat_is_noted_in_four() -> None:
    state = GAME.resign(GAME.new_game(["red", "yellow", "green", "blue"], "s", {}), "green")
    seats = GAME.table(GAME.view(state, None)).seats
    assert [s.note for s in seats] == ["", "", "resigned (zone stays)", ""]


@pytest.mark.parametrize("players", [TWO, ["red", "yellow", "green", "blue"]])
def test_the_board_picture(players: list[str]) -> None:
    start = GAME.new_game(players, "pic", {})
    state = GAME.apply(start, GAME.legal_moves(start, start.to_move or "")[0], start.to_move or "")
    shown = GAME.view(state, None)
    quiet, live = GAME.board_svg(shown), GAME.board_svg(shown, interactive=True)
    cells = 32 if len(players) == 2 else 64
    assert "data-cell=" not in quiet and live.count("data-cell=") == cells
    assert 'class="zc-board mc-board"' in quiet
    assert quiet.count('class="mc-piece"') == len(state.board)
    assert quiet.count('fill="#3b82c4"') == (1 if len(players) == 2 else 2)  # the canals
    assert quiet.count("mc-last-from") == quiet.count("mc-last-to") == 1
    assert 'data-cell="a1" data-zone="red" data-size="L"' in live


def test_the_text_board() -> None:
    text = GAME.board_text(GAME.view(GAME.new_game(TWO, "s", {}), None))
    lines = text.splitlines()
    assert lines[0] == "8  . M L L" and lines[4] == "   -------" and lines[8] == "1  L L M ."
    assert "zones: red a1-d4; blue a5-d8" in text and "scores: red 0, blue 0" in text


def test_the_board_script_data_is_public() -> None:
    state = GAME.new_game(TWO, "secret-seed", {})
    script = GAME.board_script(GAME.view(state, "blue"))
    assert script.module == "games/martianchess/board.js"
    assert script.data == {"phase": "play"}


def test_result_carries_the_scores() -> None:
    over = play(pos({"c4": "M", "d8": "S"}, captured={"red": ["L"], "blue": ["S"]}), "c4-c5")
    result = GAME.result(over)
    assert result is not None and (result.winner, result.reason, result.scores) == (
        "red",
        "score",
        {"red": 3, "blue": 1},
    )
    assert GAME.result(GAME.new_game(TWO, "s", {})) is None

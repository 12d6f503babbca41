"""The launch complex from one scene: pads and the Factory, the dice and the moves left, the Bank; click
paths on the viewer's targets (a piece then its cell; a part's piece in the Bank or on a pad); words
readable on a 360 px phone; nothing of the seed or of a sealed pick in the picture."""

from __future__ import annotations

import random

import pytest

from engine.kit import draw
from engine.launchpad23.game import GAME
from engine.launchpad23.notation import Add, Shift, Start, Word
from engine.launchpad23.state import State
from tests.engine.launchpad23_helpers import THREE, state


def played(players: tuple[str, ...], seed: str, steps: int) -> State:
    rng = random.Random(seed)
    current = GAME.new_game(players, seed, {})
    for _ in range(steps):
        if GAME.result(current) is not None:
            break
        seat = rng.choice(GAME.movers(current))
        current = GAME.apply(current, rng.choice(GAME.legal_moves(current, seat)[:-1]), seat)
    return current


def test_a_move_is_its_piece_then_its_cell_and_a_part_is_the_piece_it_takes() -> None:
    assert GAME.click_path(Shift("M", "red", "b2", "b1")) == ("b2:red:M", "b1")
    assert GAME.click_path(Add("S", "blue")) == ("bank:blue:S",)
    assert GAME.click_path(Add("L", "blue", "yellow")) == ("yellow:blue:L",)
    assert GAME.click_path(Word("pass")) == GAME.click_path(Start("M")) == ()


def test_the_viewer_clicks_parts_in_the_bank_or_on_another_pad_and_only_its_own_pieces() -> None:
    # Scenario 5: the Bank has a blue S but no blue L; a blue L is on yellow's pad.
    board = {"a1": ["red:M"], "a3": ["yellow:L", "blue:L"], "c3": ["green:S"], "b1": ["blue:L"]}
    current = state(board, players=THREE, phase="add", throw=("S/L", "blue"))
    shown = GAME.view(current, "red")
    moves = [str(m) for m in GAME.legal_moves(current, "red")]
    steps = {step["text"]: step["path"] for step in GAME.click_steps(shown, moves)}
    assert steps == {
        "add L blue from yellow": ["yellow:blue:L"],
        "add S blue": ["bank:blue:S"],
        "reroll": [],
        "resign": [],
    }
    svg = GAME.board_svg(shown, interactive=True)
    assert 'data-target="yellow:blue:L"' in svg and 'data-target="b1:blue:L"' in svg and 'data-target="a1:red:M"' in svg
    moving = state(board, players=THREE, moves_left=2)
    texts = [str(m) for m in GAME.legal_moves(moving, "red")]
    paths = {step["text"]: step["path"] for step in GAME.click_steps(GAME.view(moving, "red"), texts)}
    assert paths["M red a1-a2"] == ["a1:red:M", "a2"] and paths["L blue b1-c1"] == ["b1:blue:L", "c1"]
    assert not any(text.startswith(("L yellow", "S green")) for text in paths)  # pieces on others' pads


def test_the_text_board_shows_the_cells_the_throw_and_the_bank() -> None:
    current = state({"a1": ["red:M"], "b2": ["green:S"]}, moves_left=3)
    text = GAME.board_text(GAME.view(current, "blue"))
    assert "1 rM" in text and "gS" in text and "pyramid die: S/M" in text and "colour die: red" in text
    bank = text.split("The Bank:")[1].split()
    assert "3 moves left" in text and bank.count("rM") == 1 and bank.count("gS") == 1 and bank.count("rS") == 2


@pytest.mark.parametrize(("players", "seed"), [(("red", "blue"), "p2"), (THREE, "p3"), ((*THREE, "blue"), "p4")])
def test_the_words_stay_readable_on_a_phone_and_the_picture_never_names_the_seed(
    players: tuple[str, ...], seed: str
) -> None:
    for steps in (0, 1, 60, 300):
        current = played(players, seed, steps)
        scene = GAME.scene(GAME.view(current, "red"))
        assert draw.smallest_text_px(scene) >= 10
        assert scene.width == 360
        if GAME.result(current) is None:
            assert current.seed not in GAME.board_svg(GAME.view(current, None))


def test_a_sealed_pick_is_nowhere_in_the_others_picture() -> None:
    fresh = GAME.new_game(THREE, "s", {})
    picked = GAME.apply(fresh, Start("L"), "red")
    for viewer in (None, "yellow", "green"):
        assert GAME.board_svg(GAME.view(picked, viewer)) == GAME.board_svg(GAME.view(fresh, viewer))
        assert GAME.board_text(GAME.view(picked, viewer)) == GAME.board_text(GAME.view(fresh, viewer))

"""The IceDice board from one scene: dice, Counter, Vaults with their Trios, the Bank's counts; the text board;
click paths on the viewer's targets; words readable on a 360 px phone."""

from __future__ import annotations

import random

import pytest

from engine.icedice.game import GAME
from engine.icedice.notation import Take
from engine.icedice.state import State
from engine.kit import draw
from tests.engine.icedice_cases import pos

SPEC_TAKE = {
    "phase": "take",
    "throw": {"size": "S/M", "colour": "atom"},
    "counter": ["yellow:L"],
    "vaults": {"red": ["red:S", "red:M", "red:L", "green:L"], "blue": ["green:S", "green:M", "blue:S", "blue:S"]},
}


def played(players: int, seed: str, steps: int) -> State:
    rng = random.Random(seed)
    state = GAME.new_game(("red", "yellow", "green", "blue", "black")[:players], seed, {})
    for _ in range(steps):
        if GAME.result(state) is not None:
            break
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state, state.to_move or "")[:-1]), state.to_move or "")
    return state


def test_the_text_board_shows_the_dice_the_counter_each_vault_with_its_trios_and_the_bank() -> None:
    text = GAME.board_text(GAME.view(pos(**SPEC_TAKE), "red"))
    assert "pyramid die: S/M" in text and "colour die: atom" in text and "Counter (red): yL" in text
    assert "red's Vault: 1 Trio: rL+rM+rS gL" in text and "blue's Vault: 0 Trios: gS gM bS bS" in text
    assert "bSx0" in text and "rSx1" in text and "yLx1" in text


def test_each_take_is_clicked_on_the_bank_cell_of_its_kind_then_the_vault_it_is_stolen_from() -> None:
    state = pos(**SPEC_TAKE)
    shown = GAME.view(state, "red")
    moves = [str(m) for m in GAME.legal_moves(state, "red")]
    steps = {step["text"]: step["path"] for step in GAME.click_steps(shown, moves)}
    assert steps["take M green"] == ["bank:green:M"]
    assert steps["take S blue from blue"] == ["bank:blue:S", "vault:blue"]
    assert steps["resign"] == []
    svg = GAME.board_svg(shown, interactive=True)
    assert 'data-target="vault:blue"' in svg and 'data-target="bank:black:M"' in svg
    assert 'data-target="bank:yellow:' not in svg  # yellow is on the Counter: the atom cannot name it
    decide = pos()
    assert [s["path"] for s in GAME.click_steps(GAME.view(decide, "red"), ["roll", "stop"])] == [[], []]
    assert GAME.click_path(Take("M", "green")) == ("bank:green:M",)


@pytest.mark.parametrize(("players", "seed"), [(2, "p2"), (3, "p3"), (5, "p5"), (5, "p5b")])
def test_the_words_stay_readable_on_a_phone_and_the_picture_never_names_the_seed(players: int, seed: str) -> None:
    for steps in (0, 40, 200):
        state = played(players, seed, steps)
        scene = GAME.scene(GAME.view(state, "red"))
        assert draw.smallest_text_px(scene) >= 10
        assert scene.width == 360
        if GAME.result(state) is None:
            assert state.seed not in GAME.board_svg(GAME.view(state, None))

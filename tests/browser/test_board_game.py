"""A whole two-player game played by clicks in two browsers, alice (red) and bob (yellow).

The starter choice and the placement come from the real deal of seed7; then the position is set to
the scripted middle game (scenario.py) whose next turns need a build, a move, an attack with change,
the discard it forces, a fly and a winning move. Every move is built by clicking the hand and the
board and sent with Confirm; the other player's open page notices it by polling and updates itself.
"""

from __future__ import annotations

import pytest

from games.models import Game, Move
from tests.browser.helpers import (
    cell,
    confirm,
    game_url,
    grey_variance,
    hand_card,
    lit_cells,
    notation,
    open_game,
    piece,
    png_grey_levels,
    screenshot,
    wait_ready,
    write_position,
)
from tests.browser.scenario import middle_game
from tests.service.gameplay import start_game
from tests.tokens import without_tokens

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def notice(page) -> str:
    return page.locator("#zc-notice").inner_text()


def prompt(page) -> str:
    return page.locator("[data-builder=prompt]").inner_text()


def test_a_whole_game_by_clicks(players, open_as, live_server, artifacts):
    alice, bob = players
    game = start_game(alice, bob)  # seed7: red holds 6S 5C QC, yellow 7C AH 9H
    url = game_url(live_server, game)
    red, yellow = open_as(alice), open_as(bob)
    open_game(red, url)
    open_game(yellow, url)

    # The hidden starter choice: a click on a number card builds `choose`.
    assert "Pick the number card" in prompt(red)
    hand_card(red, "QC").click()  # not a number card: nothing happens
    assert notation(red) == "choose \u2026"
    hand_card(red, "5C").click()
    screenshot(red, artifacts / "game-01-choose.png")
    confirm(red, "choose 5C")
    assert "Your sealed choice: choose 5C." in red.content()
    # A sealed choice is no move, but Zark City makes it public that red has chosen (not what): bob's
    # open page notices it by polling and says so beside red.
    yellow.get_by_text("has chosen a starter").wait_for(timeout=15_000)
    assert notice(yellow) == "Red made a sealed choice \u2014 the board was updated."
    assert "5C" not in without_tokens(yellow.content()) and "Waiting for you to choose" in yellow.content()
    hand_card(yellow, "9H").click()
    confirm(yellow, "choose 9H")

    # Yellow's 9 beats red's 5: yellow's starter is on 0,0 and red places beside it.
    wait_ready(red, 2)
    assert lit_cells(red) == {"1,0", "-1,0", "0,1", "0,-1"}
    cell(red, "1,0").click()
    confirm(red, "place 1,0")
    screenshot(red.locator(".zc-board-box"), artifacts / "game-02-placed.png")

    game.refresh_from_db()
    write_position(game, middle_game(game.seed))
    for page in (red, yellow):
        page.reload()
        wait_ready(page)

    # Red builds 7H; a misclick first, undone with Escape, then with a second click.
    hand_card(red, "9C").click()
    assert notation(red) == "build 9C \u2026"
    red.keyboard.press("Escape")
    assert lit_cells(red) == set() and notation(red) == "\u2026"
    hand_card(red, "7H").click()
    hand_card(red, "7H").click()
    assert lit_cells(red) == set()
    hand_card(red, "7H").click()
    assert lit_cells(red) == {"-1,0", "0,-1", "1,-1", "1,1"}
    assert notation(red) == "build 7H \u2026"
    cell(red, "1,-1").click()
    screenshot(red.locator(".zc-board-box"), artifacts / "game-03-build.png")
    confirm(red, "build 7H 1,-1")

    # Yellow moves its small from 8D to 3C; Grow and Spawn are offered on the way.
    wait_ready(yellow, 4)
    assert notice(yellow) == "Red moved \u2014 the board was updated."
    piece(yellow, "0,1", "yellow", "S").click()
    assert lit_cells(yellow) == {"0,0", "0,2"}
    choices = yellow.locator("[data-builder=choices]").inner_text()
    assert "Grow to medium" in choices and "Spawn a small here" in choices
    cell(yellow, "0,2").click()
    confirm(yellow, "move S 0,1 0,2")

    # Red demolishes yellow's small on 5D with a king: two cards of change, then one discard.
    wait_ready(red, 5)
    piece(red, "2,0", "yellow", "S").click()
    options = red.locator("[data-builder=choices] [data-move]")
    assert options.count() == 2  # demolish, or convert into red's small
    demolish = red.locator('[data-move="demolish yellow S 2,0 pay KS"]')
    assert "pay K\u2660, draw 2 cards change" in demolish.inner_text()
    screenshot(red, artifacts / "game-04-attack-choices.png")
    red.locator("[data-builder=cancel]").click()
    assert red.locator("[data-builder=choices] [data-move^=demolish]").count() == 0
    piece(red, "2,0", "yellow", "S").click()
    demolish.click()
    confirm(red, "demolish yellow S 2,0 pay KS")
    assert "Pick 1 more card to discard" in prompt(red)
    hand_card(red, "2C").click()
    screenshot(red, artifacts / "game-05-discard.png")
    confirm(red, "discard 2C")

    # Yellow flies 3C, with its pieces, from 0,2 to 3,0 with the ace of hearts.
    wait_ready(yellow, 7)
    assert notice(yellow) == "Red moved \u2014 the board was updated."
    hand_card(yellow, "AH").click()
    assert lit_cells(yellow) == {"0,2"}
    cell(yellow, "0,2").click()
    assert "3,0" in lit_cells(yellow) and "0,3" not in lit_cells(yellow)
    assert notation(yellow) == "fly 0,2 \u2026 pay AH"
    cell(yellow, "3,0").click()
    screenshot(yellow.locator(".zc-board-box"), artifacts / "game-06-fly.png")
    confirm(yellow, "fly 0,2 3,0 pay AH")

    # Red moves its small onto 8D: 8S 8H 8D in an L, all red: a power block.
    wait_ready(red, 8)
    piece(red, "0,0", "red", "S").click()
    cell(red, "0,1").click()
    confirm(red, "move S 0,0 0,1")
    assert "won" in red.locator(".zc-banner").inner_text() and "power block" in red.locator(".zc-banner").inner_text()
    screenshot(red, artifacts / "game-07-won.png")
    wait_ready(yellow, 9)
    assert "won" in yellow.locator(".zc-banner").inner_text()
    assert yellow.locator("#zc-builder").count() == 0
    screenshot(yellow.locator(".zc-board-box"), artifacts / "game-08-final-board.png")

    game.refresh_from_db()
    assert (game.status, game.winner, game.result_reason) == (Game.Status.FINISHED, "red", "power block")
    assert list(Move.objects.filter(game=game).values_list("notation", flat=True)) == [
        "choose 5C",
        "choose 9H",
        "place 1,0",
        "build 7H 1,-1",
        "move S 0,1 0,2",
        "demolish yellow S 2,0 pay KS",
        "discard 2C",
        "fly 0,2 3,0 pay AH",
        "move S 0,0 0,1",
    ]
    assert red.js_errors == [] and yellow.js_errors == []
    # The standard-library PNG reader (used where Pillow is missing) sees the same picture.
    assert grey_variance(png_grey_levels((artifacts / "game-07-won.png").read_bytes())) > 100

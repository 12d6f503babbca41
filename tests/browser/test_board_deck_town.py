"""Deck Town from the lobby to its end, by clicks, in two browsers: alice creates the game on the
new-game form, bob joins it, both choose a starter by clicking it in their hand, the first player
hatches it on a lit cell, alice draws with the builder's button, and bob resigns through the resign
page, which ends the game with alice the winner.

The test knows no Deck Town card: it reads each page's own legal moves (the embedded play data) and
clicks what they name, so it runs for any deal and only through the game interface.
"""

from __future__ import annotations

import json
from unittest import mock

import pytest
from django.urls import reverse

from games.models import Game, Move
from tests.browser.helpers import cell, confirm, hand_card, lit_cells, notation, screenshot, wait_ready

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]


def play_data(page) -> dict:
    return json.loads(page.locator("#zc-play-data").text_content())


def offered(page, verb: str) -> list[str]:
    return [move for move in play_data(page)["moves"] if move.split()[0] == verb]


def test_a_deck_town_game_from_the_lobby_to_its_end(players, open_as, live_server, artifacts):
    alice, bob = players
    red, yellow = open_as(alice), open_as(bob)

    # Alice creates a two-player Deck Town game on the form.
    red.goto(live_server.url + reverse("game_new"))
    red.get_by_label("Deck Town", exact=False).first.check()
    red.locator('input[name="seats"][value="2"]').check()
    with red.expect_navigation():
        red.get_by_role("button", name="Create game").click()
    game = Game.objects.get()
    assert game.game == "decktown" and game.seats_wanted == 2
    assert f"Deck Town #{game.pk}" in red.locator("h1").inner_text()

    # Bob joins from the waiting room; the last seat deals.
    yellow.goto(live_server.url + reverse("game_lobby", args=[game.pk]))
    seed = mock.patch("games.services.secrets.token_hex", return_value="deck-town-by-clicks")
    with seed, yellow.expect_navigation():
        yellow.get_by_role("button", name="Join this game").click()
    wait_ready(yellow)
    red.goto(live_server.url + reverse("game_detail", args=[game.pk]))
    wait_ready(red)
    assert red.locator("h1").inner_text() == f"Deck Town #{game.pk}"
    assert red.title() == "(1) Your move - zarkcity"  # the tab counts the games waiting for red's move

    # Both choose a starter by clicking it in their hand (the hidden, simultaneous step).
    for page in (red, yellow):
        wait_ready(page, 0)  # sealed choices: red's moves no ply, so yellow's page stays current
        choice = offered(page, "choose")[0]
        hand_card(page, choice.split()[1]).click()
        confirm(page, choice)
        if page is red:  # yellow's open page notices red's sealed choice by polling before yellow clicks
            yellow.locator("#zc-notice").get_by_text("Red made a sealed choice").wait_for(timeout=15_000)
    game.refresh_from_db()
    assert game.ply == 2 and game.phase == "place"

    # The first player hatches their starter on a lit cell.
    first = red if game.to_move == "red" else yellow
    first.reload()
    wait_ready(first)
    place = offered(first, "place")[0]
    assert place.split()[1] in lit_cells(first)
    cell(first, place.split()[1]).click()
    confirm(first, place)
    screenshot(first.locator(".zc-board-box"), artifacts / "decktown-01-placed.png")

    # Alice, on turn, draws three with the builder's button (Deck Town has no start-of-turn draw).
    game.refresh_from_db()
    assert (game.phase, game.to_move) == ("act", "red"), "Deck Town deals no setup discard: red is on turn"
    red.reload()
    wait_ready(red)
    assert offered(red, "draw") == ["draw"]
    red.locator('[data-builder=choices] [data-move="draw"]').click()
    assert notation(red) == "draw"
    confirm(red, "draw")

    # Bob resigns through the resign page: the game ends and alice has won.
    yellow.reload()
    wait_ready(yellow)
    yellow.get_by_role("link", name="Resign…").click()
    assert f"Resign from Deck Town #{game.pk}?" in yellow.locator("h1").inner_text()
    with yellow.expect_navigation():
        yellow.get_by_role("button", name="Yes, resign").click()
    banner = yellow.locator(".zc-banner").inner_text()
    assert "won as red" in banner and "every other player resigned" in banner
    red.reload()
    assert "won as red" in red.locator(".zc-banner").inner_text()
    screenshot(red, artifacts / "decktown-02-won.png")

    game.refresh_from_db()
    assert (game.status, game.winner, game.result_reason) == (Game.Status.FINISHED, "red", "resignation")
    notations = list(Move.objects.filter(game=game).values_list("notation", flat=True))
    assert [n.split()[0] for n in notations] == ["choose", "choose", "place", "draw", "resign"]
    assert red.js_errors == [] and yellow.js_errors == []

"""Martian Chess from the lobby to its end, by clicks, in two browsers (alice red, bob yellow).

Alice creates a two-player Martian Chess game on the new-game form and bob joins. Each plays a
first move from the real setup by clicking a piece and a lit cell. The position is then set
(test-only) to an ending: red's Drone captures yellow's last Queen, which ties the scores; yellow
may not move that Drone straight back (no undo with two: the cell is not lit), crosses the canal
with it instead (picked with the keyboard, on a 360 px phone), empties their zone and wins the tie
as the player who made the last move.

Every click is checked against the page's own legal moves (the embedded play data): the board
script lights exactly the cells those moves name.
"""

from __future__ import annotations

import json
from unittest import mock

import pytest
from django.urls import reverse

from engine import registry
from games.models import Game, Move
from tests.browser.helpers import confirm, notation, screenshot, wait_ready

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]

# The ending: red to move; red's Drone on c4 faces yellow's lone Queen on c5 across the canal.
ENDING = {
    "format": "martianchess-position/1",
    "game": "martianchess",
    "players": ["red", "yellow"],
    "to_move": "red",
    "board": {"a1": "S", "c4": "M", "c5": "L"},
    "captured": {"red": ["S"], "yellow": ["M", "M"]},
    "last_crossing": None,
    "winner": None,
}


def play_data(page) -> dict:
    return json.loads(page.locator("#zc-play-data").text_content())


def square(page, at: str):
    return page.locator(f'svg.zc-board [data-cell="{at}"]')


def lit(page) -> set[str]:
    return set(page.eval_on_selector_all("svg.zc-board .mc-target", "els => els.map(e => e.dataset.cell)"))


def reachable(page, start: str) -> set[str]:
    return {m[3:] for m in play_data(page)["moves"] if m.startswith(f"{start}-")}


def click_move(page, move: str) -> None:
    """Pick up the piece, check the lit cells are its legal ends, drop it, confirm."""
    start, end = move.split("-")
    square(page, start).click()
    assert lit(page) == reachable(page, start)
    square(page, end).click()
    confirm(page, move)


def set_position(game: Game, position: dict) -> None:
    """Test-only: replace the current position (the move log stays); the next moves are real ones."""
    rules = registry.get(game.game)
    state = rules.from_position(position)
    saved = Game.objects.get(pk=game.pk)
    saved.snapshot, saved.phase = rules.to_position(state), rules.phase(state)
    saved.to_move = ",".join(rules.movers(state))
    saved.save(update_fields=["snapshot", "phase", "to_move"])  # a save, as the service's: the poll's headline follows


def test_a_martian_chess_game_from_the_lobby_to_its_end(players, open_as, live_server, artifacts):
    alice, bob = players
    red, yellow = open_as(alice), open_as(bob, viewport={"width": 360, "height": 740})  # bob plays on a phone

    red.goto(live_server.url + reverse("game_new"))
    red.get_by_label("Martian Chess", exact=False).first.check()
    red.locator('input[name="seats"][value="2"]').check()
    with red.expect_navigation():
        red.get_by_role("button", name="Create game").click()
    game = Game.objects.get()
    assert game.game == "martianchess" and game.seats_wanted == 2

    yellow.goto(live_server.url + reverse("game_lobby", args=[game.pk]))
    seed = mock.patch("games.services.secrets.token_hex", return_value="martian-chess-by-clicks")
    with seed, yellow.expect_navigation():
        yellow.get_by_role("button", name="Join this game").click()
    wait_ready(yellow)
    red.goto(live_server.url + reverse("game_detail", args=[game.pk]))
    wait_ready(red)
    game.refresh_from_db()
    pages = {"red": red, "yellow": yellow}
    first = game.to_move
    second = "yellow" if first == "red" else "red"

    # The real setup: the starter clicks a piece of theirs, then one of its lit cells.
    page = pages[first]
    assert "resign" not in play_data(page)["moves"]  # resigning has its own button
    square(page, "a1" if first == "red" else "d8").click()  # a Queen boxed in by its own pieces: no moves
    assert lit(page) == set() and notation(page) == ""
    opening = play_data(page)["moves"][0]
    click_move(page, opening)
    screenshot(page, artifacts / "martianchess-01-first-move.png")

    wait_ready(pages[second], 1)  # the other page notices the move by polling
    screenshot(pages[second], artifacts / "martianchess-02-reply.png")
    click_move(pages[second], play_data(pages[second])["moves"][0])

    # The ending, played by clicks.
    set_position(game, ENDING)
    red.reload()
    wait_ready(red)
    square(red, "c4").click()
    assert "c5" in lit(red)
    square(red, "c5").click()
    assert "capture the Queen" in red.locator("[data-builder=prompt]").inner_text()
    confirm(red, "c4-c5")
    assert "capturing a Queen" in red.locator(".zc-log").inner_text()

    yellow.reload()
    wait_ready(yellow)
    square(yellow, "c5").click()
    assert lit(yellow) == reachable(yellow, "c5")
    assert "c4" not in lit(yellow) and "c3" in lit(yellow)  # no undo with two
    screenshot(yellow, artifacts / "martianchess-03-phone.png", full_page=False)
    width = yellow.evaluate("document.querySelector('svg.zc-board').getBoundingClientRect().right")
    assert width <= 360, "the board fits a 360 px phone"
    yellow.keyboard.press("Escape")  # put the Drone back, then pick it up again from the keyboard
    assert lit(yellow) == set() and notation(yellow) == ""
    square(yellow, "c5").focus()
    yellow.keyboard.press("Enter")
    square(yellow, "c3").focus()
    yellow.keyboard.press(" ")
    confirm(yellow, "c5-c3")

    game.refresh_from_db()
    assert (game.status, game.winner, game.result_reason) == (Game.Status.FINISHED, "yellow", "score")
    red.reload()
    screenshot(red, artifacts / "martianchess-04-over.png")
    notations = list(Move.objects.filter(game=game).values_list("notation", flat=True))
    assert notations[-2:] == ["c4-c5", "c5-c3"] and len(notations) == 4
    assert red.js_errors == [] and yellow.js_errors == []

"""A game against a built-in bot, in Chromium: alice picks the greedy bot for the other seat on the
new-game form, the game starts at once, and each of her moves (from the page's own move list) is
answered by the bot's move, played by the Celery task queued when her move commits (run eagerly here,
as a worker would take it off the queue). The bot carries its badge on the page."""

from __future__ import annotations

from unittest import mock

import pytest
from django.urls import reverse

from games.models import Game, Move
from tests.browser.helpers import screenshot, wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_alice_plays_zark_city_against_the_greedy_bot(players, open_as, live_server, artifacts, eager):
    alice, _ = players
    page = open_as(alice)
    page.goto(live_server.url + reverse("game_new"))
    page.get_by_label("Zark City", exact=False).first.check()
    page.locator('input[name="seats"][value="2"]').check()
    page.locator('select[name="bot_1"]').select_option("greedy")
    with mock.patch("games.services.secrets.token_hex", return_value="bot-game"), page.expect_navigation():
        page.get_by_role("button", name="Create game").click()

    game = Game.objects.get()
    assert game.status == Game.Status.ACTIVE  # a bot in every other seat: it starts at once
    page.goto(live_server.url + reverse("game_detail", args=[game.pk]))
    wait_ready(page)
    assert page.locator(".badge--bot").count() >= 1, "the bot's seat carries the bot badge"

    for _ in range(6):  # alice's moves; the bot answers each before her next page loads
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        # Whenever the bot was to move, it has moved: the page is alice's to play again.
        assert "red" in game.to_move.split(","), f"alice is to move again, not {game.to_move}"
        before = game.ply
        choice = play(page)
        wait_ready(page)
        game.refresh_from_db()
        # Her first move was a sealed starter choice, recorded with the bot's in the order they arrived.
        mine = Move.objects.filter(game=game, ply__gte=before, seat__colour="red").earliest("ply")
        assert mine.seat.colour == "red" and sorted(mine.notation.split()) == sorted(choice.split())

    assert Move.objects.filter(game=game, seat__colour="yellow").count() >= 3
    screenshot(page, artifacts / "bot-game.png")
    assert page.js_errors == []


def play(page) -> str:
    """Alice's move: the first one the page's list offers, or the first cards when she must discard."""
    discard = page.locator("form.zc-discard")
    if discard.count():
        legend = discard.locator("legend").inner_text()
        wanted = int(legend.split("tick ")[1].split(" card")[0])
        boxes = discard.locator("input[type=checkbox]")
        cards = [boxes.nth(i).get_attribute("value") for i in range(wanted)]
        for i in range(wanted):
            boxes.nth(i).check()
        with page.expect_navigation():
            discard.locator("button[type=submit]").click()
        return "discard " + " ".join(cards)
    pick = page.locator("select#id_pick")
    choice = pick.locator("option").first.get_attribute("value")
    pick.select_option(choice)
    with page.expect_navigation():
        page.locator("form.zc-pick button[type=submit]").click()
    return choice

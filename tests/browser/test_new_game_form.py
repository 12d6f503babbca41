"""The new-game form offers what the chosen game allows: its player counts, its options and its bots,
and a bot choice for each other seat the table has; without JavaScript every choice stays and the
server refuses what the game does not allow."""

from __future__ import annotations

import pytest
from django.urls import reverse

from engine import bots, registry
from games.forms_lobby import bot_field_name, option_field_name
from games.models import Game
from tests.browser.helpers import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def offered_seats(page) -> list[int]:
    return [
        int(v) for v in page.eval_on_selector_all('input[name="seats"]:not([disabled])', "els => els.map(e => e.value)")
    ]


def visible(page, selector: str) -> bool:
    return page.locator(selector).first.is_visible()


def offered_bots(page, field: str) -> list[str]:
    return page.eval_on_selector_all(
        f'select[name="{field}"] option:not([disabled])', "els => els.map(e => e.value).filter(Boolean)"
    )


def pick_game(page, game_id: str) -> None:
    page.locator(f'input[name="game"][value="{game_id}"]').check()


def test_each_game_offers_its_own_player_counts_options_and_bots(players, open_as, live_server, artifacts):
    page = open_as(players[0])
    page.goto(live_server.url + reverse("game_new"))
    page.locator('input[name="seats"][value="5"]').check()
    deck = option_field_name(registry.get("zarkcity").info, registry.get("zarkcity").info.options[0])
    for info in registry.infos():
        pick_game(page, info.id)
        assert offered_seats(page) == list(info.player_counts), info.id
        for label in page.locator('input[name="seats"]').all():
            allowed = int(label.get_attribute("value")) in info.player_counts
            assert label.locator("xpath=..").is_visible() == allowed
        assert visible(page, f'[name="{deck}"]') == any(o.name == "deck" for o in info.options)
        assert offered_bots(page, bot_field_name(1)) == [bot.name for bot in bots.bots_for(info.id)], info.id
    screenshot(page, artifacts / "new-game-buyers-market.png")

    # Martian Chess after five players were picked: the table falls back to two, one other seat.
    pick_game(page, "martianchess")
    assert page.locator('input[name="seats"]:checked').get_attribute("value") == "2"
    assert visible(page, f'select[name="{bot_field_name(1)}"]')
    assert not visible(page, f'select[name="{bot_field_name(2)}"]')
    page.locator('input[name="seats"][value="4"]').check()
    assert all(visible(page, f'select[name="{bot_field_name(n)}"]') for n in (1, 2, 3))
    assert not visible(page, f'select[name="{bot_field_name(4)}"]')
    screenshot(page, artifacts / "new-game-martian-chess.png")

    # A bot of another game, picked first, does not survive the change of game.
    pick_game(page, "zarkcity")
    page.locator(f'select[name="{bot_field_name(1)}"]').select_option("greedy")
    pick_game(page, "martianchess")
    assert page.locator(f'select[name="{bot_field_name(1)}"]').input_value() == ""

    page.locator('input[name="seats"][value="2"]').check()
    page.locator(f'select[name="{bot_field_name(1)}"]').select_option("alphabeta")
    with page.expect_navigation():
        page.get_by_role("button", name="Create game").click()
    game = Game.objects.get()
    assert (game.game, game.seats_wanted, game.status) == ("martianchess", 2, Game.Status.ACTIVE)
    assert page.js_errors == []


def test_without_javascript_every_choice_stays_and_the_server_refuses_what_the_game_does_not_allow(
    players, open_as, live_server
):
    page = open_as(players[0], java_script_enabled=False)
    page.goto(live_server.url + reverse("game_new"))
    pick_game(page, "martianchess")
    assert offered_seats(page) == sorted({n for info in registry.infos() for n in info.player_counts})
    page.locator('input[name="seats"][value="3"]').check()
    with page.expect_navigation():
        page.get_by_role("button", name="Create game").click()
    assert "Martian Chess" in page.locator(".errorlist").first.inner_text()
    assert not Game.objects.exists()

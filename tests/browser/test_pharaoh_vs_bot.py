"""Pharaoh against the kit's random bot, in Chromium on a desktop, played by clicks to its end.

Alice makes every step of hers from the game page: a supply piece then an edge cell to enter, two
cells to move, then Confirm; a pass (no place on the board) is the page's one-click button. The bot
answers each of her moves in the Celery task her move queues (run eagerly, in the live server's
request, as a worker would take it off the queue). The end is read from the page's result banner.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from unittest import mock

import pytest

from engine.pharaoh.game import GAME
from games import services
from games.models import Game, Seat
from tests.browser.helpers import confirm, game_url, open_game
from tests.engine.test_pharaoh_golden import choose

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from engine.pharaoh.notation import Move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SEED = "pharaoh-bot-37"  # alice (red) wins on her 10th move, 18 plies in
MOST_MOVES = 15  # alice's moves; with SEED the game ends on her 10th


def steady_seed(game: Game, ply: int, seat: Seat) -> str:
    """The bot's seed without the game's id (which the database chooses), so each run plays the same game."""
    return f"ply {ply} seat {seat.colour}"


def test_alice_plays_pharaoh_to_its_end_by_clicks_against_the_random_bot(players, open_as, live_server, eager) -> None:
    alice, _ = players
    with (
        mock.patch("games.services.secrets.token_hex", return_value=SEED),
        mock.patch("games.bot_turns.bot_seed", steady_seed),
    ):
        game = services.game_create(
            creator=alice, game="pharaoh", seats=2, options={}, time_limit_days=3, is_private=False, bots=("random",)
        )
        mine = game.seats.get(user=alice).colour
        page = open_as(alice)
        for _ in range(MOST_MOVES):
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            assert game.to_move == mine, "the bot has answered: alice is to move again"
            move = choose(services.state_of(game), game.ply)
            open_game(page, game_url(live_server, game))
            play(page, move)
            assert page.js_errors == []
            page.goto("about:blank")  # no page polls the server while the test reads the game
        game.refresh_from_db()
    assert game.status == Game.Status.FINISHED, f"not over after {MOST_MOVES} moves of alice's"
    open_game(page, game_url(live_server, game))
    (winner,) = game.winners
    assert winner == mine  # the seed's game: alice's lines beat the random bot
    shown = page.locator("#status.zc-banner--over").inner_text(timeout=10_000)
    assert f"won as {winner}" in shown
    assert page.locator("#move").count() == 0  # nothing is left to play
    assert page.js_errors == []


def play(page: Page, move: Move) -> None:
    """Alice's move by clicks: its targets then Confirm, or the one-click button of a step with no place."""
    path = GAME.click_path(move)
    if not path:
        with page.expect_navigation(timeout=15_000):
            page.locator(f'.zc-quick button[value="{move}"]').click()
        return
    for name in path:
        page.locator(f'[data-target="{name}"]').first.click()
    confirm(page, str(move))

"""Pharaoh against the kit's random bot, in Chromium on a desktop, played by clicks to its end.

Alice makes every step of hers from the game page: a supply piece then an edge cell to enter, two
cells to move, then Confirm; a pass (no place on the board) is the page's one-click button. The bot
answers each of her moves in the Celery task her move queues (run eagerly, in the live server's
request, as a worker would take it off the queue). The end is read from the page's result banner.
"""

from __future__ import annotations

import pytest

from engine.pharaoh.game import GAME
from games import services
from games.models import Game
from tests.browser.helpers import (
    against_the_random_bot,
    assert_won_on_page,
    click_move,
    game_url,
    open_game,
    turns_against_the_bot,
)
from tests.engine.test_pharaoh_golden import choose

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SEED = "pharaoh-bot-37"  # alice (red) wins on her 10th move, 18 plies in
MOST_MOVES = 15  # alice's moves; a game that runs past them fails instead of running on


def test_alice_plays_pharaoh_to_its_end_by_clicks_against_the_random_bot(players, open_as, live_server, eager) -> None:
    alice, _ = players
    with against_the_random_bot(alice, "pharaoh", SEED) as game:
        mine = game.seats.get(user=alice).colour
        page = open_as(alice)
        for _ in turns_against_the_bot(game, mine, MOST_MOVES):
            move = choose(services.state_of(game), game.ply)
            open_game(page, game_url(live_server, game))
            click_move(page, GAME.click_path(move), str(move))
            assert page.js_errors == []
            page.goto("about:blank")  # no page polls the server while the test reads the game
    assert game.status == Game.Status.FINISHED, f"not over after {MOST_MOVES} moves of alice's"
    assert tuple(game.winners) == (mine,)  # the seed's game: alice's lines beat the random bot
    assert_won_on_page(page, game_url(live_server, game), mine)

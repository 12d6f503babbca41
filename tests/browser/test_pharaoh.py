"""Pharaoh on the real game page of a 360 px phone, played by taps to its end.

The first seat makes every step by tapping the kit's click targets (a supply piece then an edge cell
to enter, two cells to move) and confirming; the other seat passes through the service, so the game
reaches a goal-line in a few turns. The board must fit the phone's width, and no script may fail.
"""

from __future__ import annotations

import pytest

from engine.pharaoh.game import GAME
from games import services
from tests.browser.helpers import confirm, game_url, open_game
from tests.engine.test_pharaoh_golden import choose
from tests.service.gameplay import mover, start_game, user_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}


def test_a_game_of_pharaoh_is_played_to_its_end_by_taps_on_a_phone(players, open_as, live_server) -> None:
    game = start_game(*players, game="pharaoh")
    first = mover(game)
    page = open_as(user_of(game, first), **PHONE)
    taps = 0
    while game.status == game.Status.ACTIVE:
        colour = mover(game)
        if colour != first:
            services.move_submit(game=game, user=user_of(game, colour), text="pass", seen_ply=game.ply)
        else:
            move = choose(services.state_of(game), game.ply)
            open_game(page, game_url(live_server, game))
            assert page.evaluate("document.documentElement.scrollWidth") <= 360
            for name in GAME.click_path(move):
                page.locator(f'[data-target="{name}"]').first.tap()
                taps += 1
            confirm(page, str(move))
            assert page.js_errors == []
            page.goto("about:blank")  # no page polls the server while the test writes to SQLite
        game.refresh_from_db()
    assert (game.status, tuple(game.winners)) == (game.Status.FINISHED, (first,))
    assert taps >= 6  # three pieces entered and moved at least

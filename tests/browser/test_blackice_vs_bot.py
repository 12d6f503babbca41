"""Black ICE against the kit's random bot, in Chromium on a 360 px phone and on a desktop, played by
clicks to its end.

Alice makes every step of hers from the game page: a Peek or a Reset is the Lock (with the step's
button when the Lock offers both, or when a Swap could go on from it), a Swap the two Locks or two of
her Nodes, a Set the supply's colour then the Node, a Copy the opponent's Node; `pass` and `declare`
("I win!"), which have no place on the board, are the page's one-click buttons. The bot plays its turns
in the Celery tasks her moves queue (run eagerly, in the live server's request). The end is read from
the page's result banner.
"""

from __future__ import annotations

import pytest

from engine.blackice.game import GAME
from games import services
from games.models import Game
from tests.browser.helpers import against_the_random_bot, click_move, game_url, open_game
from tests.engine.test_blackice_golden import choose

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
# Under the golden playthroughs' policy alice (red) makes 7 steps, one of each kind but `declare`, and
# then the random bot declares "I win!" with the wrong Keys.
SEED = "blackice-bot-1"
MOST_MOVES = 60  # alice's steps; a game that runs past them fails instead of running on


@pytest.mark.parametrize(("device", "tap"), [(PHONE, True), (DESKTOP, False)], ids=["phone", "desktop"])
def test_alice_plays_black_ice_to_its_end_by_clicks_against_the_random_bot(
    players, open_as, live_server, eager, device, tap
) -> None:
    alice, _ = players
    kinds = set()
    with against_the_random_bot(alice, "blackice", SEED) as game:
        mine = game.seats.get(user=alice).colour
        page = open_as(alice, **device)
        for ply in range(MOST_MOVES):
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            assert game.to_move == mine, "the bot has played its turn: alice is to move again"
            text = str(choose(services.state_of(game), ply, rash=False))
            open_game(page, game_url(live_server, game))
            assert page.evaluate("document.documentElement.scrollWidth") <= device["viewport"]["width"]
            click_move(page, GAME.click_path(GAME.parse_steps(text)[0]), text, tap=tap)
            kinds.add(text.split()[0])
            assert page.js_errors == []
            page.goto("about:blank")  # no page polls the server while the test reads the game
        game.refresh_from_db()
    assert game.status == Game.Status.FINISHED, f"not over after {MOST_MOVES} steps of alice's"
    assert kinds == {"peek", "set", "swap", "copy", "reset", "pass"}, kinds  # every kind clicked but declare
    assert tuple(game.winners) == (mine,) and game.result_reason == "wrong declaration"  # the bot's, at random
    open_game(page, game_url(live_server, game))
    banner = page.locator("#status.zc-banner--over").inner_text(timeout=10_000)
    assert ("won as" in banner) == (mine in game.winners)
    assert page.locator("#move").count() == 0  # nothing is left to play
    assert page.js_errors == []

"""Launch Pad 23 against the kit's random bot, in Chromium, played by clicks (desktop) and by taps (a 360 px
phone) to its end.

Alice picks her opening piece with the page's button (the bot has picked already, unseen: the page still
waits on both); then every step of hers is made on the board: a part is the piece clicked in the Bank (or
on the pad it comes off), a move is the piece then the cell it goes to, then Confirm; `pass` and `reroll`,
which have no place on the board, are the page's one-click buttons. The bot plays its turns in the Celery
tasks her moves queue (run eagerly, in the live server's request). The end is read from the result banner.
"""

from __future__ import annotations

import pytest

from engine.launchpad23.game import GAME
from games import services
from games.models import Commitment, Game
from tests.browser.helpers import against_the_random_bot, click_move, game_url, open_game
from tests.engine.launchpad23_helpers import builder_step

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
# Under builder_step, alice (red) builds her rocket of Smalls on her 16th step, 37 plies in: 3 parts and
# 7 moves clicked on the board, 5 passes and a reroll pressed (tests/engine: the same game in the engine).
SEED = "lp23-bot-23"
MOST_STEPS = 25  # alice's steps; a game that runs past them fails instead of running on
DEVICES = {
    "desktop": {},
    "phone": {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True},
}


@pytest.mark.parametrize("device", DEVICES)
def test_alice_plays_launchpad23_to_its_end_by_clicks_against_the_random_bot(
    players, open_as, live_server, eager, device
) -> None:
    alice, _ = players
    tap = device == "phone"
    clicked: list[str] = []
    with against_the_random_bot(alice, "launchpad23", SEED) as game:
        mine = game.seats.get(user=alice).colour
        assert Commitment.objects.filter(game=game).count() == 1  # the bot's pick, held unseen
        page = open_as(alice, **DEVICES[device])
        open_game(page, game_url(live_server, game))
        assert "Choose your opening piece." in page.content()
        click_move(page, (), str(builder_step(services.state_of(game), mine, 0)), tap=tap)
        for _ in range(MOST_STEPS):
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            assert game.to_move == mine, "the bot has played its turn: alice is to move again"
            move = builder_step(services.state_of(game), mine, game.ply)
            open_game(page, game_url(live_server, game))
            assert page.evaluate("document.documentElement.scrollWidth") <= (360 if tap else 1280)
            click_move(page, GAME.click_path(move), str(move), tap=tap)
            clicked += GAME.click_path(move)
            assert page.js_errors == []
            page.goto("about:blank")  # no page polls the server while the test reads the game
        game.refresh_from_db()
    assert game.status == Game.Status.FINISHED, f"not over after {MOST_STEPS} steps of alice's"
    assert tuple(game.winners) == (mine,) and game.result_reason == "rocket"
    assert len(clicked) == 3 + 2 * 7  # three parts (one click), seven moves (piece, then cell)
    open_game(page, game_url(live_server, game))
    assert f"won as {mine}" in page.locator("#status.zc-banner--over").inner_text(timeout=10_000)
    assert page.locator("#move").count() == 0  # nothing is left to play
    assert page.js_errors == []

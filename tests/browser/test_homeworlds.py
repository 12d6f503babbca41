"""Homeworlds in Chromium against the kit's random bot: alice's every step is made by clicks on the
star map (the bank's pieces, her ships, the systems) and Confirm; the bot answers through its task,
run at once here as a worker would. The map is checked readable and unscrolled on a 360 px phone."""

from __future__ import annotations

from unittest import mock

import pytest

from engine.homeworlds import picture
from games import services
from games.models import Game, Move
from tests.browser.helpers import confirm, game_url, open_game, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ALICE_STEPS = 8


def _alices_step(game: Game, colour: str) -> tuple[str, tuple[str, ...]] | None:
    """Her step: a homeworld with a green ship, else a build, else any clickable step (None: only
    `pass` or `done` are left, which are buttons)."""
    state = services.state_of(game)
    steps = [step for step in game.rules.legal_moves(state, colour) if not game.rules.is_resign(step)]
    clickable = [(str(step), picture.click_path(step)) for step in steps if picture.click_path(step)]
    for wanted in ("homeworld", "build"):
        found = [
            pair for pair in clickable if pair[0].startswith(wanted) and pair[0].endswith(("g3", "North", "South"))
        ]
        if found:
            return found[0]
    return clickable[0] if clickable else None


@pytest.mark.parametrize(
    "options", [{}, {"viewport": {"width": 360, "height": 740}, "has_touch": True}], ids=["mouse", "phone"]
)
def test_alice_plays_homeworlds_by_clicks_against_the_random_bot(
    players, open_as, live_server, artifacts, eager, options
):
    alice, _ = players
    settings = {"game": "homeworlds", "seats": 2, "options": {"suicide": "illegal"}, "time_limit_days": 3}
    with mock.patch("games.services.secrets.token_hex", return_value="hw-browser"):
        game = services.game_create(creator=alice, is_private=False, bots=("random",), **settings)
    game.refresh_from_db()
    colour = game.seats.get(user=alice).colour
    page = open_as(alice, **options)
    made = 0
    while made < ALICE_STEPS:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        assert colour in game.to_move.split(","), "the bot has answered: alice is to move"
        chosen = _alices_step(game, colour)
        if chosen is None:
            services.move_submit(game=game, user=alice, text="done", seen_ply=game.ply)
            continue
        text, path = chosen
        open_game(page, game_url(live_server, game))
        if options:
            assert page.evaluate("document.documentElement.scrollWidth") <= 360
        for name in path:
            target = page.locator(f'svg.zc-board [data-target="{name}"]').first
            target.tap() if options else target.click()
        confirm(page, text)
        made += 1
        assert Move.objects.filter(game=game, seat__colour=colour).order_by("-ply").first().notation == text
    assert made >= 3 and page.js_errors == []
    screenshot(page, artifacts / f"homeworlds-{'phone' if options else 'mouse'}.png")

"""IceDice against the kit's random bot, in Chromium on a 360 px phone, played by taps to its end.

Alice makes every step of hers from the game page: a take is tapped on the Bank's cell of its kind
(then on the Vault it is stolen from) and confirmed; roll and stop, which have no place on the board,
are the page's one-click buttons. The bot plays its turns in the Celery tasks her moves queue (run
eagerly, in the live server's request, as a worker would take them off the queue). The end is read
from the page's result banner.
"""

from __future__ import annotations

import pytest

from engine.icedice.game import GAME
from engine.icedice.notation import Move, Roll, Stop, Take
from engine.icedice.state import State
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

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
# Under `choose`, alice (red) wins on her 25th step, 43 plies in: 9 takes tapped (2 of them steals).
SEED = "icedice-bot-23"
MOST_MOVES = 35  # alice's steps; a game that runs past them fails instead of running on


def choose(state: State, colour: str) -> Move:
    """Alice's step: the first take offered; else stop once two pieces are on the Counter, else roll."""
    moves = GAME.legal_moves(state, colour)
    takes = [m for m in moves if isinstance(m, Take)]
    if takes:
        return takes[0]
    if len(state.counter) >= 2 and any(isinstance(m, Stop) for m in moves):
        return Stop()
    return Roll()


def test_alice_plays_icedice_to_its_end_by_taps_on_a_phone_against_the_random_bot(
    players, open_as, live_server, eager
) -> None:
    alice, _ = players
    tapped = []
    with against_the_random_bot(alice, "icedice", SEED) as game:
        mine = game.seats.get(user=alice).colour
        page = open_as(alice, **PHONE)
        for _ in turns_against_the_bot(game, mine, MOST_MOVES):
            move = choose(services.state_of(game), mine)
            open_game(page, game_url(live_server, game))
            assert page.evaluate("document.documentElement.scrollWidth") <= 360
            click_move(page, GAME.click_path(move), str(move), tap=True)
            tapped += GAME.click_path(move)
            assert page.js_errors == []
            page.goto("about:blank")  # no page polls the server while the test reads the game
    assert game.status == Game.Status.FINISHED, f"not over after {MOST_MOVES} steps of alice's"
    assert len(tapped) == 11  # nine takes on the board, two of them steals (a Bank cell, then a Vault)
    assert tuple(game.winners) == (mine,)  # the seed's game: alice banks her Trios first
    assert_won_on_page(page, game_url(live_server, game), mine)

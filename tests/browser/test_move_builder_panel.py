"""The move builder's panel as a player sees it: the discard prompt names the game's own hand limit,
and a button that cannot be pressed looks it (greyed, faded, no pointer)."""

from __future__ import annotations

import pytest

from engine import registry
from games import services
from games.models import Game
from tests.browser.helpers import game_url, hand_card, open_game, screenshot
from tests.service.gameplay import mover, start_game, user_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def prompt(page) -> str:
    return page.locator("[data-builder=prompt]").inner_text()


def play_until(game: Game, phase: str) -> Game:
    """Through the service: each mover takes the first legal move, drawing when it may, until `phase`."""
    rules = registry.get(game.game)
    for _ in range(12):
        game.refresh_from_db()
        if game.phase == phase:
            return game
        colour = mover(game)
        moves = [str(m) for m in rules.legal_moves(services.state_of(game), colour) if not rules.is_resign(m)]
        text = "draw" if "draw" in moves else moves[0]
        services.move_submit(game=game, user=user_of(game, colour), text=text, seen_ply=game.ply)
    raise AssertionError(f"no {phase} in 12 plies (phase {game.phase})")


def test_the_deck_town_discard_prompt_names_its_hand_limit(players, open_as, live_server, artifacts):
    game = play_until(start_game(*players, game="decktown"), "discard")
    colour = mover(game)
    page = open_as(user_of(game, colour))
    open_game(page, game_url(live_server, game))
    hand = services.state_of(game).hands[colour]
    owed = len(hand) - 5
    assert prompt(page) == f"Pick {owed} more card{'s' if owed > 1 else ''} to discard (down to 5)."
    hand_card(page, hand[0]).click()
    assert "to discard (down to 5)" in prompt(page) or prompt(page) == "Discard these cards?"
    screenshot(page, artifacts / "decktown-discard-prompt.png", full_page=False)
    assert page.js_errors == []


@pytest.mark.parametrize("game_id", ["zarkcity", "decktown"])
def test_the_draw_button_names_the_cards_the_game_draws(players, open_as, live_server, game_id):
    game = play_until(start_game(*players, game=game_id), "act")
    page = open_as(user_of(game, mover(game)))
    open_game(page, game_url(live_server, game))
    assert page.locator('[data-builder=choices] [data-move="draw"]').inner_text() == "Draw 3 cards"
    assert page.js_errors == []


def looks(page, selector: str) -> dict[str, str]:
    return page.eval_on_selector(
        selector,
        """el => { const s = getComputedStyle(el);
                   return { cursor: s.cursor, opacity: s.opacity, background: s.backgroundColor }; }""",
    )


def test_a_disabled_confirm_or_cancel_button_looks_disabled(players, open_as, live_server, artifacts):
    game = start_game(*players)  # Zark City: both choose a starter; nothing is picked yet
    page = open_as(players[0])
    open_game(page, game_url(live_server, game))
    confirm, cancel = "[data-builder=confirm]", "[data-builder=cancel]"
    assert page.locator(confirm).is_disabled() and page.locator(cancel).is_disabled()
    off = looks(page, confirm)
    assert off["cursor"] == "not-allowed" and float(off["opacity"]) < 0.7
    assert looks(page, cancel)["cursor"] == "not-allowed"
    screenshot(page.locator("#zc-builder"), artifacts / "builder-disabled.png")

    rules = registry.get(game.game)
    choices = [str(m) for m in rules.legal_moves(services.state_of(game), "red") if str(m).startswith("choose")]
    card = choices[0].split()[1]
    hand_card(page, card).click()  # a starter picked: the move is whole, both buttons work
    assert page.locator(confirm).is_enabled() and page.locator(cancel).is_enabled()
    on = looks(page, confirm)
    assert on["cursor"] == "pointer" and float(on["opacity"]) == 1 and on["background"] != off["background"]
    screenshot(page.locator("#zc-builder"), artifacts / "builder-enabled.png")
    assert page.js_errors == []

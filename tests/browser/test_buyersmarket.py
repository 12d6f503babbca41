"""Buyer's Market from the lobby to its end, by clicks, in two browsers (alice red, bob yellow).

Alice creates a two-player Buyer's Market game on the new-game form and bob joins. The first player
picks a pile if the setup die showed the atom, then each plays a first move from the real deal by
clicking a pallet and one of its move buttons. The collected piles are then set (test-only) so red
may call the building phase: red places a pyramid and ticks "call", yellow takes the one more turn,
and the game is scored: each building is drawn with its score line by line.

Every button and lit pile comes from the page's own legal moves (the embedded play data).
"""

from __future__ import annotations

import json
from unittest import mock

import pytest
from django.urls import reverse

from engine import registry
from games.models import Game, Move
from tests.browser.helpers import confirm, screenshot, wait_ready

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]

# Red's collected pile once set: enough for a building (B9: 4 Larges, 3 Mediums, 1 Small).
RED_CRP = (("H", "L"), ("H", "L"), ("D", "L"), ("C", "L"), ("H", "M"), ("D", "M"), ("T", "M"), ("S", "S"))


def play_data(page) -> dict:
    return json.loads(page.locator("#zc-play-data").text_content())


def pallet(page, card: str):
    return page.locator(f'svg.zc-board [data-pallet="{card}"]')


def lit_pallets(page) -> set[str]:
    return set(
        page.eval_on_selector_all("svg.zc-board .bm-selectable[data-pallet]", "els => els.map(e => e.dataset.pallet)")
    )


def pallets_with_moves(page) -> set[str]:
    cards = set()
    for text in play_data(page)["moves"]:
        words = text.split()
        if words[0] in ("place", "contribute"):
            cards.add(words[2])
        elif words[0] == "buy":
            cards.add(words[1])
    return cards


def click_move(page, move: str) -> None:
    """Click the move's pallet (or pile), check the buttons are that pallet's legal moves, pick, confirm."""
    words = move.removesuffix(" call").split()
    if words[0] == "pile":
        page.locator(f'svg.zc-board [data-pile="{words[1]}"]').click()
        confirm(page, move)
        return
    assert lit_pallets(page) == pallets_with_moves(page)
    card = words[1] if words[0] == "buy" else words[2]
    pallet(page, card).click()
    offered = set(
        page.eval_on_selector_all("[data-builder=choices] [data-move]", "els => els.map(e => e.dataset.move)")
    )
    listed = {m.removesuffix(" call") for m in play_data(page)["moves"] if card in m.split() and m.split()[0] != "pile"}
    assert offered == listed
    page.locator(f'[data-builder=choices] [data-move="{" ".join(words)}"]').click()
    if move.endswith(" call"):
        page.locator("[data-builder=call]").check()
    confirm(page, move)


def first_action(page) -> str:
    return next(m for m in play_data(page)["moves"] if not m.endswith(" call"))


def give_red_a_building(game: Game) -> None:
    """Test-only: move red's building material from the global resources into red's collected pile,
    and make it red's turn; the next moves are real ones."""
    rules = registry.get(game.game)
    state = rules.from_position(game.snapshot)
    grp = {suit: dict(sizes) for suit, sizes in state.grp.items()}
    for suit, size in RED_CRP:
        grp[suit][size] -= 1
    state = state.evolve(grp=grp, crp={**state.crp, "red": (*state.crp["red"], *RED_CRP)}, to_move="red")
    saved = Game.objects.get(pk=game.pk)
    saved.snapshot, saved.phase = rules.to_position(state), rules.phase(state)
    saved.to_move = ",".join(rules.movers(state))
    saved.save(update_fields=["snapshot", "phase", "to_move"])  # a save, as the service's: the poll's headline follows


def test_a_buyers_market_game_from_the_lobby_to_its_scored_end(players, open_as, live_server, artifacts):
    alice, bob = players
    red, yellow = open_as(alice), open_as(bob)

    red.goto(live_server.url + reverse("game_new"))
    red.get_by_label("Buyer's Market", exact=False).first.check()
    red.locator('input[name="seats"][value="2"]').check()
    with red.expect_navigation():
        red.get_by_role("button", name="Create game").click()
    game = Game.objects.get()
    assert game.game == "buyersmarket" and game.seats_wanted == 2

    yellow.goto(live_server.url + reverse("game_lobby", args=[game.pk]))
    seed = mock.patch("games.services.secrets.token_hex", return_value="buyers-market-by-clicks")
    with seed, yellow.expect_navigation():
        yellow.get_by_role("button", name="Join this game").click()
    wait_ready(yellow)
    red.goto(live_server.url + reverse("game_detail", args=[game.pk]))
    wait_ready(red)
    pages = {"red": red, "yellow": yellow}

    # The real deal: a setup pile pick if the die showed the atom, then one move each.
    for _ in range(3):
        game.refresh_from_db()
        page = pages[game.to_move]
        page.reload()
        wait_ready(page)
        click_move(page, first_action(page))
    screenshot(red, artifacts / "buyersmarket-01-market.png")

    # Red has a building's worth collected: a place with "call" (B8), then yellow's one more turn.
    give_red_a_building(game)
    red.reload()
    wait_ready(red)
    calling = next(m for m in play_data(red)["moves"] if m.startswith("place ") and m.endswith(" call"))
    click_move(red, calling)
    assert "called the building phase" in red.locator(".zc-log").inner_text()

    game.refresh_from_db()
    while game.status != Game.Status.FINISHED:  # yellow's last turn (and a pile pick if the die asks)
        yellow.reload()
        wait_ready(yellow)
        assert (
            "last round" in yellow.locator(".zc-banner").inner_text()
            or "pick" in yellow.locator(".zc-banner").inner_text()
        )
        click_move(yellow, first_action(yellow))
        game.refresh_from_db()

    assert game.result_reason == "score"
    red.reload()
    buildings = red.locator("svg.zc-board .bm-building")
    assert buildings.count() == 2
    red_building = red.locator('svg.zc-board .bm-building[data-colour="red"]').inner_html()
    for line in ("bricks", "levels", "cohesiveness", "diversity", "regality", "unused", "unspent", "total"):
        assert f">{line}<" in red_building
    screenshot(red, artifacts / "buyersmarket-02-scored.png")
    notations = list(Move.objects.filter(game=game).values_list("notation", flat=True))
    assert calling in notations
    assert yellow.locator("#zc-builder").count() == 0  # the page after the end has no builder
    # The replay of the finished game steps through it from the deal, the piles' order now shown.
    response = red.goto(live_server.url + reverse("replay", args=[game.pk, 2]))
    assert response is not None and response.status == 200
    assert "pile, top first" in red.content()
    assert red.js_errors == [] and yellow.js_errors == []

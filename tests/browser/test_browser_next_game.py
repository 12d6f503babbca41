"""The next game in Chromium (issue 28): the tab's title and icon count the games waiting for your
move and follow other players' moves; after Confirm the status line and the board stay in view; the
"Next game" button and the n key open the next game."""

from __future__ import annotations

import pytest

from games import services
from tests.browser.helpers import confirm, game_url, hand_card, open_game
from tests.service.gameplay import start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def icon(page) -> str:
    return page.locator('link[rel="icon"]').get_attribute("href")


def wait_for_title(page, title: str, seconds: float = 10) -> None:
    """Poll the title from Python: the page's CSP forbids the eval wait_for_function needs."""
    for _ in range(int(seconds * 10)):
        if page.title() == title:
            return
        page.wait_for_timeout(100)
    assert page.title() == title


def in_view(page, selector: str) -> bool:
    """Whether the element's top edge is on the screen."""
    return page.evaluate(
        "(s) => { const r = document.querySelector(s).getBoundingClientRect();"
        " return r.top >= 0 && r.top < window.innerHeight; }",
        selector,
    )


def test_title_icon_next_game_and_the_view_after_confirm(players, open_as, live_server):
    alice, bob = players
    first, second = start_game(alice, bob), start_game(alice, bob)  # seed7: red (alice) holds 6S 5C QC
    page = open_as(alice)
    open_game(page, game_url(live_server, first))
    assert page.title() == "(2) Your move - zarkcity"
    assert icon(page).endswith("/icon/2.svg")
    assert page.locator("[data-next-label]").text_content().startswith(f"Next game: Zark City #{second.pk}")

    hand_card(page, "5C").click()
    confirm(page, "choose 5C")
    assert in_view(page, "#status") and in_view(page, "#board")
    assert page.url.endswith(f"/games/{first.pk}/#status")
    assert page.title() == "(1) Your move - zarkcity" and icon(page).endswith("/icon/1.svg")

    with page.expect_navigation():
        page.keyboard.press("n")
    assert page.url.endswith(f"/games/{second.pk}/")
    page.wait_for_selector("html[data-zc-ready]", state="attached")
    assert page.locator("[data-next-game]").is_hidden()  # nothing else waits for alice

    # bob chooses in the first game: red must now place her starter there, and the open page says so.
    first.refresh_from_db()
    services.move_submit(game=first, user=bob, text="choose 9H", seen_ply=first.ply)
    wait_for_title(page, "(2) Your move - zarkcity")
    assert icon(page).endswith("/icon/2.svg")
    assert page.locator("[data-next-label]").text_content().startswith(f"Next game: Zark City #{first.pk}")
    assert not page.js_errors

"""Quiet while you watch, in Chromium (issue 28): a player's visible game page tells the server at
once that they are watching (its poll), and a tab gone hidden tells it they no longer are (a beacon)."""

from __future__ import annotations

import time

import pytest

from notifications.models import Watch
from tests.browser.helpers import game_url, open_game
from tests.service.gameplay import start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HIDE = """() => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def wait_until(check, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.1)
    return check()


def pump_until(page, check, seconds: float = 10) -> bool:
    """wait_until, for what Playwright's events tell: they are dispatched only while Playwright is called."""
    for _ in range(int(seconds * 10)):
        if check():
            return True
        page.wait_for_timeout(100)
    return check()


def test_the_page_says_watching_and_a_hidden_tab_says_not(players, open_as, live_server):
    alice, bob = players
    game = start_game(alice, bob)
    page = open_as(bob)
    open_game(page, game_url(live_server, game))
    assert wait_until(lambda: Watch.objects.filter(user=bob, game=game).exists())
    spectator = open_as(None)
    open_game(spectator, game_url(live_server, game))
    page.evaluate(HIDE)  # the tab goes to the background (headless Chromium never hides one by itself)
    assert wait_until(lambda: not Watch.objects.filter(user=bob, game=game).exists())
    assert not Watch.objects.exists() and not page.js_errors


def test_a_poll_answered_after_the_tab_went_hidden_does_not_leave_it_watching(players, open_as, live_server):
    """The poll sent just before the tab went hidden reaches the server after the beacon (held here in
    the browser until then) and writes the watch again: once it has answered, the page says it again."""
    alice, bob = players
    game = start_game(alice, bob)
    page = open_as(bob)
    open_game(page, game_url(live_server, game))
    assert wait_until(lambda: Watch.objects.filter(user=bob, game=game).exists())
    held, beacons = [], []
    page.on("request", lambda request: beacons.append(request.url) if "unwatched" in request.url else None)
    page.route("**/ply.json*", lambda route: held.append(route) if not held else route.continue_())
    assert pump_until(page, lambda: bool(held))  # the next poll (every second here) is held in the browser
    page.evaluate(HIDE)
    assert wait_until(lambda: not Watch.objects.filter(user=bob, game=game).exists())
    assert pump_until(page, lambda: len(beacons) == 1)
    with page.expect_response("**/ply.json*"):
        held[0].continue_()  # the server writes the watch again: the beacon came first
    assert pump_until(page, lambda: len(beacons) == 2)
    assert wait_until(lambda: not Watch.objects.filter(user=bob, game=game).exists())
    assert not page.js_errors

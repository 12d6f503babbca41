"""Browser notifications on the settings page, in Chromium (issue 28).

The site's service worker registers at /sw.js with the whole site as its scope. A real
pushManager.subscribe needs the browser's push service (Google's, for Chromium), which this machine
cannot reach: the first test shows what the page then says. The second replaces only
PushManager.subscribe and getSubscription, before the page loads, by a subscription at the tests'
local push service with keys the test holds; everything else is real: the page registers the
worker, asks the permission, sends the subscription, lists "this browser", the worker pushes an
encrypted message to it, and "Turn off in this browser" removes it."""

from __future__ import annotations

import json
import time

import pytest
from django.urls import reverse

from notifications import delivery
from notifications.models import Notification, PushSubscription
from tests.notifications.push_service import Browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FAKE_PUSH = """
(() => {
  const sent = %s;
  const made = () => ({
    endpoint: sent.endpoint,
    toJSON: () => sent,
    unsubscribe: async () => { localStorage.removeItem("zc-test-subscribed"); return true; },
  });
  /* The browser remembers its subscription across page loads: localStorage stands in for that. */
  PushManager.prototype.subscribe = async function () {
    localStorage.setItem("zc-test-subscribed", "1");
    return made();
  };
  PushManager.prototype.getSubscription = async function () {
    return localStorage.getItem("zc-test-subscribed") ? made() : null;
  };
})();
"""


def status(page) -> str:
    locator = page.locator("[data-push=status]")
    for _ in range(100):
        if locator.inner_text().strip():
            break
        page.wait_for_timeout(100)
    return locator.inner_text().strip()


def settings_page(open_as, live_server, user, init_script: str = ""):
    page = open_as(user)
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    if init_script:
        page.context.add_init_script(init_script)
    page.goto(live_server.url + reverse("notifications:preferences"))
    page.wait_for_selector("[data-push=on]:not([hidden]), [data-push=off]:not([hidden])", state="attached")
    return page


def test_the_worker_registers_and_a_real_subscribe_says_why_it_failed(players, open_as, live_server, push_service):
    alice, bob = players
    page = settings_page(open_as, live_server, bob)
    scope = page.evaluate("async () => (await navigator.serviceWorker.getRegistration('/')).scope")
    assert scope == live_server.url + "/"
    page.locator("[data-push=on]").click()
    said = status(page)
    # Chromium's own push service is out of reach here: the page says so, and nothing is stored.
    assert said.startswith("This browser could not subscribe (its push service answered:"), said
    assert not PushSubscription.objects.exists() and not page.js_errors


def test_subscribe_store_push_and_unsubscribe_from_the_settings_page(players, open_as, live_server, push_service):
    alice, bob = players
    browser = Browser(endpoint=f"{push_service.url}/push/chromium")
    sent = browser.subscription()
    page = settings_page(open_as, live_server, bob, FAKE_PUSH % json.dumps(sent))
    assert page.locator("[data-push=none]").inner_text() == "No browser gets notifications."
    with page.expect_navigation():
        page.locator("[data-push=on]").click()
    page.wait_for_selector("[data-push=off]:not([hidden])")
    stored = PushSubscription.objects.get(user=bob)
    assert (stored.endpoint, stored.p256dh, stored.auth) == (browser.endpoint, browser.p256dh, browser.auth)
    item = page.locator(f'li[data-endpoint="{browser.endpoint}"]')
    assert item.locator("[data-push=this]").is_visible() and stored.browser in item.inner_text()

    from tests.service.gameplay import start_game

    game = start_game(alice, bob)
    row = Notification.objects.get(recipient=bob, kind=Notification.Kind.GAME_STARTED)
    assert delivery.deliver(row.pk) == delivery.Outcome.SENT
    assert browser.decrypt(push_service.received[0])["title"] == f"Your move in Zark City #{game.pk} against alice"

    with page.expect_navigation():
        page.locator("[data-push=off]").click()
    for _ in range(50):
        if not PushSubscription.objects.exists():
            break
        time.sleep(0.1)
    assert not PushSubscription.objects.exists()
    assert page.locator("[data-push=none]").is_visible() and not page.js_errors

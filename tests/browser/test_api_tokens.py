"""The API as a person meets it: a token made on the settings page, used, revoked; the interactive docs
at /api/docs render under the site's content security policy."""

from __future__ import annotations

import pytest

from tests.browser.helpers import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_token_made_on_the_settings_page_works_once_shown_and_stops_when_revoked(
    open_as, players, live_server, artifacts
):
    alice, _ = players
    page = open_as(alice)
    page.goto(f"{live_server.url}/settings/")
    page.get_by_role("link", name="API tokens").click()
    page.get_by_label("Name").fill("my bot")
    page.get_by_role("button", name="Create token").click()

    shown = page.locator("#new-token-title + p + p code")
    secret = shown.inner_text().strip()
    assert len(secret) > 30
    screenshot(page, artifacts / "api-token-shown.png")

    auth = {"Authorization": f"Bearer {secret}"}
    answer = page.request.get(f"{live_server.url}/api/games", headers=auth)
    assert answer.status == 200, answer.text()
    assert "games" in answer.json()

    page.goto(f"{live_server.url}/settings/tokens/")
    assert secret not in page.content()  # shown only once
    page.get_by_role("button", name="Revoke").click()
    assert "No tokens yet." in page.content()

    refused = page.request.get(f"{live_server.url}/api/games", headers=auth)
    assert refused.status == 401
    assert refused.json()["code"] == "invalid_token"
    assert page.js_errors == []


def test_the_interactive_docs_render_every_operation_under_the_content_security_policy(
    open_as, live_server, artifacts, transactional_db
):
    page = open_as(None)
    blocked = []

    def note_csp(message):
        if "Content Security Policy" in message.text:
            blocked.append(message.text)

    page.on("console", note_csp)
    page.goto(f"{live_server.url}/api/docs")
    page.locator(".opblock").first.wait_for()
    operations = page.locator(".opblock").count()
    assert operations >= 15
    assert page.get_by_text("/api/events").count() >= 1
    screenshot(page, artifacts / "api-docs.png")
    assert blocked == []
    assert page.js_errors == []

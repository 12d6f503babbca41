"""Headers: a Content-Security-Policy with no inline script on every page, and `private, no-store`
on every page and JSON that can show a hand."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import get_resolver

from games import urls_play
from tests.conftest import make_user
from tests.service.gameplay import play_plies, start_game
from tests.urlwalk import fill, routes
from zarkcity_site.middleware import HAND_VIEWS

ROOT = Path(__file__).resolve().parents[2]
INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc=)(?![^>]*application/(ld\+)?json)[^>]*>", re.I)
HANDLER_ATTRIBUTE = re.compile(r"<[^>]*\son[a-z]+\s*=", re.I)


@pytest.fixture
def game(alice, bob):
    return start_game(alice, bob)


def policy(response) -> dict[str, str]:
    return dict(part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";") if part.strip())


@pytest.mark.parametrize("url", ["/", "/accounts/login/", "/accounts/signup/", "/archive/", "/admin/login/", "/health"])
def test_every_page_carries_the_policy(client, db, url):
    response = client.get(url)
    assert policy(response)["script-src"] == "'self'"
    assert policy(response)["object-src"] == "'none'"


def test_the_game_page_carries_the_policy_too(client, game, alice):
    client.force_login(alice)
    assert policy(client.get(f"/games/{game.pk}/"))["default-src"] == "'self'"


@pytest.mark.parametrize("path", sorted((ROOT / "templates").rglob("*.html")), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_template_has_inline_script_or_handlers(path):
    """The policy forbids them: they would silently stop working in the browser."""
    text = path.read_text()
    assert not INLINE_SCRIPT.search(text)
    assert not HANDLER_ATTRIBUTE.search(text)


def test_every_url_of_the_game_page_is_kept_out_of_caches():
    """A new JSON endpoint beside the game page must be added to HAND_VIEWS (or this fails)."""
    assert {p.name for p in urls_play.urlpatterns} <= HAND_VIEWS
    named = set(get_resolver().reverse_dict.keys())
    assert {name for name in HAND_VIEWS if ":" not in name} <= named


def test_the_game_page_and_its_json_are_private_no_store(client, game, alice):
    client.force_login(alice)
    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/ply.json", f"/games/{game.pk}/board.svg"):
        assert client.get(url)["Cache-Control"] == "private, no-store", url


def test_a_replay_is_private_no_store(client, game, alice):
    client.force_login(alice)
    response = client.get(f"/games/{game.pk}/replay/0/")
    assert response["Cache-Control"] == "private, no-store"


def test_a_play_link_landing_is_private_no_store(client, db):
    response = client.get("/play/not-a-valid-token/")
    assert response["Cache-Control"] == "private, no-store"


def test_pages_without_a_hand_may_be_cached_as_usual(client, db):
    assert "no-store" not in client.get("/archive/").get("Cache-Control", "")


def private_words(game, colour: str) -> set[str]:
    """What the log tells only this seat: its own version of a move where it differs ("you drew 1 card: 10D")."""
    return {
        text
        for move in game.moves.all()
        if (text := move.descriptions.get(colour)) and text != move.descriptions.get("*")
    }


def test_every_game_url_that_shows_a_players_own_words_is_private_no_store(client, alice, bob):
    """Walks every route of one game (tests/urlwalk.py): whatever shows a seat's private words to it
    (its draws, its hand) carries no-store, like the page. The log of a game in progress does."""
    game = play_plies(start_game(alice, bob), 12)
    assert game.status == game.Status.ACTIVE
    shown_privately = set()
    for user in (alice, bob):
        colour = game.seats.get(user=user).colour
        secrets = private_words(game, colour)
        assert secrets, "the scripted game gives each seat a draw of its own"
        client.force_login(user)
        for route, name in routes():
            path = fill(route, {"game_id": game.pk, "ply": game.ply})
            if path is None or "game_id" not in route or route.startswith("api/"):
                continue  # the API answers every request no-store (tests/api)
            response = client.get(path)
            body = response.content.decode(errors="replace")
            if response.status_code == 200 and any(secret in body for secret in secrets):
                shown_privately.add(name)
                assert response.get("Cache-Control") == "private, no-store", path
    assert "game_log" in shown_privately


def test_the_development_mailbox_is_private_no_store(client, db, settings):
    """It shows every player's emails, hands included."""
    settings.DEBUG = True
    staff = make_user("staff")
    staff.is_staff = True
    staff.save()
    client.force_login(staff)
    response = client.get("/dev/mail/")
    assert response.status_code == 200 and response["Cache-Control"] == "private, no-store"

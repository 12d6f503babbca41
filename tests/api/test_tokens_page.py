"""The settings page for tokens: made with a name and scopes, the secret shown once and stored hashed,
listed without it, revoked; a session from an email's play link may not make one."""

from __future__ import annotations

import pytest

from api.models import AccessToken
from api.tokens import MAX_ACTIVE_TOKENS, digest_of, token_create
from notifications import tokens as play_links
from tests.api.conftest import ApiClient
from tests.service.gameplay import start_game

pytestmark = pytest.mark.django_db
PAGE = "/settings/tokens/"


def test_the_settings_page_links_to_the_tokens(client, alice):
    client.force_login(alice)
    assert PAGE in client.get("/settings/").text


def test_a_new_token_is_shown_once_and_works(client, alice):
    client.force_login(alice)
    response = client.post(PAGE, {"name": "my bot", "scopes": ["read", "play"]})
    assert response.status_code == 200 and "shown only this once" in response.text
    assert "no-store" in response["Cache-Control"]
    token = AccessToken.objects.get(user=alice)
    secret = next(word for word in response.text.replace("<", " ").replace(">", " ").split() if word.startswith("zc_"))
    assert digest_of(secret) == token.digest and token.scope_list == ["read", "play"]
    assert ApiClient(secret).get("/games").status_code == 200
    listed = client.get(PAGE).text
    assert "my bot" in listed and token.prefix in listed and secret not in listed


def test_scopes_are_chosen(client, alice):
    client.force_login(alice)
    client.post(PAGE, {"name": "reader", "scopes": ["read"]})
    assert AccessToken.objects.get(user=alice).scope_list == ["read"]


@pytest.mark.parametrize(
    ("data", "said"),
    [({"name": "", "scopes": ["read"]}, "Give the token a name"), ({"name": "x"}, "at least one scope")],
)
def test_a_token_needs_a_name_and_a_scope(client, alice, data, said):
    client.force_login(alice)
    response = client.post(PAGE, data)
    assert response.status_code == 200 and said in response.text
    assert not AccessToken.objects.exists()


def test_tokens_are_limited_in_number(client, alice):
    for n in range(MAX_ACTIVE_TOKENS):
        token_create(user=alice, name=f"t{n}", scopes=["read"])
    client.force_login(alice)
    response = client.post(PAGE, {"name": "one more", "scopes": ["read"]})
    assert "revoke one you no longer use" in response.text
    assert AccessToken.objects.count() == MAX_ACTIVE_TOKENS


def test_revoking_stops_the_token(client, alice):
    token, secret = token_create(user=alice, name="old", scopes=["read"])
    client.force_login(alice)
    response = client.post(f"/settings/tokens/{token.pk}/revoke/", follow=True)
    assert "revoked" in response.text and "old" not in response.text.split("Your tokens")[1]
    assert ApiClient(secret).get("/games").status_code == 401


def test_nobody_revokes_another_players_token(client, alice, bob):
    token, secret = token_create(user=alice, name="mine", scopes=["read"])
    client.force_login(bob)
    client.post(f"/settings/tokens/{token.pk}/revoke/")
    token.refresh_from_db()
    assert token.revoked_at is None and ApiClient(secret).get("/games").status_code == 200


def test_another_players_tokens_are_not_listed(client, alice, bob):
    token_create(user=alice, name="alices bot", scopes=["read"])
    client.force_login(bob)
    assert "alices bot" not in client.get(PAGE).text


def test_the_page_needs_a_login(client, db):
    response = client.get(PAGE)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_a_session_from_a_play_link_must_log_in_with_the_password(client, alice, bob):
    game = start_game(alice, bob)
    client.post(f"/play/{play_links.play_token(user=bob, game_id=game.pk)}/")
    response = client.post(PAGE, {"name": "stolen", "scopes": ["read", "play"]})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert not AccessToken.objects.exists()


def test_the_page_links_the_guide_and_the_interactive_docs_and_both_open(client, alice):
    client.force_login(alice)
    page = client.get(PAGE).text
    assert 'href="/docs/api.md"' in page and 'href="/api/docs"' in page
    assert "<code>docs/api.md</code>" not in page  # a path to find in the repository is no link
    guide = client.get("/docs/api.md")
    assert guide.status_code == 200 and guide["Content-Type"] == "text/plain; charset=utf-8"
    assert guide.text.startswith("# The JSON API") and "Authorization: Bearer" in guide.text
    assert client.get("/api/docs").status_code == 200

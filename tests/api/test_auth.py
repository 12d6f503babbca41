"""Tokens at the door: missing, wrong, revoked, the wrong scope, a session cookie instead of a token,
the per-token rate limit, and no CSRF token needed."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from api.models import AccessToken
from api.tokens import digest_of, token_revoke
from tests.api.conftest import ApiClient, secret_for

pytestmark = pytest.mark.django_db


def error_of(response) -> tuple[int, str]:
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) >= {"code", "message"} and body["message"]
    return response.status_code, body["code"]


def test_no_token_is_401_with_a_bearer_challenge(db):
    response = ApiClient(None).get("/games")
    assert error_of(response) == (401, "invalid_token")
    assert response["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize("secret", ["zc_not-a-real-token", "not even the prefix", ""])
def test_a_wrong_token_is_401(alice, secret):
    secret_for(alice)
    response = ApiClient(secret).get("/games")
    assert error_of(response) == (401, "invalid_token") and response["WWW-Authenticate"].startswith("Bearer")


def test_another_scheme_is_401(alice):
    client = ApiClient(None)
    client.headers = {"Authorization": f"Token {secret_for(alice)}"}
    assert error_of(client.get("/games")) == (401, "invalid_token")


def test_a_revoked_token_is_401_at_once(alice):
    secret = secret_for(alice)
    client = ApiClient(secret)
    assert client.get("/games").status_code == 200
    token_revoke(user=alice, token_id=AccessToken.objects.get(digest=digest_of(secret)).pk)
    assert error_of(client.get("/games")) == (401, "invalid_token")


def test_a_deactivated_users_token_is_401(alice):
    client = ApiClient(secret_for(alice))
    alice.is_active = False
    alice.save()
    assert error_of(client.get("/games")) == (401, "invalid_token")


def test_a_read_token_cannot_play(alice, game):
    client = ApiClient(secret_for(alice, ("read",)))
    assert client.get(f"/games/{game.pk}").status_code == 200
    response = client.post(f"/games/{game.pk}/resign")
    assert error_of(response) == (403, "forbidden_scope")
    game.refresh_from_db()
    assert game.status == "active" and game.ply == 0


def test_a_play_only_token_cannot_read(alice, game):
    client = ApiClient(secret_for(alice, ("play",)))
    assert error_of(client.get(f"/games/{game.pk}")) == (403, "forbidden_scope")
    assert error_of(client.get("/events")) == (403, "forbidden_scope")


def test_a_browser_session_is_not_a_token(client, alice, game):
    """The API ignores the session cookie: a page elsewhere cannot use a logged-in browser against it."""
    client.force_login(alice)
    assert error_of(client.get("/api/games")) == (401, "invalid_token")
    assert error_of(client.post(f"/api/games/{game.pk}/resign")) == (401, "invalid_token")


def test_token_requests_need_no_csrf_token(alice, game):
    strict = Client(enforce_csrf_checks=True)
    response = ApiClient(secret_for(alice), strict).post(f"/games/{game.pk}/draw", {"action": "propose"})
    assert response.status_code == 200 and response.json()["status"] == "open"


def test_a_request_marks_the_token_used(alice):
    secret = secret_for(alice)
    ApiClient(secret).get("/games")
    token = AccessToken.objects.get(digest=digest_of(secret))
    assert token.last_used_at is not None and token.last_used_at <= timezone.now()


def test_only_the_hash_is_stored(alice):
    secret = secret_for(alice)
    token = AccessToken.objects.get()
    assert token.digest == digest_of(secret) and secret not in str(token.__dict__)
    assert secret.startswith(token.prefix) and len(secret) > 40


def test_the_rate_limit_is_per_token_with_retry_after(settings, alice, bob):
    settings.RATE_LIMITS = {"api": "3/m"}
    first, second = ApiClient(secret_for(alice)), ApiClient(secret_for(alice, name="other"))
    assert [first.get("/games").status_code for _ in range(3)] == [200, 200, 200]
    limited = first.get("/games")
    assert error_of(limited) == (429, "rate_limited")
    assert 1 <= int(limited["Retry-After"]) <= 60
    assert second.get("/games").status_code == 200  # another token has its own count
    assert ApiClient(secret_for(bob)).get("/games").status_code == 200


def test_a_wrong_token_does_not_count_against_the_limit(settings, alice):
    settings.RATE_LIMITS = {"api": "2/m"}
    secret = secret_for(alice)
    for _ in range(5):
        ApiClient(secret + "x").get("/games")
    assert ApiClient(secret).get("/games").status_code == 200


def test_answers_are_never_cached(alice, game):
    client = ApiClient(secret_for(alice))
    assert client.get(f"/games/{game.pk}")["Cache-Control"] == "private, no-store"
    assert client.get("/games/999999")["Cache-Control"] == "private, no-store"

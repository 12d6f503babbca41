"""Fixtures for the API tests: tokens for the named users, and a client that sends one.

`api(token)` is a Django test client whose every request carries `Authorization: Bearer <token>`
and JSON bodies; `answer.json()` reads the reply.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client

from api.tokens import token_create
from tests.service.gameplay import start_game

BOTH = ("read", "play")


class ApiClient:
    def __init__(self, secret: str | None, client: Client | None = None) -> None:
        self.client = client or Client()
        self.headers = {"Authorization": f"Bearer {secret}"} if secret else {}

    def get(self, path: str, **params):
        return self.client.get(f"/api{path}", params, headers=self.headers)

    def post(self, path: str, body: dict | None = None):
        data = json.dumps(body or {})
        return self.client.post(f"/api{path}", data, content_type="application/json", headers=self.headers)


def secret_for(user, scopes=BOTH, name: str = "test") -> str:
    return token_create(user=user, name=name, scopes=scopes)[1]


@pytest.fixture
def api_as():
    """api_as(user) or api_as(user, scopes=("read",)): a client with a fresh token of that user."""

    def make(user, scopes=BOTH) -> ApiClient:
        return ApiClient(secret_for(user, scopes))

    return make


@pytest.fixture
def game(alice, bob):
    """Zark City, alice red and bob yellow, both choosing a starter (ply 0)."""
    return start_game(alice, bob)

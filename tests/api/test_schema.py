"""The OpenAPI schema is valid and lists every endpoint with its scope; the docs page is served from
our own static files; unknown addresses and wrong methods answer in JSON too."""

from __future__ import annotations

import json

import pytest
from openapi_spec_validator import validate

from api.errors import STATUSES
from tests.service.gameplay import start_game

pytestmark = pytest.mark.django_db

ENDPOINTS = {
    ("get", "/api/games"),
    ("post", "/api/games"),
    ("get", "/api/games/open"),
    ("get", "/api/game-types"),
    ("get", "/api/games/{game_id}"),
    ("post", "/api/games/{game_id}/join"),
    ("get", "/api/games/{game_id}/moves"),
    ("post", "/api/games/{game_id}/moves"),
    ("post", "/api/games/{game_id}/resign"),
    ("post", "/api/games/{game_id}/draw"),
    ("post", "/api/games/{game_id}/chat"),
    ("get", "/api/games/{game_id}/record"),
    ("get", "/api/games/{game_id}/events"),
    ("get", "/api/invitations"),
    ("post", "/api/invitations/{invitation_id}/accept"),
    ("post", "/api/invitations/{invitation_id}/decline"),
    ("get", "/api/archive"),
    ("get", "/api/events"),
}


@pytest.fixture
def schema(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    return response.json()


def test_the_schema_is_valid_openapi(schema):
    validate(schema)


def test_the_schema_lists_every_endpoint_behind_a_bearer_token(schema):
    found = {(method, path) for path, item in schema["paths"].items() for method in item}
    assert found == ENDPOINTS
    assert {scheme["scheme"] for scheme in schema["components"]["securitySchemes"].values()} == {"bearer"}
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            scope = "read" if method == "get" else "play"
            assert operation["security"], (method, path)
            assert f"(needs the {scope} scope)" in " ".join(operation["description"].split()), (method, path)


def test_every_documented_error_code_has_a_status():
    assert STATUSES["stale_ply"] == 409 and STATUSES["illegal_move"] == 400 and STATUSES["rate_limited"] == 429


def test_the_docs_page_loads_its_scripts_from_our_static_files(client):
    response = client.get("/api/docs")
    assert response.status_code == 200
    html = response.content.decode()
    assert "/static/ninja/swagger-ui-bundle.js" in html and "cdn" not in html.lower()


def test_an_unknown_address_is_a_json_404(client, api_as, alice):
    for response in (client.get("/api/nothing/here"), client.get("/api/"), api_as(alice).get("/games/1/nothing")):
        assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_a_wrong_method_is_a_json_405(api_as, alice):
    response = api_as(alice).client.delete("/api/games", headers=api_as(alice).headers)
    assert response.status_code == 405 and response.json()["code"] == "method_not_allowed"
    assert set(response["Allow"].replace(" ", "").split(",")) == {"GET", "POST"}


def test_a_body_over_the_upload_limit_is_413_in_the_apis_shape(api_as, alice, bob, settings):
    game = start_game(alice, bob)
    body = json.dumps({"text": "x" * (5 * 1024 * 1024)})
    api = api_as(alice)
    answer = api.client.post(f"/api/games/{game.pk}/chat", body, content_type="application/json", headers=api.headers)
    assert answer.status_code == 413, answer.content
    refusal = answer.json()
    assert refusal["code"] == "too_large" and f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,}" in refusal["message"]
    assert answer["Cache-Control"] == "private, no-store"

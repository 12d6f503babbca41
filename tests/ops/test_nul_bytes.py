"""A NUL character (%00 in an address, \\u0000 in JSON) in any path, query, cookie, form field or JSON
string is refused with a 400 that says so, before a view or the session reads it: on PostgreSQL it
used to reach a text column and answer 500 (CI runs this file there too). Walks every URL route
(tests/urlwalk.py), so a new one is covered the day it is added."""

from __future__ import annotations

import json

import pytest

from games.models import ChatMessage
from tests.api.conftest import ApiClient, secret_for
from tests.service.gameplay import start_game
from tests.urlwalk import CONVERTER, routes

pytestmark = pytest.mark.django_db
NUL_TEXT = "a\x00b"


def every_path(value: str) -> list[str]:
    """Each route with every converter set to `value` (percent-encoded by the test client)."""
    paths = []
    for route, _ in routes():
        if "^" in route or "(?P" in route:
            route = route.replace("^", "").replace("$", "").split("(", 1)[0] + "x/"  # the regex's fixed start
        filled = CONVERTER.sub(value, route)
        paths.append("/" + (filled if filled != route or value.isdigit() else route + value))
    return sorted(set(paths))


def refused(response, api: bool) -> bool:
    if response.status_code != 400:
        return False
    if api:
        return response.json()["code"] == "invalid_request" and "NUL" in response.json()["message"]
    return "NUL character" in response.content.decode()


@pytest.fixture
def signed_in(client, alice, bob):
    start_game(alice, bob)
    client.force_login(alice)
    return client


@pytest.mark.parametrize("path", ["/players/%00/", "/feeds/%00/my-turn.atom", "/games/1/log.txt?x=%00"])
def test_the_addresses_that_answered_500_are_refused(signed_in, path):
    assert refused(signed_in.get(path), api=False)


def test_every_route_with_a_nul_in_its_path_is_refused(signed_in):
    for path in every_path("a%00b"):
        assert refused(signed_in.get(path), api=path.startswith("/api/")), path


def test_every_route_with_a_nul_in_its_query_is_refused(signed_in):
    for path in every_path("1"):
        assert refused(signed_in.get(path, {"q": NUL_TEXT}), api=path.startswith("/api/")), path


def test_every_form_post_with_a_nul_in_a_field_is_refused(signed_in):
    for path in every_path("1"):
        if path.startswith("/email/inbound/"):
            continue  # a provider's webhook: the replies app stores and answers the message
        answer = signed_in.post(path, {"text": NUL_TEXT, "move": "draw", "ply": "0", "name": NUL_TEXT})
        assert refused(answer, api=path.startswith("/api/")), path


def test_a_nul_in_a_cookie_is_refused(client, db):
    client.cookies["sessionid"] = "abcdefgh\x00"
    assert refused(client.get("/"), api=False)


def test_every_api_post_with_a_nul_in_a_json_string_is_refused(alice, bob):
    game = start_game(alice, bob)
    api = ApiClient(secret_for(alice))
    bodies = [{"text": NUL_TEXT}, {"move": NUL_TEXT, "ply": 0}, {"game": "zarkcity", "options": {"deck": NUL_TEXT}}]
    for path, _ in routes():
        if not path.startswith("api/") or "<" in path.replace("<game_id>", ""):
            continue
        for body in bodies:
            answer = api.post(path.removeprefix("api").replace("<game_id>", str(game.pk)), body)
            assert refused(answer, api=True), (path, body, answer.content)
    assert not ChatMessage.objects.exists() and game.moves.count() == 0


def test_the_chat_of_the_issue_is_refused_and_a_plain_one_is_not(alice, bob):
    game = start_game(alice, bob)
    api = ApiClient(secret_for(alice))
    assert refused(api.post(f"/games/{game.pk}/chat", {"text": "a\u0000b"}), api=True)
    assert api.post(f"/games/{game.pk}/chat", {"text": "a \\u0000 is six characters"}).status_code == 201


def test_a_raw_zero_byte_in_a_json_body_is_refused(alice, bob):
    game = start_game(alice, bob)
    api = ApiClient(secret_for(alice))
    answer = api.client.post(
        f"/api/games/{game.pk}/chat", b'{"text": "a\x00b"}', content_type="application/json", headers=api.headers
    )
    assert refused(answer, api=True)


def test_json_without_a_nul_is_read_as_before(alice, bob):
    game = start_game(alice, bob)
    api = ApiClient(secret_for(alice))
    assert api.post(f"/games/{game.pk}/chat", {"text": json.dumps({"nested": ["fine"]})}).status_code == 201

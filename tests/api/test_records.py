"""The archive through the API (the archive page's search) and a game's record (the seed once it is over)."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game
from tests.service.gameplay import play_plies, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(alice, bob):
    game = play_plies(start_game(alice, bob), 8)
    services.player_resign(game=game, user=bob)
    return Game.objects.get(pk=game.pk)


def test_the_archive_lists_finished_games(api_as, finished, charlie):
    answer = api_as(charlie).get("/archive").json()
    assert (answer["count"], answer["page"], answer["pages"], answer["capped"]) == (1, 1, 1, False)
    row = answer["games"][0]
    assert row["id"] == finished.pk and row["game"] == "zarkcity" and row["winners"] == ["red"]
    assert row["reason"] == "resignation" and row["plies"] == 9
    assert [(p["username"], p["outcome"], p["resigned"]) for p in row["players"]] == [
        ("alice", "won", False),
        ("bob", "lost", True),
    ]


def test_the_archive_filters_like_the_page(api_as, finished, charlie):
    client = api_as(charlie)
    assert client.get("/archive", player="bob").json()["count"] == 1
    assert client.get("/archive", player="charlie").json()["count"] == 0
    assert client.get("/archive", game="martianchess").json()["count"] == 0
    assert client.get("/archive", deck="standard").json()["count"] == 1
    assert client.get("/archive", deck="arcade").json()["count"] == 0


def test_a_bad_archive_filter_is_named(api_as, finished, charlie):
    response = api_as(charlie).get("/archive", min_plies=10, max_plies=5)
    assert response.status_code == 400 and response.json()["code"] == "invalid_request"
    assert "max_plies" in response.json()["message"]
    assert api_as(charlie).get("/archive", since="yesterday").json()["code"] == "invalid_request"


def test_a_private_game_is_listed_to_its_players_only(api_as, alice, bob, charlie):
    game = start_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(is_private=True)
    services.player_resign(game=game, user=bob)
    assert api_as(charlie).get("/archive").json()["count"] == 0
    assert api_as(alice).get("/archive").json()["count"] == 1


def test_a_finished_games_record_carries_the_seed(api_as, finished, charlie):
    record = api_as(charlie).get(f"/games/{finished.pk}/record").json()
    assert record["seed"] == finished.seed and len(record["moves"]) == 9
    assert record["result"]["winner"] == "red"


def test_a_game_in_progress_has_a_record_without_the_seed(api_as, alice, bob):
    game = play_plies(start_game(alice, bob), 3)
    record = api_as(alice).get(f"/games/{game.pk}/record").json()
    assert "seed" not in record and record["seed_commitment"] == game.seed_commitment
    assert len(record["moves"]) == 3


def test_a_waiting_game_has_no_record(api_as, alice):
    game = services.game_create(
        creator=alice, game="zarkcity", seats=2, options={}, time_limit_days=3, is_private=False
    )
    response = api_as(alice).get(f"/games/{game.pk}/record")
    assert response.status_code == 409 and response.json()["code"] == "not_started"

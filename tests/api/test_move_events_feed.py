"""GET /api/games/{id}/events: each move's events as the caller's seat may read them, from `since` on.

A seat reads the cards it drew; the others, and spectators, read how many; once the game is over
everything is revealed. The hidden-card sweep over every answer is in test_games_read.py.
"""

from __future__ import annotations

import pytest

from games import services
from games.models import Game
from tests.conftest import make_user
from tests.service.gameplay import play_plies, start_game, user_of
from tests.service.test_hidden_information import cards_in

pytestmark = pytest.mark.django_db


def feed(client, game: Game, **params) -> dict:
    answer = client.get(f"/games/{game.pk}/events", **params)
    assert answer.status_code == 200, answer.content
    return answer.json()


def draws_of(answer: dict) -> list[dict]:
    return [event for move in answer["moves"] for event in move["events"] if event["kind"] == "draw"]


@pytest.fixture
def midgame(alice, bob):
    """Zark City between alice (red) and bob (yellow), a dozen moves in: starters placed, turns drawn."""
    return play_plies(start_game(alice, bob), 12)


def test_the_feed_lists_every_move_with_its_events(api_as, midgame, alice):
    answer = feed(api_as(alice), midgame)
    assert (answer["game"], answer["next"], answer["revealed"]) == (midgame.pk, midgame.ply, False)
    assert [move["ply"] for move in answer["moves"]] == list(range(midgame.ply))
    assert {move["colour"] for move in answer["moves"]} == {"red", "yellow"}
    for move in answer["moves"]:
        assert move["events"], f"ply {move['ply']} said nothing"
        for event in move["events"]:
            assert set(event) == {"kind", "text", "seat", "data", "dice"}
            assert event["dice"] == []  # Zark City throws no dice
    kinds = {event["kind"] for move in answer["moves"] for event in move["events"]}
    assert {"choose", "reveal", "place", "turn", "draw"} <= kinds


def test_a_draw_names_its_cards_to_the_drawer_only(api_as, midgame, alice, bob):
    outsider = make_user("outsider")
    read = {who: draws_of(feed(api_as(user), midgame)) for who, user in (("red", alice), ("yellow", bob))}
    spectator = draws_of(feed(api_as(outsider), midgame))
    assert len(read["red"]) == len(read["yellow"]) == len(spectator) > 0
    for mine, theirs, public in zip(read["red"], read["yellow"], spectator, strict=True):
        drawer = mine["seat"]
        own, other = (mine, theirs) if drawer == "red" else (theirs, mine)
        assert own["data"]["cards"] and len(own["data"]["cards"]) == own["data"]["count"]
        assert set(own["data"]["cards"]) <= cards_in(own["text"])
        assert (
            other
            == public
            == {
                "kind": "draw",
                "text": other["text"],
                "seat": drawer,
                "data": {"count": own["data"]["count"]},
                "dice": [],
            }
        )
        assert not cards_in(other["text"])


def test_since_gives_only_the_moves_from_that_ply(api_as, midgame, alice):
    client = api_as(alice)
    later = feed(client, midgame, since=5)
    assert [move["ply"] for move in later["moves"]] == list(range(5, midgame.ply))
    assert later["moves"] == feed(client, midgame)["moves"][5:]
    assert feed(client, midgame, since=later["next"])["moves"] == []
    refused = client.get(f"/games/{midgame.pk}/events", since=-1)
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_request"


def test_a_finished_game_reveals_every_draw_to_everyone(api_as, midgame, alice, bob):
    services.player_resign(game=midgame, user=user_of(midgame, "yellow"))
    midgame.refresh_from_db()
    spectator = feed(api_as(make_user("outsider")), midgame)
    assert spectator["revealed"]
    assert all(event["data"].get("cards") for event in draws_of(spectator) if event["data"]["count"])
    assert spectator["moves"][-1]["events"][0] == {
        "kind": "resign",
        "text": "yellow resigned",
        "seat": "yellow",
        "data": {},
        "dice": [],
    }
    assert spectator == feed(api_as(alice), midgame) == feed(api_as(bob), midgame)


def test_a_private_game_is_nobody_elses(api_as, alice, bob):
    game = play_plies(start_game(alice, bob), 2)  # both starters chosen: the sealed step's two plies
    Game.objects.filter(pk=game.pk).update(is_private=True)
    assert api_as(make_user("outsider")).get(f"/games/{game.pk}/events").status_code == 404
    assert sorted(move["colour"] for move in feed(api_as(bob), game)["moves"]) == ["red", "yellow"]


@pytest.mark.parametrize(("name", "kind"), [("buyersmarket", "roll"), ("martianchess", "move")])
def test_every_game_speaks_through_the_same_feed(api_as, alice, bob, name, kind):
    game = start_game(alice, bob, game=name)
    for _ in range(6):  # the first legal move each time: any will do
        game.refresh_from_db()
        colour = game.to_move.split(",")[0]
        move = game.rules.legal_moves(services.state_of(game), colour)[0]
        services.move_submit(game=game, user=user_of(game, colour), text=str(move), seen_ply=game.ply)
    game.refresh_from_db()
    answer = feed(api_as(make_user("outsider")), game)
    assert len(answer["moves"]) == game.ply > 0
    assert kind in {event["kind"] for move in answer["moves"] for event in move["events"]}

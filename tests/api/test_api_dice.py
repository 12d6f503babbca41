"""Each throw in the JSON API, as the history and the emails show it: a move's `dice` in the game's
history and in the event feed, an event's `dice` in a game's events, the setup's on the `opening` line.
Only dice already thrown: every throw the API gives is one a move (or the setup) stored, in order."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.conftest import make_user
from tests.service.test_throw_faces import DICE_GAMES, play, start

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_settling(settings):
    settings.API_EVENTS_SETTLE_SECONDS = 0


def stored(game: Game) -> dict[int, list]:
    """Each move's throws as the service stored them (Move.dice), by ply."""
    return dict(game.moves.values_list("ply", "dice"))


@pytest.mark.parametrize("game_id", DICE_GAMES)
def test_the_history_gives_each_moves_throws_and_the_opening_throw(api_as, alice, bob, game_id):
    game = play(start(game_id, alice, bob), 8)
    throws = stored(game)
    assert any(throws.values()), f"no throw in {game_id}'s first moves"
    for who in (alice, make_user("outsider")):  # a player and a spectator read the same dice
        history = api_as(who).get(f"/games/{game.pk}", history="all").json()["history"]
        moves = [item for item in history if item["kind"] == "move"]
        assert {item["ply"]: item["dice"] for item in moves} == throws  # each move's, nothing to come
        opening = [item["dice"] for item in history if item["kind"] == "opening"]
        assert opening == ([game.opening_dice] if game.opening_dice else [])
        assert all(item["dice"] == [] for item in history if item["kind"] not in ("move", "opening"))
    die = next(die for dice in throws.values() for throw in dice for die in throw["dice"])
    assert set(die) == {"face", "title", "colour"}


@pytest.mark.parametrize("game_id", DICE_GAMES)
def test_a_games_events_carry_the_dice_each_event_threw(api_as, alice, bob, game_id):
    game = play(start(game_id, alice, bob), 8)
    throws = stored(game)
    answer = api_as(bob).get(f"/games/{game.pk}/events").json()
    given = {
        move["ply"]: [{"seat": e["seat"], "dice": e["dice"]} for e in move["events"] if e["dice"]]
        for move in answer["moves"]
    }
    assert given == throws  # the events' dice are the dice each move stored


@pytest.mark.parametrize("game_id", DICE_GAMES)
def test_the_event_feed_gives_a_moves_throws(api_as, alice, bob, game_id):
    client = api_as(alice)
    cursor = client.get("/events").json()["cursor"]
    game = play(start(game_id, alice, bob), 8)
    events = client.get("/events", after=cursor).json()["events"]
    moves = [event for event in events if event["type"] == "move"]
    assert {event["ply"]: event["dice"] for event in moves} == stored(game)
    assert all(event["dice"] is None for event in events if event["type"] != "move")

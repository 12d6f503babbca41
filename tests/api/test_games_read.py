"""Reading: my games and whose turn, open games, the game types, one game as my seat sees it (exactly
the page's view: never another hand, the deck or the seed before the end), its legal moves."""

from __future__ import annotations

import json

import pytest

from games import selectors, services
from games.models import Game
from tests.api.conftest import ApiClient, secret_for
from tests.conftest import make_user
from tests.service.gameplay import mover, pick, play_plies, start_game, user_of
from tests.service.test_hidden_information import cards_in, secret_cards

pytestmark = pytest.mark.django_db


def new_game(creator, *, private=False, seats=2):
    return services.game_create(
        creator=creator, game="zarkcity", seats=seats, options={}, time_limit_days=3, is_private=private
    )


def test_my_games_say_whose_turn_it_is(api_as, alice, bob, charlie):
    game = play_plies(start_game(alice, bob), 2)  # both starters chosen: red places
    waiting = new_game(alice)
    answer = api_as(alice).get("/games").json()
    by_id = {entry["id"]: entry for entry in answer["games"]}
    assert list(by_id) == [game.pk, waiting.pk]  # my move first
    mine = by_id[game.pk]
    assert mine["your_turn"] and mine["to_move"] == ["red"] and mine["your_colour"] == "red"
    assert mine["ply"] == 2 and mine["status"] == "active" and mine["name"] == f"Zark City #{game.pk}"
    assert [seat["username"] for seat in mine["seats"]] == ["alice", "bob"]
    assert by_id[waiting.pk]["status"] == "open" and not by_id[waiting.pk]["your_turn"]
    assert not api_as(bob).get("/games").json()["games"][0]["your_turn"]
    assert api_as(charlie).get("/games").json() == {"games": [], "invitations": []}


def test_my_games_filter_by_game(api_as, alice, bob):
    start_game(alice, bob)
    assert api_as(alice).get("/games", game="martianchess").json()["games"] == []
    assert len(api_as(alice).get("/games", game="zarkcity").json()["games"]) == 1


def test_open_games_list_public_waiting_games_only(api_as, alice, bob):
    public, _private = new_game(alice), new_game(alice, private=True)
    start_game(alice, bob)
    assert [entry["id"] for entry in api_as(bob).get("/games/open").json()] == [public.pk]


def test_game_types_list_every_game_with_options_and_bots(api_as, alice):
    types = {entry["id"]: entry for entry in api_as(alice).get("/game-types").json()}
    assert {"zarkcity", "decktown", "martianchess", "buyersmarket"} <= set(types)
    zark = types["zarkcity"]
    assert zark["player_counts"] == [2, 3, 4, 5] and "random" in zark["bots"]
    deck = zark["options"][0]
    assert deck["name"] == "deck" and "arcade" in [choice["value"] for choice in deck["choices"]]


def test_a_player_sees_the_page_view_of_their_seat(api_as, alice, bob):
    game = play_plies(start_game(alice, bob), 4)
    answer = api_as(alice).get(f"/games/{game.pk}").json()
    page = selectors.game_for_viewer(game, alice)
    assert answer["view"] == json.loads(json.dumps(page.view))
    assert answer["hand"] == page.hand and answer["hand"]  # my own cards
    assert answer["status_line"] == page.status_line and answer["your_colour"] == "red"
    assert answer["seed"] is None and answer["seed_commitment"] == game.seed_commitment
    assert [s["colour"] for s in answer["seats"]] == ["red", "yellow"] and answer["seats"][0]["you"]
    assert [h["text"] for h in answer["history"]] == [h.text for h in page.history]
    assert answer["legal_moves"] == [m for g in page.legal for m in g.moves]
    assert answer["board_text"] == game.rules.board_text(page.view)


@pytest.mark.parametrize("plies", [1, 2, 30])
def test_no_answer_shows_a_hidden_card_or_the_seed(api_as, alice, bob, charlie, plies):
    """The checker of the pages' hidden-information test, on everything the API says about a game."""
    game = play_plies(start_game(alice, bob, charlie), plies)
    outsider = make_user("outsider")
    for user, colour in ((alice, "red"), (bob, "yellow"), (charlie, "green"), (outsider, None)):
        client = api_as(user)
        bodies = [
            client.get(f"/games/{game.pk}", history="all").content.decode(),
            client.get(f"/games/{game.pk}/moves").content.decode(),
            client.get(f"/games/{game.pk}/record").content.decode(),
            client.get("/events", after="0-0-0").content.decode(),
            client.get(f"/games/{game.pk}/events").content.decode(),  # every move's events
        ]
        hidden = secret_cards(game, colour)
        assert hidden
        for body in bodies:
            assert not hidden & cards_in(body), f"{colour} sees {sorted(hidden & cards_in(body))}"
            assert game.seed not in body and '"hands"' not in body and '"deck": [' not in body


def test_a_sealed_starter_choice_is_in_nobodys_history_until_all_have_chosen(api_as, alice, bob):
    game = start_game(alice, bob)
    choice = pick(services.state_of(game), "red")
    services.move_submit(game=game, user=alice, text=choice, seen_ply=0)
    bob_sees = api_as(bob).get(f"/games/{game.pk}").json()
    assert bob_sees["history"] == [] and choice.split()[1] not in str(bob_sees)
    assert api_as(alice).get(f"/games/{game.pk}").json()["history"] == []


def test_a_spectator_sees_no_hand(api_as, alice, bob, charlie):
    game = play_plies(start_game(alice, bob), 4)
    answer = api_as(charlie).get(f"/games/{game.pk}").json()
    assert answer["hand"] == [] and answer["your_colour"] is None and not answer["your_turn"]
    assert answer["legal_moves"] == [] and answer["view"]["viewer"] is None


def test_a_finished_game_shows_the_seed_and_the_result(api_as, alice, bob):
    game = play_plies(start_game(alice, bob), 6)
    services.player_resign(game=game, user=bob)
    answer = api_as(alice).get(f"/games/{game.pk}").json()
    assert answer["seed"] == Game.objects.get(pk=game.pk).seed
    assert answer["result"] == {"winners": [{"colour": "red", "name": "alice"}], "reason": "resignation"}
    assert answer["status"] == "finished" and answer["winners"] == ["red"] and answer["clocks"] == []


def test_another_players_private_game_is_not_found(api_as, alice, bob, charlie):
    game = new_game(alice, private=True)
    private_started = start_game(alice, bob)
    private_started.is_private = True
    private_started.save()
    outsider = api_as(charlie)
    for path in (f"/games/{game.pk}", f"/games/{private_started.pk}", f"/games/{private_started.pk}/moves"):
        response = outsider.get(path)
        assert response.status_code == 404 and response.json()["code"] == "not_found", path
    assert outsider.get("/games/999999").json() == {"code": "not_found", "message": "No such game."}
    assert api_as(bob).get(f"/games/{private_started.pk}").status_code == 200


def test_an_invitee_sees_a_private_waiting_room(api_as, alice, bob):
    game = new_game(alice, private=True)
    services.invitation_create(game=game, invited_by=alice, username="bob")
    answer = api_as(bob).get(f"/games/{game.pk}").json()
    assert answer["status"] == "open" and answer["status_line"] == "Waiting for 1 more player."
    assert answer["view"] is None and answer["seats"][0]["username"] == "alice"


def test_legal_moves_are_the_pages_list(api_as, alice, bob):
    game = play_plies(start_game(alice, bob), 12)
    colour = mover(game)
    answer = api_as(user_of(game, colour)).get(f"/games/{game.pk}/moves").json()
    page = selectors.game_for_viewer(game, user_of(game, colour))
    assert answer["your_turn"] and answer["ply"] == game.ply
    assert answer["moves"] == [m for g in page.legal for m in g.moves] and "resign" not in answer["moves"]
    assert [g["kind"] for g in answer["groups"]] == [g.kind for g in page.legal]
    other = next(seat.user for seat in game.seats.all() if seat.colour != colour)
    assert api_as(other).get(f"/games/{game.pk}/moves").json() | {"groups": []} == {
        "game": game.pk,
        "ply": game.ply,
        "your_turn": False,
        "moves": [],
        "groups": [],
    }


def test_the_whole_history_on_request(api_as, alice, bob):
    game = play_plies(start_game(alice, bob), 70)
    client = api_as(alice)
    latest, whole = client.get(f"/games/{game.pk}").json(), client.get(f"/games/{game.pk}", history="all").json()
    assert latest["history_hidden"] == 10 and whole["history_hidden"] == 0
    assert len([h for h in whole["history"] if h["kind"] == "move"]) == 70


def test_a_bad_query_value_is_400(api_as, alice, bob):
    game = start_game(alice, bob)
    response = api_as(alice).get(f"/games/{game.pk}", history="some")
    assert response.status_code == 400 and response.json()["code"] == "invalid_request"
    assert "history" in response.json()["message"]


def test_a_token_reads_the_same_as_its_owner_does(alice, bob):
    game = play_plies(start_game(alice, bob), 3)
    a, b = ApiClient(secret_for(alice)), ApiClient(secret_for(alice, name="second"))
    assert a.get(f"/games/{game.pk}").json()["hand"] == b.get(f"/games/{game.pk}").json()["hand"]


def test_a_bot_seat_says_which_bot_plays_it(api_as, alice):
    created = api_as(alice).post("/games", {"game": "martianchess", "seats": 2, "bots": ["random"]})
    assert created.status_code == 201, created.json()
    seats = created.json()["seats"]
    assert [(s["colour"], s["bot"]) for s in seats] == [("red", ""), ("yellow", "random")]
    detail = api_as(alice).get(f"/games/{created.json()['id']}").json()
    assert [s["bot"] for s in detail["seats"]] == ["", "random"]

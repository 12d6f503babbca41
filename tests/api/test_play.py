"""Playing through the API: a move with the ply seen (stale 409, illegal 400 with the engine's reason,
not your turn, not a player, game over), the same move twice, resigning, draws and chat."""

from __future__ import annotations

import pytest

from engine.errors import IllegalMoveError
from games import services
from games.models import ChatMessage, Game, Move
from tests.service.gameplay import mover, pick, play_plies, start_game, user_of

pytestmark = pytest.mark.django_db


def refusal(response) -> tuple[int, str, str]:
    body = response.json()
    return response.status_code, body["code"], body["message"]


def to_play(game):
    """The mover's user, and the policy's move for them."""
    colour = mover(game)
    return user_of(game, colour), pick(services.state_of(game), colour)


def test_a_move_is_made_and_says_who_moves_next(api_as, game, alice, bob):
    choice = pick(services.state_of(game), "red")
    sealed = api_as(alice).post(f"/games/{game.pk}/moves", {"move": choice, "ply": 0})
    assert sealed.status_code == 200
    assert sealed.json() == {
        "game": game.pk,
        "ply": 0,
        "colour": "red",
        "move": choice,
        "game_ply": 0,  # a sealed choice: no move until yellow's is in
        "status": "active",
        "to_move": ["yellow"],
        "your_turn": False,
    }
    theirs = pick(services.state_of(game), "yellow")
    answer = api_as(bob).post(f"/games/{game.pk}/moves", {"move": theirs, "ply": 0}).json()
    assert (answer["ply"], answer["move"], answer["game_ply"]) == (1, theirs, 2)
    assert list(Move.objects.filter(game=game).values_list("notation", flat=True)) == [choice, theirs]


def test_a_stale_ply_is_409(api_as, alice, bob):
    game = play_plies(start_game(alice, bob), 4)
    user, move = to_play(game)
    status, code, message = refusal(api_as(user).post(f"/games/{game.pk}/moves", {"move": move, "ply": 3}))
    assert (status, code) == (409, "stale_ply") and "nothing was played" in message
    assert Game.objects.get(pk=game.pk).ply == 4


def test_a_stale_ply_is_told_in_the_requests_words_not_a_pages(api_as, alice, bob):
    game = play_plies(start_game(alice, bob), 4)
    user, move = to_play(game)
    _, _, message = refusal(api_as(user).post(f"/games/{game.pk}/moves", {"move": move, "ply": 3}))
    assert "page" not in message
    assert "answers ply 3" in message and "at ply 4" in message and f"/api/games/{game.pk}/moves" in message


def test_an_illegal_move_is_400_with_the_engines_reason(api_as, alice, bob):
    game = play_plies(start_game(alice, bob), 4)
    user, _ = to_play(game)
    status, code, message = refusal(
        api_as(user).post(f"/games/{game.pk}/moves", {"move": "move S 40,40 41,40", "ply": 4})
    )
    assert (status, code) == (400, "illegal_move")
    with pytest.raises(IllegalMoveError) as engine_says:
        game.rules.apply(services.state_of(game), game.rules.parse("move S 40,40 41,40"), mover(game))
    assert message == str(engine_says.value)


def test_an_unreadable_move_is_400(api_as, game, alice):
    status, code, message = refusal(api_as(alice).post(f"/games/{game.pk}/moves", {"move": "dance", "ply": 0}))
    assert (status, code) == (400, "illegal_move") and message.startswith("Cannot read that move")


def test_a_move_out_of_turn_is_409_not_your_turn(api_as, alice, bob):
    game = play_plies(start_game(alice, bob), 4)
    waiting = next(s.user for s in game.seats.all() if s.colour != mover(game))
    status, code, _ = refusal(api_as(waiting).post(f"/games/{game.pk}/moves", {"move": "draw", "ply": 4}))
    assert (status, code) == (409, "not_your_turn")


def test_someone_not_seated_is_403(api_as, game, charlie):
    status, code, _ = refusal(api_as(charlie).post(f"/games/{game.pk}/moves", {"move": "draw", "ply": 0}))
    assert (status, code) == (403, "not_a_player")
    assert refusal(api_as(charlie).post(f"/games/{game.pk}/resign"))[:2] == (403, "not_a_player")


def test_another_players_private_game_is_404_for_writes_too(api_as, game, charlie):
    Game.objects.filter(pk=game.pk).update(is_private=True)
    for path, body in ((f"/games/{game.pk}/moves", {"move": "draw", "ply": 0}), (f"/games/{game.pk}/resign", {})):
        assert refusal(api_as(charlie).post(path, body))[:2] == (404, "not_found")


def test_a_finished_game_is_409_game_over(api_as, game, alice, bob):
    services.player_resign(game=game, user=bob)
    status, code, message = refusal(api_as(alice).post(f"/games/{game.pk}/moves", {"move": "draw", "ply": 1}))
    assert (status, code, message) == (409, "game_over", "This game is over.")


def test_a_waiting_game_is_409_not_started(api_as, alice):
    game = services.game_create(
        creator=alice, game="zarkcity", seats=2, options={}, time_limit_days=3, is_private=False
    )
    assert refusal(api_as(alice).post(f"/games/{game.pk}/moves", {"move": "draw", "ply": 0}))[:2] == (
        409,
        "not_started",
    )


def test_the_same_move_sent_twice_is_made_once(api_as, game, alice):
    choice = pick(services.state_of(game), "red")
    client = api_as(alice)
    first = client.post(f"/games/{game.pk}/moves", {"move": choice, "ply": 0}).json()
    again = client.post(f"/games/{game.pk}/moves", {"move": choice, "ply": 0})
    assert again.status_code == 200 and again.json()["ply"] == first["ply"] == 0
    assert game.commitments.count() == 1 and not Move.objects.filter(game=game).exists()


def test_a_step_inside_the_turn_says_it_is_still_your_turn(api_as, alice, bob):
    """Zark City: a build past the hand limit leaves a discard to make, in the same turn."""
    game = start_game(alice, bob)
    for _ in range(400):
        if game.phase == "act" and game.to_move:
            user, move = to_play(game)
            answer = api_as(user).post(f"/games/{game.pk}/moves", {"move": move, "ply": game.ply}).json()
            game.refresh_from_db()
            if game.phase == "discard":
                assert answer["your_turn"] and answer["to_move"] == [answer["colour"]]
                return
        else:
            game = play_plies(game, 1)
    pytest.fail("no discard step came up")


@pytest.mark.parametrize(
    "body", [{"ply": 0}, {"move": "", "ply": 0}, {"move": "draw", "ply": -1}, {"move": "draw", "ply": "x"}]
)
def test_a_malformed_move_request_is_400(api_as, game, alice, body):
    status, code, message = refusal(api_as(alice).post(f"/games/{game.pk}/moves", body))
    assert (status, code) == (400, "invalid_request") and message


def test_a_body_that_is_not_json_is_400(api_as, game, alice):
    client = api_as(alice)
    response = client.client.post(
        f"/api/games/{game.pk}/moves", "move=draw", content_type="application/json", headers=client.headers
    )
    assert refusal(response)[:2] == (400, "invalid_request")


def test_resigning_ends_a_two_player_game(api_as, game, bob):
    answer = api_as(bob).post(f"/games/{game.pk}/resign").json()
    assert answer["move"] == "resign" and answer["status"] == "finished" and not answer["your_turn"]
    again = api_as(bob).post(f"/games/{game.pk}/resign")
    assert refusal(again)[:2] == (409, "game_over")


def test_a_resigned_player_may_no_longer_act(api_as, alice, bob, charlie):
    game = start_game(alice, bob, charlie)
    api_as(charlie).post(f"/games/{game.pk}/resign")
    assert refusal(api_as(charlie).post(f"/games/{game.pk}/draw", {"action": "propose"}))[:2] == (403, "not_a_player")


def test_a_draw_offered_and_accepted_ends_the_game(api_as, game, alice, bob):
    offered = api_as(alice).post(f"/games/{game.pk}/draw", {"action": "propose"}).json()
    assert offered == {"game": game.pk, "status": "open", "game_status": "active"}
    assert api_as(bob).get(f"/games/{game.pk}").json()["draw_offer"]["you_may_answer"]
    twice = api_as(bob).post(f"/games/{game.pk}/draw", {"action": "propose"})
    assert refusal(twice)[:2] == (409, "refused")
    accepted = api_as(bob).post(f"/games/{game.pk}/draw", {"action": "accept"}).json()
    assert accepted == {"game": game.pk, "status": "accepted", "game_status": "finished"}
    assert Game.objects.get(pk=game.pk).result_reason == "draw"


def test_a_draw_declined(api_as, game, alice, bob):
    api_as(alice).post(f"/games/{game.pk}/draw", {"action": "propose"})
    assert api_as(bob).post(f"/games/{game.pk}/draw", {"action": "decline"}).json()["status"] == "declined"
    nothing = api_as(bob).post(f"/games/{game.pk}/draw", {"action": "accept"})
    assert refusal(nothing) == (409, "refused", "There is no draw proposal to answer.")
    assert refusal(api_as(bob).post(f"/games/{game.pk}/draw", {"action": "sulk"}))[:2] == (400, "invalid_request")


def test_chat_at_the_table(api_as, game, alice, charlie):
    answer = api_as(alice).post(f"/games/{game.pk}/chat", {"text": "  good luck "})
    assert answer.status_code == 201 and answer.json()["text"] == "good luck" and answer.json()["colour"] == "red"
    assert refusal(api_as(alice).post(f"/games/{game.pk}/chat", {"text": "   "}))[:2] == (400, "invalid_request")
    assert refusal(api_as(alice).post(f"/games/{game.pk}/chat", {"text": "x" * 501}))[:2] == (400, "invalid_request")
    assert refusal(api_as(charlie).post(f"/games/{game.pk}/chat", {"text": "hi"}))[:2] == (403, "not_a_player")
    assert ChatMessage.objects.count() == 1

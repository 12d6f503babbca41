"""Who may do what to a game: logged-out visitors log in first, outsiders cannot act, a player acts
only as their own seat, and every form needs its CSRF token."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import ChatMessage, DrawProposal, Game, Move
from tests.service.gameplay import mover, pick, play_plies, start_game, user_of

pytestmark = pytest.mark.django_db
POSTS = {
    "game_move": {"text": "draw", "seen_ply": "0"},
    "game_draw": {"action": "propose"},
    "game_chat": {"text": "hello"},
    "game_resign": {},
}


@pytest.fixture
def game(alice, bob):
    return start_game(alice, bob)


@pytest.mark.parametrize("name", POSTS)
def test_a_logged_out_post_is_sent_to_log_in(client, game, name):
    response = client.post(reverse(name, args=[game.pk]), POSTS[name])
    assert response.status_code == 302
    login = reverse("account_login")
    assert response["Location"] == f"{login}?next=/games/{game.pk}/"
    assert not Move.objects.exists() and not ChatMessage.objects.exists() and not DrawProposal.objects.exists()


@pytest.mark.parametrize("name", ["game_move", "game_draw", "game_chat"])
def test_forms_take_only_post(client, alice, game, name):
    client.force_login(alice)
    assert client.get(reverse(name, args=[game.pk])).status_code == 405


@pytest.mark.parametrize("name", POSTS)
def test_a_non_player_cannot_act(client, charlie, game, name):
    client.force_login(charlie)
    response = client.post(reverse(name, args=[game.pk]), POSTS[name])
    assert response.status_code == 403
    assert "You cannot do that here" in response.content.decode()
    assert not Move.objects.exists() and not ChatMessage.objects.exists() and not DrawProposal.objects.exists()
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_a_player_cannot_move_for_another_seat(client, alice, bob, game):
    game = play_plies(game, 2)  # both chose: one player must now place
    waiting = user_of(game, "red" if mover(game) == "yellow" else "yellow")
    text = pick(services.state_of(game), mover(game))
    client.force_login(waiting)
    # The form has no "as whom" field; extra fields naming a seat are ignored.
    response = client.post(
        reverse("game_move", args=[game.pk]), {"text": text, "seen_ply": game.ply, "colour": mover(game), "by": "x"}
    )
    assert response.status_code == 400
    assert "Not your turn" in response.content.decode()
    assert game.moves.count() == 2


def test_a_resigned_player_cannot_act_any_more(client, alice, bob, charlie):
    game = start_game(alice, bob, charlie)
    services.player_resign(game=game, user=charlie)
    client.force_login(charlie)
    response = client.post(reverse("game_move", args=[game.pk]), {"text": "draw", "seen_ply": 1})
    assert response.status_code == 403 and "You have left this game" in response.content.decode()
    response = client.post(reverse("game_draw", args=[game.pk]), {"action": "propose"})
    assert response.status_code == 403


def test_private_game_posts_from_outsiders_are_404(client, alice, bob, charlie):
    game = services.game_create(
        creator=alice, seats=2, game="zarkcity", options={"deck": "standard"}, time_limit_days=3, is_private=True
    )
    services.invitation_create(game=game, invited_by=alice, username="bob")
    services.game_join(game=game, user=bob)
    client.force_login(charlie)
    for name, data in POSTS.items():
        assert client.post(reverse(name, args=[game.pk]), data).status_code == 404


@pytest.mark.parametrize("name", POSTS)
def test_every_post_needs_the_csrf_token(alice, game, name):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    response = client.post(reverse(name, args=[game.pk]), POSTS[name])
    assert response.status_code == 403
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and not Move.objects.exists()


def test_the_page_forms_carry_the_csrf_token(alice, game):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    forms = html.count('method="post"')
    assert forms >= 4 and html.count('name="csrfmiddlewaretoken"') >= forms


def test_an_unknown_draw_action_is_refused(client, alice, game):
    client.force_login(alice)
    response = client.post(reverse("game_draw", args=[game.pk]), {"action": "win"}, follow=True)
    assert "Choose to propose, accept or decline a draw." in response.content.decode()
    assert not DrawProposal.objects.exists()

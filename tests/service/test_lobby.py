"""The lobby pages end to end: home, new game (and its validation), open games, joining, the waiting room."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from games import services
from games.models import Game
from games.selectors import game_page_url

pytestmark = pytest.mark.django_db


def new_game(creator, seats=2, private=False):
    return services.game_create(
        creator=creator,
        seats=seats,
        game="zarkcity",
        options={"deck": "standard"},
        time_limit_days=3,
        is_private=private,
    )


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


# ----------------------------------------------------------------------------- home


def test_home_invites_a_visitor_to_sign_up_and_lists_open_games(client, alice):
    game = new_game(alice, seats=3)
    page = client.get(reverse("home"))
    html = page.content.decode()
    assert page.status_code == 200
    assert reverse("account_signup") in html and reverse("account_login") in html
    assert f"Zark City #{game.pk}" in html and "Log in to join" in html


def test_home_links_a_player_to_their_games(client, alice):
    client.force_login(alice)
    html = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("dashboard")}"' in html
    assert reverse("account_signup") not in html


# ----------------------------------------------------------------------------- create


def test_create_a_game_and_land_in_its_waiting_room(client, alice):
    client.force_login(alice)
    form = client.get(reverse("game_new"))
    assert form.status_code == 200
    response = client.post(
        reverse("game_new"),
        {"game": "zarkcity", "seats": "3", "zarkcity__deck": "arcade", "time_limit_days": "5", "is_private": "on"},
    )
    game = Game.objects.get()
    assert response["Location"] == reverse("game_lobby", args=[game.pk])
    assert (game.seats_wanted, game.options["deck"], game.time_limit_days, game.is_private) == (3, "arcade", 5, True)
    assert [(seat.user, seat.colour) for seat in game.seats.all()] == [(alice, "red")]

    room = client.get(response["Location"])
    assert room.status_code == 200
    assert b"1 of 3 seats taken" in room.content and b"Invite players" in room.content


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("seats", "1", "A game has 2 to 5 players."),
        ("seats", "6", "A game has 2 to 5 players."),
        ("zarkcity__deck", "tarot", "Zark City: choose the deck from the list."),
        ("game", "chess", "Select a valid choice. chess is not one of the available choices."),
        ("time_limit_days", "0", "The time limit is at least 1 day."),
        ("time_limit_days", "31", "The time limit is at most 30 days."),
        ("time_limit_days", "soon", "Give the time limit as a whole number of days."),
    ],
)
def test_create_refuses_bad_settings_with_a_clear_message(client, alice, field, value, message):
    client.force_login(alice)
    data = {"game": "zarkcity", "seats": "2", "zarkcity__deck": "standard", "time_limit_days": "3"} | {field: value}
    response = client.post(reverse("game_new"), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Game.objects.exists()


def test_creating_needs_an_account(client):
    response = client.get(reverse("game_new"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))


# ----------------------------------------------------------------------------- open games and joining


def test_open_games_lists_public_waiting_games_only(client, alice, bob, charlie):
    public = new_game(alice, seats=3)
    private = new_game(alice, private=True)
    started = new_game(bob)
    services.game_join(game=started, user=charlie)
    html = client.get(reverse("open_games")).content.decode()
    assert f"Zark City #{public.pk}" in html
    assert f"Zark City #{private.pk}" not in html
    assert f"Zark City #{started.pk}" not in html


def test_join_an_open_game_and_wait_for_the_last_seat(client, alice, bob):
    game = new_game(alice, seats=3)
    client.force_login(bob)
    response = client.post(reverse("game_join", args=[game.pk]), {"from": "open"}, follow=True)
    assert response.redirect_chain[0][0] == reverse("game_lobby", args=[game.pk])
    assert "You joined. The game starts when every seat is taken." in messages_of(response)
    assert [seat.user for seat in game.seats.all()] == [alice, bob]
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN


def test_the_last_seat_starts_the_game(client, alice, bob):
    game = new_game(alice)
    client.force_login(bob)
    response = client.post(reverse("game_join", args=[game.pk]))
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.phase == "choose"
    assert response["Location"] == game_page_url(game) != reverse("game_lobby", args=[game.pk])
    # The waiting room of a started game sends players on to the game itself.
    assert client.get(reverse("game_lobby", args=[game.pk]))["Location"] == game_page_url(game)


def test_joining_a_full_game_is_refused(client, alice, bob, charlie):
    game = new_game(alice)
    services.game_join(game=game, user=bob)
    client.force_login(charlie)
    response = client.post(reverse("game_join", args=[game.pk]), {"from": "open"}, follow=True)
    assert "This game has already started." in messages_of(response)
    assert response.redirect_chain[0][0] == reverse("open_games")
    assert game.seats.count() == 2


def test_joining_a_private_game_without_an_invitation_is_a_404(client, alice, bob):
    """An outsider is not even told the private game exists; the service refuses it all the same."""
    game = new_game(alice, private=True)
    client.force_login(bob)
    response = client.post(reverse("game_join", args=[game.pk]))
    assert response.status_code == 404 and b"private" not in response.content.lower()
    assert game.seats.count() == 1
    with pytest.raises(ValidationError, match="you need an invitation to join it"):
        services.game_join(game=game, user=bob)


def test_joining_twice_is_refused(client, alice, bob):
    game = new_game(alice, seats=3)
    client.force_login(alice)
    response = client.post(reverse("game_join", args=[game.pk]), follow=True)
    assert "You are already seated in this game." in messages_of(response)


def test_joining_needs_a_post_and_an_account(client, alice, bob):
    game = new_game(alice)
    assert client.post(reverse("game_join", args=[game.pk]))["Location"].startswith(reverse("account_login"))
    client.force_login(bob)
    assert client.get(reverse("game_join", args=[game.pk])).status_code == 405


def test_waiting_room_of_a_missing_game_is_a_404_page(client):
    response = client.get(reverse("game_lobby", args=[999]))
    assert response.status_code == 404 and b"No such game" in response.content


def test_visitor_sees_the_waiting_room_with_a_way_in(client, alice):
    game = new_game(alice, seats=4)
    html = client.get(reverse("game_lobby", args=[game.pk])).content.decode()
    assert "Log in to join" in html and "Invite players" not in html
    assert html.count("free seat") == 3


def test_a_seated_player_joining_their_started_game_is_told_they_are_seated(client, alice, bob):
    game = new_game(alice)
    services.game_join(game=game, user=bob)
    client.force_login(bob)
    response = client.post(reverse("game_join", args=[game.pk]), follow=True)
    assert "You are already seated in this game." in messages_of(response)
    assert "This game has already started." not in messages_of(response)


def test_a_private_waiting_room_is_a_404_to_anyone_not_seated_or_invited(client, alice, bob, charlie, dave):
    game = new_game(alice, seats=3, private=True)
    services.invitation_create(game=game, invited_by=alice, username="bob")
    services.invitation_create(game=game, invited_by=alice, email="charlie@example.com")
    url = reverse("game_lobby", args=[game.pk])
    anonymous = client.get(url)
    assert anonymous.status_code == 404 and b"Log in to join" not in anonymous.content
    assert b"No such game" in anonymous.content
    client.force_login(dave)
    assert client.get(url).status_code == 404
    for user in (alice, bob, charlie):  # seated, invited by name, invited at a verified address
        client.force_login(user)
        assert client.get(url).status_code == 200, user


def test_a_public_waiting_room_stays_open_to_visitors(client, alice):
    assert client.get(reverse("game_lobby", args=[new_game(alice).pk])).status_code == 200


@pytest.mark.parametrize(
    ("who", "message"),
    [
        ("x" * 300, "That is too long for a username or an email address (at most 254 characters)."),
        ("", "Give a username or an email address to invite."),
    ],
)
def test_the_invite_form_names_what_is_wrong(client, alice, who, message):
    game = new_game(alice, seats=3)
    client.force_login(alice)
    response = client.post(reverse("game_invite", args=[game.pk]), {"who": who}, follow=True)
    assert messages_of(response) == [message]

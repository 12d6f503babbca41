"""Creating a game, joining an open one, and answering invitations through the API."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress

from games import services
from games.models import Game, Invitation

pytestmark = pytest.mark.django_db


def create(client, **fields):
    body = {"game": "martianchess", "seats": 2} | fields
    return client.post("/games", body)


def test_creating_a_game_seats_me_first(api_as, alice):
    response = create(api_as(alice), time_limit_days=5, is_private=True)
    assert response.status_code == 201
    answer = response.json()
    game = Game.objects.get(pk=answer["id"])
    assert (game.game, game.seats_wanted, game.time_limit_days, game.is_private) == ("martianchess", 2, 5, True)
    assert (
        answer["status"] == "open"
        and answer["your_colour"] == "red"
        and answer["url"].endswith(f"/games/{game.pk}/lobby/")
    )


def test_options_are_checked_and_defaulted(api_as, alice):
    client = api_as(alice)
    answer = create(client, game="zarkcity", seats=3, options={"deck": "arcade"}).json()
    assert answer["options"] == {"deck": "arcade"} and answer["seats_wanted"] == 3
    assert create(client, game="zarkcity").json()["options"] == {"deck": "standard"}


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"game": "chess"}, "There is no game 'chess'"),
        ({"seats": 3}, "Martian Chess is played by 2, 4 players, not 3."),
        ({"options": {"deck": "arcade"}}, "Martian Chess has no option 'deck'"),
        ({"time_limit_days": 31}, "1 to 30 days"),
    ],
)
def test_a_bad_game_is_400_saying_what_is_wrong(api_as, alice, fields, said):
    response = create(api_as(alice), **fields)
    assert response.status_code == 400 and response.json()["code"] == "invalid_request"
    assert said in response.json()["message"]
    assert not Game.objects.exists()


def test_joining_the_last_seat_starts_the_game(api_as, alice, bob):
    game_id = create(api_as(alice)).json()["id"]
    answer = api_as(bob).post(f"/games/{game_id}/join").json()
    assert answer["status"] == "active" and answer["your_colour"] == "yellow"
    assert Game.objects.get(pk=game_id).status == Game.Status.ACTIVE


@pytest.mark.parametrize("who", ["alice", "charlie"])
def test_joining_refused_is_409_with_the_reason(api_as, alice, bob, charlie, who):
    game_id = create(api_as(alice)).json()["id"]
    api_as(bob).post(f"/games/{game_id}/join")
    response = api_as({"alice": alice, "charlie": charlie}[who]).post(f"/games/{game_id}/join")
    said = {"alice": "You are already seated in this game.", "charlie": "This game has already started."}[who]
    assert response.status_code == 409 and response.json() == {"code": "refused", "message": said}


def test_a_private_game_is_not_found_without_an_invitation(api_as, alice, bob):
    game_id = create(api_as(alice), is_private=True).json()["id"]
    assert api_as(bob).post(f"/games/{game_id}/join").json()["code"] == "not_found"


def test_invitations_are_listed_and_accepted(api_as, alice, bob):
    game_id = create(api_as(alice), is_private=True).json()["id"]
    invitation = services.invitation_create(game=Game.objects.get(pk=game_id), invited_by=alice, username="bob")
    client = api_as(bob)
    listed = client.get("/invitations").json()
    assert [(i["id"], i["game"]["id"], i["invited_by"]) for i in listed] == [(invitation.pk, game_id, "alice")]
    assert client.get("/games").json()["invitations"][0]["id"] == invitation.pk
    answer = client.post(f"/invitations/{invitation.pk}/accept").json()
    assert answer["status"] == "active" and answer["your_colour"] == "yellow"
    assert client.get("/invitations").json() == []


def test_an_invitation_by_email_reaches_the_verified_address(api_as, alice, charlie):
    game = Game.objects.get(pk=create(api_as(alice)).json()["id"])
    invitation = services.invitation_create(game=game, invited_by=alice, email="charlie@example.com")
    assert EmailAddress.objects.filter(user=charlie, email="charlie@example.com", verified=True).exists()
    assert api_as(charlie).post(f"/invitations/{invitation.pk}/accept").status_code == 200


def test_an_invitation_declined(api_as, alice, bob):
    game = Game.objects.get(pk=create(api_as(alice)).json()["id"])
    invitation = services.invitation_create(game=game, invited_by=alice, username="bob")
    answer = api_as(bob).post(f"/invitations/{invitation.pk}/decline")
    assert answer.status_code == 200 and answer.json()["id"] == invitation.pk
    assert Invitation.objects.get(pk=invitation.pk).declined_at is not None
    again = api_as(bob).post(f"/invitations/{invitation.pk}/accept")
    assert again.json() == {"code": "refused", "message": "You declined this invitation."}


def test_someone_elses_invitation_is_not_found(api_as, alice, bob, charlie):
    game = Game.objects.get(pk=create(api_as(alice)).json()["id"])
    invitation = services.invitation_create(game=game, invited_by=alice, username="bob")
    for path in (
        f"/invitations/{invitation.pk}/accept",
        f"/invitations/{invitation.pk}/decline",
        "/invitations/999/accept",
    ):
        assert api_as(charlie).post(path).json()["code"] == "not_found"
    assert Game.objects.get(pk=game.pk).seats.count() == 1

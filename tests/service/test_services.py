"""games.services: the lobby (create, join, invite, start) and move_submit with every way it refuses."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from engine.shuffle import commitment
from engine.zarkcity.state import RULES_VERSION
from games import services
from games.models import Game, Invitation
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def new_game(creator, seats=2, deck="standard", private=False):
    return services.game_create(
        creator=creator, seats=seats, game="zarkcity", options={"deck": deck}, time_limit_days=3, is_private=private
    )


def started(*players, deck="standard"):
    game = new_game(players[0], seats=len(players), deck=deck)
    for user in players[1:]:
        services.game_join(game=game, user=user)
    game.refresh_from_db()
    return game


# ----------------------------------------------------------------------------- create


def test_create_seats_the_creator_as_red_and_waits(alice):
    game = new_game(alice, seats=3, deck="arcade", private=True)
    assert game.status == Game.Status.OPEN
    assert (game.seats_wanted, game.options["deck"], game.time_limit_days, game.is_private) == (3, "arcade", 3, True)
    assert [(s.user, s.order, s.colour) for s in game.seats.all()] == [(alice, 0, "red")]
    assert game.snapshot is None and game.seed == ""


@pytest.mark.parametrize(
    ("seats", "deck", "days", "message"),
    [
        (1, "standard", 3, "Zark City is played by 2, 3, 4, 5 players, not 1"),
        (6, "standard", 3, "Zark City is played by 2, 3, 4, 5 players, not 6"),
        (2, "tarot", 3, "Deck must be one of standard, arcade, not 'tarot'"),
        (2, "standard", 0, "1 to 30 days"),
        (2, "standard", 31, "1 to 30 days"),
    ],
)
def test_create_refuses_bad_settings(alice, seats, deck, days, message):
    with pytest.raises(ValidationError, match=message):
        services.game_create(
            creator=alice, seats=seats, game="zarkcity", options={"deck": deck}, time_limit_days=days, is_private=False
        )
    assert not Game.objects.exists()


# ----------------------------------------------------------------------------- join and start


def test_join_takes_the_next_colour_and_the_last_seat_starts_the_game(alice, bob, charlie):
    game = new_game(alice, seats=3)
    seat = services.game_join(game=game, user=bob)
    assert (seat.order, seat.colour) == (1, "yellow")
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN

    services.game_join(game=game, user=charlie)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert [s.colour for s in game.seats.all()] == ["red", "yellow", "green"]
    assert len(game.seed) == 64 and game.seed_commitment == commitment(game.seed)
    assert game.rules_version == RULES_VERSION
    assert game.snapshot["players"] == ["red", "yellow", "green"] and game.snapshot["seed"] == game.seed
    assert game.phase == "choose" and game.to_move == "red,yellow,green"
    assert game.started_at is not None and game.turn_started_at == game.started_at
    assert (game.deadline - game.turn_started_at).days == 3
    assert game.ply == 0


def test_each_game_gets_its_own_seed(alice, bob):
    assert started(alice, bob).seed != started(bob, alice).seed


def test_join_refuses_a_second_seat(alice, bob):
    game = new_game(alice, seats=3)
    with pytest.raises(ValidationError, match="already seated"):
        services.game_join(game=game, user=alice)


def test_join_refuses_a_started_game(alice, bob, charlie):
    game = started(alice, bob)
    with pytest.raises(ValidationError, match="already started"):
        services.game_join(game=game, user=charlie)


def test_join_refuses_a_finished_game(alice, bob, charlie):
    game = started(alice, bob)
    services.player_resign(game=game, user=bob)
    with pytest.raises(ValidationError, match="over"):
        services.game_join(game=game, user=charlie)


def test_private_game_needs_an_invitation(alice, bob):
    game = new_game(alice, private=True)
    with pytest.raises(ValidationError, match="invitation"):
        services.game_join(game=game, user=bob)
    assert game.seats.count() == 1


def test_private_game_lets_in_the_invited_username(alice, bob, django_capture_on_commit_callbacks):
    game = new_game(alice, private=True)
    with django_capture_on_commit_callbacks() as callbacks:
        invitation = services.invitation_create(game=game, invited_by=alice, username="Bob")
    assert invitation.user == bob and len(callbacks) == 1  # the invitation email, after commit
    services.game_join(game=game, user=bob)
    invitation.refresh_from_db()
    assert invitation.accepted_at is not None
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_private_game_lets_in_a_verified_invited_address(alice, bob):
    game = new_game(alice, private=True)
    services.invitation_create(game=game, invited_by=alice, email="BOB@example.com")
    seat = services.game_join(game=game, user=bob)
    assert seat.colour == "yellow"


def test_an_unverified_address_does_not_count(alice):
    mallory = make_user("mallory")
    mallory.emailaddress_set.update(verified=False)
    game = new_game(alice, private=True)
    services.invitation_create(game=game, invited_by=alice, email="mallory@example.com")
    with pytest.raises(ValidationError, match="invitation"):
        services.game_join(game=game, user=mallory)


# ----------------------------------------------------------------------------- invitations


def test_invitation_by_email_to_anyone(alice):
    game = new_game(alice)
    invitation = services.invitation_create(game=game, invited_by=alice, email="  Someone@Elsewhere.org ")
    assert (invitation.user, invitation.email) == (None, "someone@elsewhere.org")


@pytest.mark.parametrize(
    ("username", "email", "message"),
    [
        ("", "", "either a username or an email"),
        ("bob", "bob@example.com", "either a username or an email"),
        ("nobody", "", "no player called 'nobody'"),
        ("", "not-an-address", "is not an email address"),
        ("alice", "", "already has a seat"),
    ],
)
def test_invitation_refuses_bad_input(alice, bob, username, email, message):
    game = new_game(alice)
    with pytest.raises(ValidationError, match=message):
        services.invitation_create(game=game, invited_by=alice, username=username, email=email)
    assert not Invitation.objects.exists()


def test_invitation_refuses_duplicates(alice, bob):
    game = new_game(alice, seats=3)
    services.invitation_create(game=game, invited_by=alice, username="bob")
    services.invitation_create(game=game, invited_by=alice, email="x@example.org")
    with pytest.raises(ValidationError, match="already been invited"):
        services.invitation_create(game=game, invited_by=alice, username="BOB")
    with pytest.raises(ValidationError, match="already been invited"):
        services.invitation_create(game=game, invited_by=alice, email="X@example.org")


def test_only_a_seated_player_may_invite(alice, bob, charlie):
    game = new_game(alice, seats=3)
    with pytest.raises(ValidationError, match="Only a player seated"):
        services.invitation_create(game=game, invited_by=bob, username="charlie")


def test_a_started_game_takes_no_invitations(alice, bob, charlie):
    game = started(alice, bob)
    with pytest.raises(ValidationError, match="still waiting for players"):
        services.invitation_create(game=game, invited_by=alice, username="charlie")


def test_accept_seats_the_invitee(alice, bob):
    game = new_game(alice, private=True)
    invitation = services.invitation_create(game=game, invited_by=alice, username="bob")
    seat = services.invitation_accept(invitation=invitation, user=bob)
    assert seat.user == bob
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_accept_refuses_someone_else(alice, bob, charlie):
    game = new_game(alice, private=True)
    invitation = services.invitation_create(game=game, invited_by=alice, username="bob")
    with pytest.raises(ValidationError, match="someone else"):
        services.invitation_accept(invitation=invitation, user=charlie)


def test_decline_closes_the_invitation(alice, bob):
    game = new_game(alice, private=True)
    invitation = services.invitation_create(game=game, invited_by=alice, username="bob")
    services.invitation_decline(invitation=invitation, user=bob)
    invitation.refresh_from_db()
    assert invitation.declined_at is not None
    with pytest.raises(ValidationError, match="declined"):
        services.invitation_accept(invitation=invitation, user=bob)
    with pytest.raises(ValidationError, match="invitation"):
        services.game_join(game=game, user=bob)


def test_decline_refuses_someone_else(alice, bob, charlie):
    game = new_game(alice, private=True)
    invitation = services.invitation_create(game=game, invited_by=alice, username="bob")
    with pytest.raises(ValidationError, match="someone else"):
        services.invitation_decline(invitation=invitation, user=charlie)

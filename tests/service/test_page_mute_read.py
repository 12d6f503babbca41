"""The mute button's state read with the page's first query (games.selectors.game_with_table): each
player's page shows their own mute, never another's; a page whose seats were read elsewhere (a refused
move's) still asks (notifications.mutes.is_muted)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import selectors
from notifications.models import Mute
from notifications.mutes import is_muted
from tests.notifications.helpers import start_game

pytestmark = pytest.mark.django_db
MUTED, UNMUTED = "Emails about this game are muted.", "Mute this game's emails"


def page_of(user, game, **post: str) -> str:
    client = Client()
    client.force_login(user)
    url = reverse("game_detail", args=[game.pk])
    response = client.post(f"{url}move/", post) if post else client.get(url)
    return response.content.decode()


def test_each_player_sees_their_own_mute_only(alice, bob, charlie):
    game = start_game(alice, bob, charlie)
    Mute.objects.create(user=bob, game=game)
    assert UNMUTED in page_of(alice, game) and MUTED not in page_of(alice, game)
    assert MUTED in page_of(bob, game)
    assert UNMUTED in page_of(charlie, game)


def test_the_first_read_says_each_seat_as_is_muted_does(alice, bob):
    game = start_game(alice, bob)
    Mute.objects.create(user=alice, game=game)
    _, seats = selectors.game_with_table(game.pk)
    assert seats is not None
    assert [seat.muted for seat in seats] == [is_muted(seat.user, game) for seat in seats] == [True, False]


def test_a_refused_moves_page_still_shows_the_mute(alice, bob):
    game = start_game(alice, bob)
    mover = game.seats.get(colour=game.to_move.split(",")[0]).user
    Mute.objects.create(user=mover, game=game)
    html = page_of(mover, game, text="no such move", seen_ply=str(game.ply))
    assert "Cannot read that move" in html and MUTED in html

"""A private game is its players' business (docs/archive.md, "Private games"): its result moves no
rating and no public list shows it; its players find it in the archive and on their profile, and
anyone else opens it only by its share link. The game-over email says so."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from archive import selectors
from archive.models import ArchivedPlayer, PlayerRating
from games import services, sharing
from games.models import Game
from notifications.emails import build_message
from notifications.models import Notification
from tests.archive.archive_helpers import finished_rows

pytestmark = pytest.mark.django_db


def private_game_resigned(alice, bob) -> Game:
    """A private game bob resigns at once: alice wins it."""
    game = services.game_create(
        creator=alice, seats=2, game="zarkcity", options={"deck": "standard"}, time_limit_days=3, is_private=True
    )
    services.invitation_create(game=game, invited_by=alice, username="bob")
    services.game_join(game=game, user=bob)
    services.player_resign(game=game, user=bob)
    game.refresh_from_db()
    return game


def test_a_private_result_moves_no_rating_and_stays_off_the_leaderboard(client, alice, bob):
    game = private_game_resigned(alice, bob)
    assert game.status == Game.Status.FINISHED and ArchivedPlayer.objects.filter(archived_game=game.pk).count() == 2
    assert not PlayerRating.objects.filter(games__gt=0).exists()
    assert list(client.get(reverse("leaderboard")).context["page"].object_list) == []
    assert selectors.rating_history(user=alice, game_type="zarkcity") == []


def test_a_public_result_still_moves_the_ratings(alice, bob):
    finished_rows([alice, bob])
    assert set(PlayerRating.objects.filter(games=1).values_list("user_id", flat=True)) == {alice.pk, bob.pk}


def test_its_players_find_a_private_game_in_the_archive_and_nobody_else(client, alice, bob, charlie):
    private = finished_rows([alice, bob], is_private=True)
    public = finished_rows([alice, charlie])

    def listed(viewer) -> list[int]:
        if viewer is None:
            client.logout()
        else:
            client.force_login(viewer)
        response = client.get(reverse("archive"))
        return [g.game_id for g in response.context["page"].object_list]

    assert listed(None) == [public.pk] and listed(charlie) == [public.pk]
    assert sorted(listed(bob)) == sorted([private.pk, public.pk])
    html = client.get(reverse("archive")).content.decode()
    assert "badge--private" in html  # bob is told which of his games nobody else sees
    assert sorted(listed(alice)) == sorted([private.pk, public.pk])


def test_the_game_over_email_of_a_private_game_gives_its_share_link(alice, bob):
    game = private_game_resigned(alice, bob)
    row = Notification.objects.get(recipient=alice, kind=Notification.Kind.GAME_OVER)
    message = build_message(row)
    html = message.alternatives[0][0] if isinstance(message.alternatives[0], tuple) else message.alternatives[0].content
    assert "is now public" not in message.body and "is now public" not in html  # as every game's used to say
    assert sharing.share_url(game) in message.body and "share link" in message.body
    assert "private game" in message.body


def test_a_play_link_to_a_finished_private_game_opens_it_for_its_player(alice, bob):
    game = private_game_resigned(alice, bob)
    row = Notification.objects.get(recipient=alice, kind=Notification.Kind.GAME_OVER)
    link = build_message(row).body.split("Open the finished game:")[1].split()[0]
    browser = Client()
    response = browser.get("/" + link.split("://", 1)[1].split("/", 1)[1], follow=True)
    assert response.status_code == 200 and response.redirect_chain[-1][0] == reverse("game_detail", args=[game.pk])

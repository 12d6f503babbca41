"""Limits on what a signed-in player can repeat: moves, chat and invitations (any seated player can
email any address). Past the limit the answer is 429 and nothing is done."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import ChatMessage, Invitation
from tests.service.gameplay import start_game


@pytest.fixture
def game(alice, bob):
    return start_game(alice, bob)


def test_chat_past_the_limit_is_refused(client, settings, game, bob):
    settings.RATE_LIMITS = {"chat": "3/m"}
    client.force_login(bob)
    codes = [client.post(reverse("game_chat", args=[game.pk]), {"text": f"line {n}"}).status_code for n in range(5)]
    assert codes == [302, 302, 302, 429, 429]
    assert ChatMessage.objects.count() == 3


def test_moves_past_the_limit_are_refused(client, settings, game, alice):
    settings.RATE_LIMITS = {"move": "3/m"}
    client.force_login(alice)
    codes = [
        client.post(reverse("game_move", args=[game.pk]), {"text": "nonsense", "seen_ply": 0}).status_code
        for _ in range(4)
    ]
    assert 429 not in codes[:3] and codes[3] == 429


def test_invitations_past_the_limit_are_refused(client, settings, alice):
    from games import services

    game = services.game_create(
        creator=alice, game="zarkcity", seats=5, options={"deck": "standard"}, time_limit_days=3, is_private=True
    )
    settings.RATE_LIMITS = {"invite": "2/h"}
    client.force_login(alice)
    url = reverse("game_invite", args=[game.pk])
    codes = [client.post(url, {"who": f"friend{n}@example.org"}).status_code for n in range(4)]
    assert codes == [302, 302, 429, 429]
    assert Invitation.objects.filter(game=game).count() == 2

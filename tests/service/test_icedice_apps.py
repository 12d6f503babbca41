"""IceDice through the apps, which know no game: lobby, the game page and its click steps, turn emails
with the picture, email replies, the archive's replay with every throw, the verify page and the API."""

from __future__ import annotations

import json
import re
from typing import Any
from unittest import mock

import pytest
from django.core import mail
from django.urls import reverse

from engine.icedice.game import GAME
from games import services
from games.models import Game
from replies import inbox
from replies import services as replies
from tests.api.conftest import ApiClient, secret_for
from tests.replies import mails

pytestmark = pytest.mark.django_db
SEED = "seed7"


def start(*players: Any) -> Game:
    game = services.game_create(
        creator=players[0], game="icedice", seats=len(players), options={}, time_limit_days=3, is_private=False
    )
    with mock.patch("games.services.secrets.token_hex", return_value=SEED):
        for user in players[1:]:
            services.game_join(game=game, user=user)
    game.refresh_from_db()
    return game


def mover(game: Game) -> tuple[str, Any]:
    game.refresh_from_db()
    colour = game.to_move.split(",")[0]
    return colour, game.seats.get(colour=colour).user


def pick(game: Game) -> str:
    """Take the first offered piece; roll on while the Counter holds fewer than three."""
    state = GAME.from_position(game.snapshot)
    listed = [str(m) for m in GAME.legal_moves(state, state.to_move)[:-1]]
    if state.phase == "take":
        return listed[0]
    return "roll" if len(state.counter) < 3 else "stop"


def play(game: Game, until: Any, limit: int = 600) -> Game:
    for _ in range(limit):
        game.refresh_from_db()
        if until(game):
            return game
        colour, user = mover(game)
        services.move_submit(game=game, user=user, text=pick(game), seen_ply=game.ply)
    raise AssertionError("the condition never came")


def in_take(game: Game) -> bool:
    return GAME.from_position(game.snapshot).phase == "take"


def test_the_lobby_seats_two_to_five(alice, bob, charlie) -> None:
    for seats in (2, 3, 4, 5):
        game = services.game_create(
            creator=alice, game="icedice", seats=seats, options={}, time_limit_days=3, is_private=False
        )
        assert str(game) == f"IceDice #{game.pk}"
    game = start(alice, bob, charlie)
    assert game.status == Game.Status.ACTIVE and GAME.from_position(game.snapshot).dice >= 2


def test_the_game_page_draws_the_board_and_lists_each_take_with_its_click_path(client, alice, bob) -> None:
    game = play(start(alice, bob), in_take)
    colour, user = mover(game)
    client.force_login(user)
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "kd-board" in page and 'data-target="bank:' in page and "pyramid die" in page
    data = json.loads(re.search(r'<script[^>]*id="zc-play-data"[^>]*>(.*?)</script>', page, re.S).group(1))
    takes = [step for step in data["steps"] if step["text"].startswith("take")]
    assert takes and all(step["path"][0].startswith("bank:") for step in takes)
    assert {step["text"] for step in data["steps"]} == set(data["moves"])
    client.force_login(alice if user == bob else bob)
    assert client.get(reverse("game_detail", args=[game.pk])).status_code == 200


def test_turn_emails_carry_the_picture_and_a_reply_plays_a_step(
    alice, bob, eager, django_capture_on_commit_callbacks, settings
) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    with django_capture_on_commit_callbacks(execute=True):
        game = start(alice, bob)
        game = play(game, lambda g: g.ply >= 3 and not in_take(g))
    assert mail.outbox
    email = mail.outbox[-1]
    [image] = [p for p in email.attachments if getattr(p, "get_content_type", lambda: "")() == "image/png"]
    assert image.get_payload(decode=True).startswith(b"\x89PNG") and "Counter" in email.body
    colour, user = mover(game)
    to = replies.turn_reply_address(game=game, user=user)
    before = game.ply
    with django_capture_on_commit_callbacks(execute=True):
        inbox.inbound_accept(raw=mails.gmail("stop", sender=user.email, to=to), source="pipe", envelope_to=[to])
    game.refresh_from_db()
    assert game.ply == before + 1 and game.moves.order_by("ply").last().notation == "stop"


def test_a_finished_game_replays_every_throw_verifies_and_reads_through_the_api(client, alice, bob) -> None:
    game = play(start(alice, bob), lambda g: g.status == Game.Status.FINISHED)
    assert GAME.from_position(game.snapshot).reason == "trios"
    replay = client.get(reverse("replay", args=[game.pk, 3])).content.decode()
    assert "threw" in replay
    log = client.get(reverse("game_log", args=[game.pk])).content.decode()
    assert log.count("threw") >= game.ply // 2
    assert client.get(reverse("game_verify", args=[game.pk])).status_code == 200
    record = json.loads(client.get(reverse("game_record", args=[game.pk])).content)
    assert record["format"] == "icedice-game/1" and GAME.replay(record).reason == "trios"
    api = ApiClient(secret_for(alice))
    answer = api.get(f"/games/{game.pk}")
    assert answer.status_code == 200 and answer.json()["game"] == "icedice"

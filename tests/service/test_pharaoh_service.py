"""Pharaoh through the service, with no app knowing it by name: the lobby starts it, steps go through
`move_submit` (several a turn, the die thrown by the engine), turn emails carry the picture and the
text board, and a finished game replays ply by ply and verifies."""

from __future__ import annotations

import json

import pytest
from django.core import mail
from django.urls import reverse

from engine.pharaoh.game import GAME
from games import services
from games.models import Game
from tests.engine.test_pharaoh_golden import choose
from tests.replies.helpers import start
from tests.service.test_board_page import play_data

pytestmark = pytest.mark.django_db


def mover(game: Game) -> str:
    game.refresh_from_db()
    return game.to_move.split(",")[0]


def seat_user(game: Game, colour: str):  # type: ignore[no-untyped-def]
    return game.seats.get(colour=colour).user


def step(game: Game, text: str) -> None:
    colour = mover(game)
    services.move_submit(game=game, user=seat_user(game, colour), text=text, seen_ply=game.ply)
    game.refresh_from_db()


def play_out(game: Game, limit: int = 400) -> Game:
    for _ in range(limit):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        step(game, str(choose(services.state_of(game), game.ply)))  # the golden playthroughs' policy
    return game


def test_the_lobby_starts_a_three_player_game_with_the_first_throw(alice, bob, charlie) -> None:
    game = start("pharaoh", alice, bob, charlie)
    state = services.state_of(game)
    assert game.status == Game.Status.ACTIVE and state.players == ("red", "yellow", "green")
    assert mover(game) == state.first_player and 1 <= state.throw == state.points <= 6


def test_steps_of_one_turn_keep_the_turn_and_the_die_passes_it_on(alice, bob) -> None:
    game = start("pharaoh", alice, bob)
    first = mover(game)
    throw = services.state_of(game).throw
    step(game, "enter S " + GAME.view(services.state_of(game), None)["edges"][first][0])  # type: ignore[typeddict-item]
    assert (mover(game) == first) == (throw > 1)
    step(game, "pass") if mover(game) == first else None
    assert mover(game) != first and game.moves.count() in (1, 2)


def test_the_game_page_shows_the_board_with_click_targets(client, alice, bob) -> None:
    game = start("pharaoh", alice, bob)
    client.force_login(seat_user(game, mover(game)))
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'data-target="c3"' in page and 'data-target="supply:L"' in page
    assert "Pharaoh" in page and "enter M c1" in page  # the notation help
    data = play_data(client, game)
    steps = {step["text"]: step["path"] for step in data["steps"]}
    assert data["module"].endswith("js/kit_board.js") and list(steps) == data["moves"]
    edge = GAME.view(services.state_of(game), None)["edges"][mover(game)]  # type: ignore[typeddict-item]
    assert steps[f"enter S {edge[0]}"] == ["supply:S", edge[0]] and steps["pass"] == []


def test_a_turn_email_carries_the_picture_and_the_text_board(
    alice, bob, eager, django_capture_on_commit_callbacks
) -> None:
    game = start("pharaoh", alice, bob)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        step(game, "pass")
    address = seat_user(game, mover(game)).email
    to_next = [m for m in mail.outbox if any(address in to for to in m.to)]
    assert to_next, "no turn email"
    email = to_next[-1]
    [image] = [p for p in email.attachments if getattr(p, "get", lambda _: "")("Content-ID") == "<board>"]
    assert image.get_payload(decode=True).startswith(b"\x89PNG")
    assert "threw" in email.body and "##" in email.body  # the text board's blocked corners


def test_a_finished_game_replays_ply_by_ply_and_verifies(client, alice, bob) -> None:
    game = play_out(start("pharaoh", alice, bob))
    assert game.status == Game.Status.FINISHED
    state = services.state_of(game)
    assert state.reason == "goal-line"
    for ply in (0, 1, game.ply // 2, game.ply):
        assert client.get(reverse("replay", args=[game.pk, ply])).status_code == 200
    record = json.loads(client.get(reverse("game_record", args=[game.pk])).content)
    assert record["format"] == "pharaoh-game/1" and GAME.replay(record) == state
    verify = client.get(reverse("game_verify", args=[game.pk])).content.decode()
    assert state.seed in verify

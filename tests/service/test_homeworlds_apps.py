"""Homeworlds through the apps, which know no game: the lobby's options with their "which rules?" note,
How to play, a discovery's free name, turn emails with the picture and a text board that lists every
system and the bank, a whole turn on one line through the API, and a finished game in the archive
(replay, record, verification, ratings) and the API."""

from __future__ import annotations

import json
from html import unescape

import pytest
from django.core import mail
from django.urls import reverse

from archive.models import ArchivedGame, PlayerRating
from engine.homeworlds.game import GAME
from games import services
from games.models import Game
from games.services.errors import MoveRejected
from tests.api.conftest import ApiClient, secret_for
from tests.service.gameplay import mover, start_game, user_of
from tests.service.test_board_page import play_data

pytestmark = pytest.mark.django_db

# The first to move (North) wins at turn 7: a red ship reaches South and takes the only ship there.
WIN_FOR_NORTH = (
    "homeworld y1 g2 r3",
    "homeworld g3 b3 y3",
    "build r1 North",
    "pass",
    "move r3 North South",
    "pass",
    "attack y3 South",
)


def submit(game: Game, text: str) -> None:
    game.refresh_from_db()
    services.move_submit(game=game, user=user_of(game, mover(game)), text=text, seen_ply=game.ply)
    game.refresh_from_db()


def set_up(game: Game) -> Game:
    for text in WIN_FOR_NORTH[:2]:
        submit(game, text)
    return game


def test_the_new_game_form_says_which_rules_each_option_follows(client, alice) -> None:
    client.force_login(alice)
    html = unescape(client.get(reverse("game_new")).content.decode())
    for option in GAME.info.options:
        assert option.label in html and "which rules?" in option.label
        assert all(choice.label in html for choice in option.choices)
    assert "(the Primer)" in html and "(Playing with Pyramids)" in html and "(homeworlds-cli)" in html


def test_the_game_page_has_how_to_play_with_every_step_of_the_notation(client, alice, bob) -> None:
    game = set_up(start_game(alice, bob, game="homeworlds"))
    client.force_login(alice)
    html = unescape(client.get(reverse("game_detail", args=[game.pk])).content.decode())
    assert "How to play Homeworlds" in html and GAME.rules_summary() in html
    for example, meaning in GAME.notation_help():
        assert f"<code>{example}</code>" in html and meaning in html


def test_a_discovery_is_offered_under_the_engines_free_name_and_any_typed_name_is_kept(client, alice, bob) -> None:
    game = set_up(start_game(alice, bob, game="homeworlds"))
    client.force_login(user_of(game, mover(game)))
    offered = [step["text"] for step in play_data(client, game)["steps"] if step["text"].startswith("discover")]
    assert "discover r3 North b3 Alpha" in offered and all(text.endswith(" Alpha") for text in offered)
    for text in ("build r1 North", "pass", "discover r1 north b3 my_Colony"):
        submit(game, text)
    assert game.moves.order_by("ply").last().notation == "discover r1 North b3 my_Colony"
    state = services.state_of(game)
    assert state.system("MY_COLONY") is not None and state.system("Alpha") is None


def test_a_turn_email_has_the_picture_and_a_text_board_of_every_system_and_the_bank(
    alice, bob, eager, django_capture_on_commit_callbacks, settings
) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    game = set_up(start_game(alice, bob, game="homeworlds"))
    for text in ("build r1 North", "build y1 South"):
        submit(game, text)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        submit(game, "discover r1 North b3 Lorem")
    colour = mover(game)
    address = user_of(game, colour).email
    [email] = [m for m in mail.outbox if any(address in to for to in m.to)]
    [image] = [p for p in email.attachments if getattr(p, "get_content_type", lambda: "")() == "image/png"]
    assert image.get_payload(decode=True).startswith(b"\x89PNG")
    state = services.state_of(game)
    text = GAME.board_text(GAME.view(state, colour))
    assert text in email.body and [s.name for s in state.systems] == ["North", "South", "Lorem"]
    first, second = state.first_player, colour
    assert f"North ({first}'s homeworld): stars y1 g2 | " in email.body
    assert f"South ({second}'s homeworld): stars g3 b3 | " in email.body
    assert "Lorem: stars b3 | " in email.body and f"{first}: r1" in email.body.split("Lorem: ")[1].splitlines()[0]
    assert "Bank: r1x2 r2x3 r3x2 y1x1 y2x3 y3x2 g1x3 g2x2 g3x2 b1x3 b2x3 b3x1" in email.body  # 36 less the 9 in play


def test_a_whole_turn_on_one_line_through_the_api(alice, bob) -> None:
    game = set_up(start_game(alice, bob, game="homeworlds"))
    first, ply = mover(game), game.ply
    api = ApiClient(secret_for(user_of(game, first)))
    answer = api.post(f"/games/{game.pk}/moves", {"move": "build r1 north; done", "ply": ply})
    assert answer.status_code == 200 and answer.json()["move"] == "build r1 North"  # the trailing `done` is dropped
    game.refresh_from_db()
    assert game.ply == ply + 1 and mover(game) != first
    other = ApiClient(secret_for(user_of(game, mover(game))))
    refused = other.post(f"/games/{game.pk}/moves", {"move": "build y1 South; build y1 South", "ply": game.ply})
    assert refused.status_code == 400 and refused.json()["code"] == "illegal_move"
    assert refused.json()["message"].startswith("step 2 (build y1 South): comes after your turn")
    assert Game.objects.get(pk=game.pk).ply == ply + 1


def test_a_finished_game_replays_verifies_is_rated_and_reads_through_the_api(client, alice, bob) -> None:
    game = start_game(alice, bob, game="homeworlds")
    for text in WIN_FOR_NORTH:
        submit(game, text)
    state = services.state_of(game)
    assert game.status == Game.Status.FINISHED
    assert (state.winner, state.reason) == (state.first_player, "homeworld")
    for ply in range(game.ply + 1):
        assert client.get(reverse("replay", args=[game.pk, ply])).status_code == 200
    record = json.loads(client.get(reverse("game_record", args=[game.pk])).content)
    assert record["format"] == "homeworlds-game/1" and [m["move"] for m in record["moves"]] == list(WIN_FOR_NORTH)
    assert GAME.replay(record) == state and record["seed"] == state.seed
    verify = client.get(reverse("game_verify", args=[game.pk])).content.decode()
    assert state.seed in verify
    winner, loser = user_of(game, state.first_player), user_of(game, state.other(state.first_player))
    archived = ArchivedGame.objects.get(pk=game.pk)
    assert (archived.winner_id, archived.winner_colour) == (winner.pk, state.first_player)
    assert PlayerRating.objects.get(user=winner).rating > PlayerRating.objects.get(user=loser).rating
    api = ApiClient(secret_for(bob))
    shown = api.get(f"/games/{game.pk}").json()
    assert shown["game"] == "homeworlds" and api.get("/archive", game="homeworlds").json()["count"] == 1
    assert api.get(f"/games/{game.pk}/record").json() == record


@pytest.mark.parametrize(
    ("line", "refused"),
    [
        ("build r1 North; done; done", "step 2 (done): comes after your turn"),  # REC-H14: one trailing `done`
        ("build r1 North; resign", "Resign on a line of its own"),
    ],
)
def test_a_line_the_spec_refuses_is_refused_by_the_service(alice, bob, line: str, refused: str) -> None:
    game = set_up(start_game(alice, bob, game="homeworlds"))
    ply = game.ply
    with pytest.raises(MoveRejected, match=refused.replace("(", r"\(").replace(")", r"\)")):
        submit(game, line)
    assert Game.objects.get(pk=game.pk).ply == ply
    submit(game, "build r1 North; done")
    assert [m.notation for m in game.moves.filter(ply__gte=ply)] == ["build r1 North"]

"""Launch Pad 23 through the apps, which know no game: the lobby; the sealed opening pick, which no page,
JSON answer, event feed, list or email shows to another seat or a spectator before all have chosen, not
even whether a seat has chosen (issue 27), and which cannot be changed; the clocks and bots around it;
steps of a turn and `;` lines; turn emails with the picture; email replies; the archive's replay with
every throw, the verify page, the record and the API."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from archive.models import PlayerRating
from engine.launchpad23 import verify as verifier
from engine.launchpad23.game import GAME
from games import clock, services
from games.models import Commitment, Game, Move
from games.services import MoveRejected
from notifications.models import Notification
from replies import inbox
from replies import services as replies
from tests.api.conftest import ApiClient, secret_for
from tests.engine.launchpad23_helpers import builder_step
from tests.replies import mails
from tests.service.gameplay import user_of
from tests.tokens import without_tokens

pytestmark = pytest.mark.django_db
SEED = "golden-two"  # the two-player golden game's seed: red's rocket plan meets blue's


def start(*players: Any, seed: str = SEED) -> Game:
    game = services.game_create(
        creator=players[0], game="launchpad23", seats=len(players), options={}, time_limit_days=3, is_private=False
    )
    with mock.patch("games.services.secrets.token_hex", return_value=seed):
        for user in players[1:]:
            services.game_join(game=game, user=user)
    game.refresh_from_db()
    return game


def pick(game: Game, colour: str, size: str = "M") -> Move | Commitment:
    return services.move_submit(game=game, user=user_of(game, colour), text=f"start {size}", seen_ply=game.ply)


def opened(*players: Any) -> Game:
    game = start(*players)
    for colour in game.to_move.split(","):
        pick(game, colour, "SML"[len(colour) % 3])
    game.refresh_from_db()
    return game


def step(game: Game) -> None:
    game.refresh_from_db()
    state = services.state_of(game)
    colour = game.to_move
    move = builder_step(state, colour, game.ply)
    services.move_submit(game=game, user=user_of(game, colour), text=str(move), seen_ply=game.ply)


def play(game: Game, until: Any, limit: int = 400) -> Game:
    for _ in range(limit):
        game.refresh_from_db()
        if until(game):
            return game
        step(game)
    raise AssertionError("the condition never came")


def test_the_lobby_seats_two_to_four(alice, bob, charlie) -> None:
    for seats in (2, 3, 4):
        game = services.game_create(
            creator=alice, game="launchpad23", seats=seats, options={}, time_limit_days=3, is_private=False
        )
        assert str(game) == f"Launch Pad 23 #{game.pk}"
    game = start(alice, bob, charlie)
    assert game.status == Game.Status.ACTIVE and game.to_move == "red,yellow,green"


# ----------------------------------------------------------------------------- the sealed opening pick


def everything_seen(game: Game, user: Any) -> dict[str, Any]:
    """All that `user` (None: a spectator) reads of the game: its page, the poll, the board, the lists,
    the JSON API (the game, its moves, its event feed, the caller's feed and games)."""
    client = Client()
    if user is not None:
        client.force_login(user)
    page = without_tokens(client.get(reverse("game_detail", args=[game.pk])).content.decode())
    seen: dict[str, Any] = {
        "page": page,
        "poll": client.get(reverse("game_ply", args=[game.pk]), {"since": 0}).json(),
        "board": client.get(reverse("game_board_svg", args=[game.pk])).content.decode(),
        "open": without_tokens(client.get(reverse("open_games")).content.decode()),
    }
    if user is not None:
        seen["dashboard"] = without_tokens(client.get(reverse("dashboard")).content.decode())
        api = ApiClient(secret_for(user, ("read", "play")))
        for path in (f"/games/{game.pk}", f"/games/{game.pk}/moves", f"/games/{game.pk}/events", "/games", "/events"):
            seen[path] = api.get(path).json()
        seen["/events"].pop("cursor")  # the feed's cursor is the time read up to: it moves with the clock
    return seen


@pytest.mark.parametrize("size", ["S", "L"])
def test_no_one_learns_a_pick_or_whether_it_was_made_before_all_have_chosen(
    alice, bob, charlie, size, settings, django_capture_on_commit_callbacks
) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.API_EVENTS_SETTLE_SECONDS = 0  # the caller's feed shows its turns at once, before and after
    with django_capture_on_commit_callbacks(execute=True):
        game = start(alice, bob, charlie)
    before = {who: everything_seen(game, user) for who, user in (("bob", bob), ("nobody", None))}
    notifications, sent = Notification.objects.count(), len(mail.outbox)
    with django_capture_on_commit_callbacks(execute=True):
        assert isinstance(pick(game, "red", size), Commitment)
    game.refresh_from_db()
    assert (game.ply, game.to_move) == (0, "red,yellow,green")  # in public the game still waits on red
    assert Notification.objects.count() == notifications and len(mail.outbox) == sent  # nobody is told
    for who, user in (("bob", bob), ("nobody", None)):
        assert everything_seen(game, user) == before[who], who
    own = Client()
    own.force_login(alice)
    page = own.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert f"Your sealed choice: start {size}." in page
    answer = ApiClient(secret_for(alice, ("read", "play"))).get(f"/games/{game.pk}/moves").json()
    assert answer["your_turn"] is False and answer["moves"] == []
    board = own.get(reverse("dashboard")).context["board"]  # her own lists: nothing owed here
    assert game.pk not in [e.game.pk for e in board.my_turn] and own.get("/").status_code == 200


def test_a_pick_cannot_be_changed_and_the_last_one_opens_the_game(alice, bob) -> None:
    game = start(alice, bob)
    pick(game, "yellow", "L")
    with pytest.raises(MoveRejected, match="cannot be changed"):
        pick(game, "yellow", "S")
    assert pick(game, "yellow", "L").notation == "start L"  # the same pick again: a retried request
    last = pick(game, "red", "M")
    game.refresh_from_db()
    assert [(m.seat.colour, m.notation) for m in game.moves.all()] == [("yellow", "start L"), ("red", "start M")]
    assert last == game.moves.last() and not Commitment.objects.exists()
    state = services.state_of(game)
    assert state.phase in ("add", "move") and game.to_move == state.to_move
    history = Client()
    history.force_login(bob)
    page = history.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "opening pieces: red M on a1, yellow L on c3" in page and "throws" in page


def test_only_the_seat_that_has_not_chosen_times_out(alice, bob, charlie) -> None:
    game = start(alice, bob, charlie)
    pick(game, "red")
    game.refresh_from_db()
    assert [c.colour for c in clock.mover_clocks(game)] == ["yellow", "green"]  # red owes nothing
    pick(game, "yellow")
    game.refresh_from_db()
    assert clock.time_out(game_id=game.pk, now=game.deadline + timedelta(minutes=1)) == 1
    game.refresh_from_db()
    played = [(m.seat.colour, m.notation) for m in game.moves.all()]
    assert played == [("green", "resign"), ("red", "start M"), ("yellow", "start M")]
    assert game.status == Game.Status.ACTIVE and services.state_of(game).phase != "start"


def test_a_bot_picks_once_and_waits_unseen_for_the_person(alice, eager, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = services.game_create(
            creator=alice, game="launchpad23", seats=2, options={}, time_limit_days=3, is_private=False, bots=("mcts",)
        )
    game.refresh_from_db()
    assert Commitment.objects.filter(game=game).count() == 1 and game.ply == 0
    assert game.to_move == "red,yellow" and game.bot_due_at is None  # the bot is not asked again
    with django_capture_on_commit_callbacks(execute=True):
        pick(game, "red", "S")
    game.refresh_from_db()
    assert game.moves.filter(notation__startswith="start").count() == 2 and not Commitment.objects.exists()


# ----------------------------------------------------------------------------- a turn, emails, the archive


def test_a_line_of_several_steps_is_recorded_step_by_step(alice, bob) -> None:
    game = play(opened(alice, bob), lambda g: services.state_of(g).phase == "move")
    state = services.state_of(game)
    colour = game.to_move
    legal = [str(m) for m in GAME.legal_moves(state, colour) if str(m) not in ("failure", "pass", "resign")]
    before = game.ply
    services.move_submit(game=game, user=user_of(game, colour), text=f"{legal[0]}; pass", seen_ply=game.ply)
    game.refresh_from_db()
    assert [m.notation for m in game.moves.filter(ply__gte=before)] == [legal[0], "pass"]
    assert game.to_move != colour


def test_the_page_lists_each_step_with_its_click_path(client, alice, bob) -> None:
    game = play(opened(alice, bob), lambda g: services.state_of(g).phase == "move")
    client.force_login(user_of(game, game.to_move))
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "kd-board" in page and "pyramid die" in page and "The Bank" in page
    data = json.loads(re.search(r'<script[^>]*id="zc-play-data"[^>]*>(.*?)</script>', page, re.S).group(1))
    assert {s["text"] for s in data["steps"]} == set(data["moves"])
    shifts = [s for s in data["steps"] if s["text"][0] in "SML"]
    assert shifts and all(len(s["path"]) == 2 and s["path"][1] == s["text"][-2:] for s in shifts)
    assert all(f'data-target="{s["path"][0]}"' in page for s in shifts)


def test_turn_emails_carry_the_picture_and_the_throw_and_a_reply_plays_a_line(
    alice, bob, eager, django_capture_on_commit_callbacks, settings
) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    with django_capture_on_commit_callbacks(execute=True):
        game = play(opened(alice, bob), lambda g: g.ply >= 6 and services.state_of(g).phase == "move")
    email = mail.outbox[-1]
    [image] = [p for p in email.attachments if getattr(p, "get", lambda _: "")("Content-ID") == "<board>"]
    assert image.get_payload(decode=True).startswith(b"\x89PNG")
    assert "throws" in email.body and "pyramid die:" in email.body and "colour die:" in email.body
    colour = game.to_move
    state = services.state_of(game)
    first = next(str(m) for m in GAME.legal_moves(state, colour) if str(m)[0] in "SML")
    user = user_of(game, colour)
    to = replies.turn_reply_address(game=game, user=user)
    before = game.ply
    with django_capture_on_commit_callbacks(execute=True):
        raw = mails.gmail(f"{first}; pass", sender=user.email, to=to)
        inbox.inbound_accept(raw=raw, source="pipe", envelope_to=[to])
    game.refresh_from_db()
    assert [m.notation for m in game.moves.filter(ply__gte=before)] == [first, "pass"]


def test_a_finished_game_replays_every_throw_verifies_and_reads_through_the_api(client, alice, bob) -> None:
    game = play(opened(alice, bob), lambda g: g.status == Game.Status.FINISHED)
    assert game.result_reason == "rocket"
    log = client.get(reverse("game_log", args=[game.pk])).content.decode()
    state = services.state_of(game)
    assert log.count(" throws ") == state.dice // 2  # every throw of the game, re-throws included
    replay = client.get(reverse("replay", args=[game.pk, 2])).content.decode()
    assert "opening pieces:" in replay and "throws" in replay
    verify = client.get(reverse("game_verify", args=[game.pk]))
    assert verify.context["check"].ok and "verify_launchpad23.py" in verify.content.decode()
    ratings = PlayerRating.objects.filter(game_type="launchpad23")
    assert ratings.count() == 2 and ratings.get(user=user_of(game, game.winners[0])).wins == 1
    record = json.loads(client.get(reverse("game_record", args=[game.pk])).content)
    assert record["format"] == "launchpad23-game/1" and GAME.replay(record).reason == "rocket"
    assert verifier.verify(record, game.seed_commitment).startswith("verified")
    answer = ApiClient(secret_for(alice)).get(f"/games/{game.pk}")
    assert answer.status_code == 200 and answer.json()["game"] == "launchpad23"

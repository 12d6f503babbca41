"""Black ICE through the apps, which know no game: the lobby starts it, steps go through `move_submit`
(up to three actions a turn, the dice thrown by the engine), the page hands the kit's click script each
step with its click path, turn emails carry the picture, a reply plays a `;` line, a bot answers, and a
finished game replays every throw and, then, every Code, verifies, reads through the API and is rated."""

from __future__ import annotations

import json

import pytest
from django.core import mail
from django.urls import reverse

from archive.models import PlayerRating
from engine.blackice.game import GAME
from engine.blackice.state import State
from games import services
from games.models import Game
from replies import inbox
from tests.api.conftest import ApiClient, secret_for
from tests.engine.test_blackice_golden import choose
from tests.replies import mails
from tests.replies.helpers import answers_to, reply_address, start
from tests.service.test_board_page import logged_in, play_data
from tests.service.test_pharaoh_service import mover, seat_user, step

pytestmark = pytest.mark.django_db


def state_of(game: Game) -> State:
    game.refresh_from_db()
    state: State = services.state_of(game)
    return state


def play_out(game: Game, limit: int = 400) -> Game:
    """To the end by the golden playthroughs' policy (it declares when the Keys match the Codes)."""
    for _ in range(limit):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        step(game, str(choose(state_of(game), game.ply, rash=False)))
    return game


def test_the_lobby_offers_it_and_starts_a_two_player_game_with_the_first_throw(client, alice, bob) -> None:
    client.force_login(alice)
    assert "Black ICE" in client.get(reverse("game_new")).content.decode()
    game = start("blackice", alice, bob)
    state = state_of(game)
    assert game.status == Game.Status.ACTIVE and str(game) == f"Black ICE #{game.pk}"
    assert mover(game) == state.first_player and len(state.throw) == 3 and state.draws == 3


def test_actions_of_one_turn_keep_the_turn_and_pass_hands_it_on(alice, bob) -> None:
    game = start("blackice", alice, bob)
    first = mover(game)
    step(game, "peek 1" if "tip" in state_of(game).actions or "wild" in state_of(game).actions else "swap locks 1 2")
    assert mover(game) == first and game.moves.count() == 1
    step(game, "pass")
    assert mover(game) != first and state_of(game).draws == 6


def test_the_game_page_draws_the_board_with_each_steps_click_path(alice, bob) -> None:
    game = start("blackice", alice, bob)
    client = logged_in(seat_user(game, mover(game)))
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'data-target="lock:1"' in page and 'data-target="supply:red"' in page and 'data-target="node:2"' in page
    assert "swap locks 1 3" in page  # the notation help
    assert "How to play Black ICE" in page and "Three Codes hide under the Locks" in page
    data = play_data(client, game)
    steps = {step["text"]: step["path"] for step in data["steps"]}
    assert data["module"].endswith("js/kit_board.js") and list(steps) == data["moves"]
    assert steps["swap locks 1 3"] == ["lock:1", "lock:3"] and steps["pass"] == []
    for text, path in steps.items():
        assert path or text in ("pass", "declare", "resign"), text  # every action is made by clicks
    other = logged_in(seat_user(game, state_of(game).opponent(mover(game))))
    assert play_data(other, game)["steps"] == [] or all(not s["path"] for s in play_data(other, game)["steps"])


def test_a_turn_email_carries_the_picture_and_the_throw(alice, bob, eager, django_capture_on_commit_callbacks) -> None:
    game = start("blackice", alice, bob)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        step(game, "pass")
    address = seat_user(game, mover(game)).email
    to_next = [m for m in mail.outbox if any(address in to for to in m.to)]
    assert to_next, "no turn email"
    email = to_next[-1]
    [image] = [p for p in email.attachments if getattr(p, "get", lambda _: "")("Content-ID") == "<board>"]
    assert image.get_payload(decode=True).startswith(b"\x89PNG")
    assert "throws" in email.body and "Lock 1: hidden" in email.body


def test_a_reply_line_of_several_steps_plays_each_as_its_own_move(
    alice, bob, eager, django_capture_on_commit_callbacks, settings
) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    game = start("blackice", alice, bob)
    colour = mover(game)
    before = state_of(game)
    first = next(str(m) for m in GAME.legal_moves_of(before, colour) if m.verb == "swap")
    line = f"{first.upper()}; pass"
    user = seat_user(game, colour)
    to = reply_address(game, user)
    raw = mails.gmail(line, sender=user.email, to=to)
    with django_capture_on_commit_callbacks(execute=True):
        inbox.inbound_accept(raw=raw, source="pipe", envelope_to=[to])
    game.refresh_from_db()
    assert list(game.moves.order_by("ply").values_list("notation", flat=True)) == [first, "pass"]
    assert mover(game) != colour and len(answers_to(raw)) == 1


def test_the_kit_bots_answer_in_their_seat(alice, eager, django_capture_on_commit_callbacks) -> None:
    """Alice passes each turn; the MCTS bot (the kit's, on a small budget) plays its own, by the Celery
    task her move queues, until the game ends or she has passed ten times."""
    with django_capture_on_commit_callbacks(execute=True):
        game = services.game_create(
            creator=alice, game="blackice", seats=2, options={}, time_limit_days=3, is_private=False, bots=("mcts",)
        )
    bot_moves = 0
    for _ in range(10):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        assert seat_user(game, mover(game)) == alice, "the bot has played its turn"
        with django_capture_on_commit_callbacks(execute=True):
            step(game, "pass")
        bot_moves = game.moves.exclude(seat__user=alice).count()
    assert bot_moves > 0


def test_a_finished_game_replays_every_throw_and_code_verifies_reads_through_the_api_and_is_rated(
    client, alice, bob
) -> None:
    game = play_out(start("blackice", alice, bob))
    assert game.status == Game.Status.FINISHED
    state = state_of(game)
    assert state.outcome is not None and state.outcome.reason == "declaration"
    replay = client.get(reverse("replay", args=[game.pk, game.ply])).content.decode()
    for place, lock in enumerate(state.locks, 1):
        assert f"Lock {place}: {lock.code}" in replay  # every Code, after the game
    log = client.get(reverse("game_log", args=[game.pk])).content.decode()
    assert log.count("throws") == state.turn - 1  # every throw after the first (the deal's: the replay's ply 0)
    deal = client.get(reverse("replay", args=[game.pk, 0])).content.decode()
    assert f"Threw {' '.join(GAME.new_game(state.players, state.seed, {}).throw)}" in deal
    assert "peeked Lock" in log and ": actions" in log
    peeks = [m for m in game.moves.all() if m.notation.startswith("peek")]
    assert peeks and all(f"{m.seat.colour} peeked Lock {m.notation[-1]}: " in log for m in peeks)  # each Code peeked
    record = json.loads(client.get(reverse("game_record", args=[game.pk])).content)
    assert record["format"] == "blackice-game/1" and GAME.replay(record) == state
    verify = client.get(reverse("game_verify", args=[game.pk])).content.decode()
    assert state.seed in verify and "verify_blackice.py" in verify
    api = ApiClient(secret_for(alice))
    answer = api.get(f"/games/{game.pk}")
    assert answer.status_code == 200 and answer.json()["game"] == "blackice"
    assert {r.game_type for r in PlayerRating.objects.filter(user__in=[alice, bob])} == {"blackice"}

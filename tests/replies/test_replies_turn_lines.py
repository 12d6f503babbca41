"""A whole turn by email: the reply's first line may join a game's steps with `;` (a game on the kit
with `play_line`); every step is played, each its own move, or none is."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games import services as games
from games.models import Game
from tests.replies import mails
from tests.replies.helpers import answers_to, mover, reply_address, start

pytestmark = pytest.mark.django_db


def _web(game: Game, text: str) -> None:
    colour = mover(game)
    games.move_submit(game=game, user=game.seats.get(colour=colour).user, text=text, seen_ply=game.ply)


def _reply(game: Game, deliver, line: str) -> tuple[User, bytes]:
    user = game.seats.get(colour=mover(game)).user
    to = reply_address(game, user)
    raw = mails.gmail(line, sender=user.email, to=to)
    deliver(raw, to=to)
    return user, raw


def _at_third_turn(alice: User, bob: User) -> Game:
    game = start("homeworlds", alice, bob)
    for text in ("homeworld y2 b1 g3", "homeworld r1 b2 y3", "build g1 North", "trade y3 g3 South"):
        _web(game, text)
    game.refresh_from_db()
    return game


def test_a_line_of_steps_by_reply_plays_them_all(alice, bob, deliver):
    game = _at_third_turn(alice, bob)
    before = game.ply
    _, raw = _reply(game, deliver, "sacrifice g1 north; build g1 North; done")
    game.refresh_from_db()
    played = [move.notation for move in game.moves.filter(ply__gte=before).order_by("ply")]
    assert played == ["sacrifice g1 North", "build g1 North"]
    assert "Played" in answers_to(raw)[0].body


def test_a_line_with_a_refused_step_plays_none(alice, bob, deliver):
    game = _at_third_turn(alice, bob)
    before = game.ply
    _, raw = _reply(game, deliver, "sacrifice g1 North; build b1 North")
    game.refresh_from_db()
    assert game.ply == before
    assert "step 2" in answers_to(raw)[0].body

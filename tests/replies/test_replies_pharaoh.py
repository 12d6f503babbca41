"""Pharaoh by email reply: the first line is the step (several steps a turn, the die thrown by the engine)."""

from __future__ import annotations

import pytest

from tests.replies import mails
from tests.replies.helpers import answers_to, mover, reply_address, start, state

pytestmark = pytest.mark.django_db


def test_a_reply_plays_a_step_and_the_next_seat_throws(alice, bob, deliver) -> None:
    game = start("pharaoh", alice, bob)
    colour = mover(game)
    user = game.seats.get(colour=colour).user
    to = reply_address(game, user)
    raw = mails.gmail("PASS", sender=user.email, to=to)
    deliver(raw, to=to)
    game.refresh_from_db()
    assert game.moves.get().notation == "pass" and mover(game) != colour
    assert state(game).dice == 2
    assert "Pharaoh" in answers_to(raw)[0].body


def test_an_illegal_step_by_reply_names_the_rule(alice, bob, deliver) -> None:
    game = start("pharaoh", alice, bob)
    colour = mover(game)
    user = game.seats.get(colour=colour).user
    to = reply_address(game, user)
    raw = mails.gmail("enter S c3", sender=user.email, to=to)
    deliver(raw, to=to)
    game.refresh_from_db()
    assert game.ply == 0 and "c3 is not on your edge" in answers_to(raw)[0].body

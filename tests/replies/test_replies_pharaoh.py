"""Pharaoh by email reply: the first line is the step (several steps a turn, the die thrown by the engine)."""

from __future__ import annotations

import pytest

from engine.pharaoh.game import GAME
from engine.pharaoh.notation import Enter
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


def test_a_reply_line_of_several_steps_plays_each_as_its_own_move(alice, bob, deliver) -> None:
    game = start("pharaoh", alice, bob)
    colour = mover(game)
    before = state(game)
    entries = [m for m in GAME.legal_moves(before, colour) if isinstance(m, Enter) and m.size == "S"]
    line = f"{entries[0]}; pass"  # the pass ends the turn, or is dropped if the entry used every point
    user = game.seats.get(colour=colour).user
    to = reply_address(game, user)
    raw = mails.gmail(line.upper(), sender=user.email, to=to)
    deliver(raw, to=to)
    game.refresh_from_db()
    played = list(game.moves.order_by("ply").values_list("notation", flat=True))
    assert played[0] == str(entries[0]) and played[1:] in ([], ["pass"]) and mover(game) != colour
    assert len(answers_to(raw)) == 1

"""An email reply's first line may carry several steps (`draw; discard ...`), as on the web: both
played, or none with the refused step named in the answer."""

from __future__ import annotations

import pytest

from tests.replies import mails
from tests.replies.helpers import answers_to, reply_address, start
from tests.service.gameplay import before_a_full_hand, user_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def full_hand(alice, bob):
    return before_a_full_hand(start("zarkcity", alice, bob))


def test_a_first_line_of_two_steps_plays_both(full_hand, deliver):
    game, colour, discard = full_hand
    user = user_of(game, colour)
    to, ply = reply_address(game, user), game.ply
    raw = mails.gmail(f"draw; {discard}", sender=user.email, to=to)
    deliver(raw, to=to)
    assert list(game.moves.filter(ply__gte=ply).values_list("notation", flat=True)) == ["draw", discard]
    (answer,) = answers_to(raw)
    assert f"Played: draw; {discard}." in answer.body and not answer.reply_to


def test_a_refused_second_step_plays_nothing_and_says_which(full_hand, deliver):
    game, colour, discard = full_hand
    user = user_of(game, colour)
    to, ply = reply_address(game, user), game.ply
    too_few = " ".join(discard.split()[:-1])
    raw = mails.gmail(f"draw; {too_few}", sender=user.email, to=to)
    deliver(raw, to=to)
    game.refresh_from_db()
    assert game.ply == ply
    (answer,) = answers_to(raw)
    assert "was not played" in answer.body and f"step 2 ({too_few})" in answer.body

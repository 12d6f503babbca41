"""A line of several steps through the API: `draw; discard ...` plays both, the answer is the last
step; a refused step is 400 naming it, and nothing is played."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.service.gameplay import before_a_full_hand, start_game, user_of

pytestmark = pytest.mark.django_db


def test_a_line_plays_every_step_and_answers_with_the_last(api_as, alice, bob):
    game, colour, discard = before_a_full_hand(start_game(alice, bob))
    ply = game.ply
    answer = api_as(user_of(game, colour)).post(f"/games/{game.pk}/moves", {"move": f"draw; {discard}", "ply": ply})
    assert answer.status_code == 200
    body = answer.json()
    assert (body["ply"], body["move"], body["game_ply"], body["your_turn"]) == (ply + 1, discard, ply + 2, False)
    assert list(game.moves.filter(ply__gte=ply).values_list("notation", flat=True)) == ["draw", discard]


def test_a_refused_step_is_400_naming_it(api_as, alice, bob):
    game, colour, discard = before_a_full_hand(start_game(alice, bob))
    ply = game.ply
    line = f"draw; {discard}; draw"
    answer = api_as(user_of(game, colour)).post(f"/games/{game.pk}/moves", {"move": line, "ply": ply})
    assert answer.status_code == 400 and answer.json()["code"] == "illegal_move"
    assert "step 3 (draw)" in answer.json()["message"]
    assert Game.objects.get(pk=game.pk).ply == ply

"""Homeworlds through the service: created with its options, a few turns played by move_submit (a
turn of several steps joined by `;` among them), and its page handing the click script each step."""

from __future__ import annotations

import pytest

from games import services
from games.models import Move
from tests.service.gameplay import mover, start_game, user_of
from tests.service.test_board_page import logged_in, play_data

pytestmark = pytest.mark.django_db


def _submit(game, text: str) -> None:
    game.refresh_from_db()
    services.move_submit(game=game, user=user_of(game, mover(game)), text=text, seen_ply=game.ply)
    game.refresh_from_db()


def test_a_few_turns_by_move_submit_with_a_line_of_steps(alice, bob):
    game = start_game(alice, bob, game="homeworlds", catastrophes="end", suicide="illegal", setup="standard")
    assert game.options == {"catastrophes": "end", "suicide": "illegal", "setup": "standard"}
    first = mover(game)
    _submit(game, "homeworld y2 b1 g3")
    _submit(game, "Homeworld R1 B2 Y3")
    _submit(game, "build g1 north")  # the turn ends by itself: no action is left
    assert mover(game) != first
    _submit(game, "trade y3 g3 South")
    _submit(game, "sacrifice g1 North; build g1 North; done")  # the trailing `done` is dropped
    game.refresh_from_db()
    notations = list(Move.objects.filter(game=game).order_by("ply").values_list("notation", flat=True))
    assert notations == [
        "homeworld y2 b1 g3",
        "homeworld r1 b2 y3",
        "build g1 North",
        "trade y3 g3 South",
        "sacrifice g1 North",
        "build g1 North",
    ]
    assert mover(game) != first
    state = services.state_of(game)
    north = state.system("North")
    assert north is not None and sorted(north.ships[state.seat(first)]) == ["g1", "g3"]


def test_the_page_hands_each_step_its_click_path_on_the_star_map(alice, bob):
    game = start_game(alice, bob, game="homeworlds")
    _submit(game, "homeworld y2 b1 g3")
    _submit(game, "homeworld r1 b2 y3")
    game.refresh_from_db()
    client = logged_in(user_of(game, mover(game)))
    data = play_data(client, game)
    assert data["module"].endswith("js/kit_board.js")
    steps = {step["text"]: step["path"] for step in data["steps"]}
    assert steps["build g1 North"] == ["bank:g1", "system:north"]
    assert steps["done"] == [] if "done" in steps else steps["pass"] == []
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert 'data-target="system:south"' in html and 'data-target="bank"' in html

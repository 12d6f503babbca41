"""A game on the kit with a scene, on the real game page: its board is the kit's interactive SVG and
the page data hands the kit's click script each legal step with its click path. The tiny game
(tests/engine/kit_tiny.py) is registered for these tests only."""

from __future__ import annotations

import pytest
from django.test import Client

from engine import registry
from tests.service.gameplay import mover, start_game, user_of
from tests.service.test_board_page import logged_in, play_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def tiny(monkeypatch):
    monkeypatch.setitem(registry._MODULES, "tiny", "tests.engine.kit_tiny")
    monkeypatch.setattr(registry, "_loaded", dict(registry._loaded))
    return "tiny"


def test_the_page_hands_the_kit_script_each_step_and_its_click_path(alice, bob, tiny):
    game = start_game(alice, bob, game=tiny)
    colour = mover(game)
    client = logged_in(user_of(game, colour))
    data = play_data(client, game)
    assert data["module"].endswith("js/kit_board.js")
    steps = {step["text"]: step["path"] for step in data["steps"]}
    assert list(steps) == data["moves"]
    assert steps["enter S a1"] == ["supply:S", "a1"] and steps["pass"] == []
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert 'data-target="supply:S"' in html and 'data-target="b2"' in html


def test_a_spectator_and_a_waiting_player_get_no_steps(alice, bob, tiny):
    game = start_game(alice, bob, game=tiny)
    waiting = next(seat.colour for seat in game.seats.all() if seat.colour != mover(game))
    assert play_data(logged_in(user_of(game, waiting)), game)["steps"] == []
    assert play_data(Client(), game)["steps"] == []

"""The move panel is written in Python (`{% move_panel %}`, games/templatetags/zarkcity_panels.py): the
same HTML, byte for byte, as the template it replaced (kept here as reference/move_panel.html), in every
game, at many plies, with a refused move's error and typed text, and in the step that ticks cards. So is
"How to play"'s list of the notation (`notation_terms`), against its template loop."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.template import Context, Template
from django.urls import reverse

from engine import registry
from games import services
from games.models import Game
from tests.service.gameplay import mover, start_game, user_of

pytestmark = pytest.mark.django_db

REFERENCE = Template((Path(__file__).parent / "reference" / "move_panel.html").read_text())
WRITTEN = Template("{% load zarkcity_panels %}{% move_panel %}")
PLIES = 14  # each game's first plies: setup steps, one-click buttons, long lists, ticking cards in hand


def both(response) -> tuple[str, str]:
    """The panel as the reference template writes it and as the tag does, from the page's own context."""
    names = ("g", "game", "move_form", "move_error", "rules", "csrf_token")
    context = {name: response.context[name] for name in names}
    return REFERENCE.render(Context(context)), WRITTEN.render(Context(context))


def check_page(client, game: Game, user) -> bool:
    """Whether `user`'s page shows the panel (it is their move): then as the template wrote it."""
    client.force_login(user)
    response = client.get(reverse("game_detail", args=[game.pk]))
    assert response.status_code == 200
    if not response.context["g"].my_move:
        return False
    reference, written = both(response)
    assert written == reference
    assert written in response.content.decode()
    return True


@pytest.mark.parametrize("game_id", registry.ids())
def test_the_panel_is_the_templates_in_every_game(client, alice, bob, game_id):
    game = start_game(alice, bob, game=game_id, **({"deck": "standard"} if game_id == "zarkcity" else {}))
    panels = 0
    for number in range(PLIES):
        game.refresh_from_db()
        # Whoever the page asks to move (in a sealed step, the one who has not chosen yet).
        player = next((user for user in (alice, bob) if check_page(client, game, user)), None)
        if player is None:
            break
        panels += 1
        colour = user_seat(game, player)
        rules = game.rules
        moves = [m for m in rules.legal_moves(services.state_of(game), colour) if not rules.is_resign(m)]
        services.move_submit(game=game, user=player, text=str(moves[number % len(moves)]), seen_ply=game.ply)
    assert panels > 1


def user_seat(game: Game, user) -> str:
    return game.seats.get(user=user).colour


@pytest.mark.parametrize("game_id", registry.ids())
def test_how_to_play_lists_the_notation_as_the_loop_did(game_id):
    context = Context({"rules": registry.get(game_id)})
    loop = Template(
        "{% for example, meaning in rules.notation_help %}"
        "<dt><code>{{ example }}</code></dt><dd>{{ meaning }}</dd>{% endfor %}"
    )
    assert Template("{% load zarkcity_panels %}{{ rules|notation_terms }}").render(context) == loop.render(context)


def test_a_refused_move_keeps_its_error_and_text_alike(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)
    typed = 'build <b>"7H"</b> & 0,1'
    response = client.post(reverse("game_move", args=[game.pk]), {"text": typed, "seen_ply": game.ply})
    assert response.status_code == 400
    reference, written = both(response)
    assert written == reference
    assert "&lt;b&gt;" in written and "<b>" not in written


def test_the_discard_step_ticks_cards_alike(client, alice, bob):
    game = start_game(alice, bob)
    for _ in range(40):  # draws until someone holds more than the hand limit
        game.refresh_from_db()
        if game.snapshot["phase"] == "discard":
            break
        colour = mover(game)
        rules = game.rules
        moves = [str(m) for m in rules.legal_moves(services.state_of(game), colour) if not rules.is_resign(m)]
        text = "draw" if "draw" in moves else moves[0]
        services.move_submit(game=game, user=user_of(game, colour), text=text, seen_ply=game.ply)
    assert game.snapshot["phase"] == "discard"
    client.force_login(user_of(game, mover(game)))
    response = client.get(reverse("game_detail", args=[game.pk]))
    reference, written = both(response)
    assert written == reference and 'name="pick_cards"' in written
    assert written in response.content.decode()

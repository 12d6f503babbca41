"""The game page's parts written in Python (games/templatetags/zarkcity_panels.py) leave the page as it was:
the whole page, byte for byte, against the page's template with each of those tags put back as the
template it replaced (kept in reference/), rendered from the page's own context, for every kind of
viewer and many positions: the player to move, the one waiting, a signed-in stranger, an anonymous
visitor; with chat, a draw offer, days away, a muted game, a private game, finished games, and every
game's first plies."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.template import Context, Template
from django.test import Client
from django.urls import reverse

from engine import registry
from games import services
from games.models import Game
from notifications import services as notify
from notifications.mutes import game_mute
from tests.service.gameplay import mover, play_plies, start_game, user_of

pytestmark = pytest.mark.django_db

REFERENCE = Path(__file__).parent / "reference"
TEMPLATES = Path(__file__).parents[2] / "templates"
# Each tag, and the template it replaced: its template file (an include) or its text in the page.
PUT_BACK = {
    "{% move_panel %}": "{% include reference_move_panel %}",
    "{% status_banner %}": (REFERENCE / "status_banner.html").read_text().rstrip("\n"),
    "{% seat_rows %}": (REFERENCE / "seat_rows.html").read_text().rstrip("\n"),
    "{{ rules|notation_terms }}": "{% for example, meaning in rules.notation_help %}"
    "<dt><code>{{ example }}</code></dt><dd>{{ meaning }}</dd>{% endfor %}",
}
INCLUDED = {
    "reference_move_panel": Template((REFERENCE / "move_panel.html").read_text()),
    "reference_next_game": Template((REFERENCE / "next_game.html").read_text()),
}


def page_before() -> Template:
    text = (TEMPLATES / "games" / "game.html").read_text()
    for tag, before in PUT_BACK.items():
        assert text.count(tag) == 1, tag
        text = text.replace(tag, before)
    return Template(text)


PAGE = page_before()


def as_before(client: Client, game: Game, query: str = "") -> str:
    """The page through the client, after checking it is what the template before wrote from its context."""
    response = client.get(reverse("game_detail", args=[game.pk]) + query)
    assert response.status_code == 200
    context = response.context[0].flatten() | INCLUDED
    html = response.content.decode()
    assert html == PAGE.render(Context(context))
    return html


def every_viewer(game: Game, *users, anonymous: bool = True) -> None:
    for user in users:
        client = Client()
        client.force_login(user)
        as_before(client, game)
    if anonymous:
        as_before(Client(), game)


def test_zark_city_for_every_viewer_as_it_goes(alice, bob, charlie):
    game = start_game(alice, bob)
    for plies in (0, 2, 5, 9, 14):
        game = play_plies(game, plies - game.ply) if plies > game.ply else game
        every_viewer(game, alice, bob, charlie)


def test_chat_a_draw_offer_days_away_and_a_muted_game(alice, bob, charlie):
    game = play_plies(start_game(alice, bob), 4)
    services.chat_post(game=game, user=alice, text='<b>"hello"</b> & good luck')
    services.draw_propose(game=game, user=user_of(game, mover(game)))
    today = game.started_at.date()
    notify.away_add(user=bob, first_day=today, last_day=today + timedelta(days=2), today=today)
    game_mute(user=alice, game=game)
    game.refresh_from_db()
    every_viewer(game, alice, bob, charlie)
    client = Client()
    client.force_login(alice)
    as_before(client, game, "?history=all")


def test_a_private_game_and_finished_games(alice, bob, charlie):
    game = start_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(is_private=True)
    game.refresh_from_db()
    every_viewer(game, alice, bob, anonymous=False)
    services.player_resign(game=game, user=bob)
    game.refresh_from_db()
    every_viewer(game, alice, bob, anonymous=False)  # the share link shows to its players
    abandoned = play_plies(start_game(alice, charlie), 3)
    services.game_abandon(game=abandoned)
    every_viewer(abandoned, alice, charlie, bob)
    drawn = play_plies(start_game(bob, charlie), 3)
    services.draw_propose(game=drawn, user=bob)
    services.draw_accept(game=drawn, user=charlie)
    drawn.refresh_from_db()
    assert drawn.status == Game.Status.FINISHED
    every_viewer(drawn, bob, charlie, alice)


@pytest.mark.parametrize("game_id", registry.ids())
def test_every_games_first_plies(alice, bob, charlie, game_id):
    game = start_game(alice, bob, game=game_id, **({"deck": "arcade"} if game_id == "zarkcity" else {}))
    for number in range(6):
        game.refresh_from_db()
        every_viewer(game, alice, bob, charlie)
        if game.status != Game.Status.ACTIVE:
            break
        player = next((u for u in (alice, bob) if game.seats.get(user=u).colour in game.to_move.split(",")), None)
        if player is None:
            break
        colour = game.seats.get(user=player).colour
        rules = game.rules
        moves = [m for m in rules.legal_moves(services.state_of(game), colour) if not rules.is_resign(m)]
        try:
            services.move_submit(game=game, user=player, text=str(moves[number % len(moves)]), seen_ply=game.ply)
        except services.PlayError:
            break  # a sealed choice made already: the page was checked

"""The clickable board's server side: the legal-move JSON on the game page, the frontier slots of the
interactive board, and ply.json, which open pages poll. (The clicking itself: tests/browser.)"""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from engine.zarkcity.movegen import legal_moves
from engine.zarkcity.picture import frontier, render_board_svg
from games import services
from games.models import Game
from tests.service.gameplay import mover, play_plies, start_game, user_of
from tests.service.test_hidden_information import CARD

pytestmark = pytest.mark.django_db
PLAY_KEYS = {"ply", "viewer", "phase", "active", "moves", "discard", "starter", "page_url", "ply_url", "poll_seconds"}
PLAY_KEYS |= {"module", "labels", "pips"}  # the game's board script and how the viewer's own cards read
PLAY_KEYS |= {"movers"}  # public: who may move in the shown position (as ply.json says)
PLAY_KEYS |= {"waited_on"}  # public: whom the game waits on, ply.json's `movers`, to notice a sealed choice
PLAY_KEYS |= {"handLimit", "drawCards"}  # the game's hand limit and draw, which prompts and buttons name: public
PLAY_KEYS |= {"title", "unwatched_url"}  # the page's own tab title, for when no game waits for the viewer
PLAY_KEYS |= {"steps"}  # the viewer's legal steps with their click paths, for a board of the drawing kit
PLAY_DATA = re.compile(r'<script id="zc-play-data" type="application/json">(.*?)</script>', re.S)


def play_data(client: Client, game: Game) -> dict:
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    found = PLAY_DATA.search(html)
    assert found, "the page embeds its play data"
    return json.loads(found.group(1))


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_page_embeds_exactly_the_engine_moves_of_the_viewer(alice, bob):
    game = play_plies(start_game(alice, bob), 12)
    colour = mover(game)
    data = play_data(logged_in(user_of(game, colour)), game)
    expected = [
        str(m) for m in legal_moves(services.state_of(game), colour)
    ]  # the rules' moves: resigning is the kit's step
    assert data["moves"] == expected and expected
    assert (data["ply"], data["viewer"], data["phase"], data["active"]) == (game.ply, colour, game.phase, True)
    assert data["ply_url"] == reverse("game_ply", args=[game.pk])
    assert data["page_url"] == reverse("game_detail", args=[game.pk])


def test_players_waiting_and_spectators_get_no_moves(alice, bob):
    game = play_plies(start_game(alice, bob), 12)
    waiting = "red" if mover(game) == "yellow" else "yellow"
    assert play_data(logged_in(user_of(game, waiting)), game)["moves"] == []
    spectator = play_data(Client(), game)
    assert spectator["moves"] == [] and spectator["viewer"] is None


@pytest.mark.parametrize("plies", [0, 1, 3, 9, 40])
def test_the_move_json_names_no_card_but_the_viewers_own_and_the_public_ones(alice, bob, plies):
    """Every card the embedded moves name is in the viewer's hand or on the board (a move's only cards)."""
    game = play_plies(start_game(alice, bob), plies)
    position = game.snapshot
    on_board = {entry["card"] for entry in position["board"]}
    for seat in game.seats.select_related("user"):
        data = play_data(logged_in(seat.user), game)
        named = set(CARD.findall(" ".join(data["moves"])))
        assert named <= set(position["hands"][seat.colour]) | on_board, seat.colour
        others = {card for colour, hand in position["hands"].items() if colour != seat.colour for card in hand}
        assert not named & (others | set(position["deck"])) - set(position["hands"][seat.colour])
        assert set(data) == PLAY_KEYS


def test_the_discard_step_says_how_many_cards(alice, bob):
    game = start_game(alice, bob)
    for _ in range(400):
        if game.phase == "discard":
            break
        game = play_plies(game, 1)
    colour = mover(game)
    data = play_data(logged_in(user_of(game, colour)), game)
    assert data["discard"] == len(game.snapshot["hands"][colour]) - 6 > 0
    assert all(move.startswith("discard ") for move in data["moves"])


def test_the_interactive_board_draws_the_frontier_as_slots():
    view = {
        "deck_type": "standard",
        "board": [{"at": [0, 0], "card": "7H", "pieces": {"red": "S"}}, {"at": [1, 0], "card": "8S", "pieces": {}}],
    }
    svg = render_board_svg(view, interactive=True)
    slots = re.findall(r'<g class="zc-slot" data-cell="([^"]+)"', svg)
    assert sorted(slots) == sorted(["-1,0", "2,0", "0,-1", "1,-1", "0,1", "1,1"])
    assert frontier([(0, 0), (1, 0)]) == [(0, -1), (1, -1), (-1, 0), (2, 0), (0, 1), (1, 1)]
    assert 'data-cell="0,0" data-card="7H"' in svg
    assert '<g class="zc-piece" data-colour="red" data-size="S" data-cell="0,0"' in svg
    assert "zc-slot" not in render_board_svg(view)  # the mailed and served picture stays plain


def test_the_game_page_board_has_slots_until_the_game_ends(alice, bob):
    game = play_plies(start_game(alice, bob), 6)
    client = logged_in(alice)
    assert 'class="zc-slot"' in client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'class="zc-slot"' not in client.get(reverse("game_board_svg", args=[game.pk])).content.decode()
    services.player_resign(game=game, user=bob)
    assert 'class="zc-slot"' not in client.get(reverse("game_detail", args=[game.pk])).content.decode()


def test_ply_json_tells_an_open_page_who_moved(alice, bob):
    game = start_game(alice, bob)
    url = reverse("game_ply", args=[game.pk])
    first = Client().get(url)
    assert "no-store" in first["Cache-Control"]
    assert first.json() == {"ply": 0, "status": "active", "movers": ["red", "yellow"], "moved": []}
    game = play_plies(game, 3)
    since_1 = list(game.moves.filter(ply__gte=1).order_by("ply").values_list("seat__colour", flat=True))
    assert len(since_1) == 2
    assert Client().get(url, {"since": 1}).json() == {
        "ply": 3,
        "status": "active",
        "movers": [mover(game)],
        "moved": since_1,
    }
    assert Client().get(url, {"since": "junk"}).json()["moved"] == []
    services.player_resign(game=game, user=alice)
    done = Client().get(url).json()
    assert done["status"] == "finished" and done["movers"] == []


def test_ply_json_of_a_private_game_is_for_its_players(alice, bob, charlie):
    game = services.game_create(
        creator=alice, seats=2, game="zarkcity", options={"deck": "standard"}, time_limit_days=3, is_private=True
    )
    services.invitation_create(game=game, invited_by=alice, username="bob")
    services.game_join(game=game, user=bob)
    url = reverse("game_ply", args=[game.pk])
    assert Client().get(url).status_code == 404
    assert logged_in(charlie).get(url).status_code == 404
    assert logged_in(bob).get(url).json()["ply"] == 0


def test_the_poll_of_a_public_game_reads_the_game_and_its_moves_and_no_session(alice, bob):
    """Every open page polls every few seconds: a public game's answer needs no session, no user."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    game = play_plies(start_game(alice, bob), 2)
    client = logged_in(alice)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("game_ply", args=[game.pk]), {"since": 1}).json()["ply"] == 2
    tables = [re.findall(r'FROM "(\w+)"', query["sql"])[:1] for query in queries.captured_queries]
    assert tables == [["games_game"], ["games_move"]]


def test_the_page_loads_the_board_script_as_a_module(alice, bob):
    html = logged_in(alice).get(reverse("game_detail", args=[start_game(alice, bob).pk])).content.decode()
    assert '<script type="module" src="/static/js/game_page.js"></script>' in html
    assert 'id="zc-builder"' in html and "hidden" in html[html.index('id="zc-builder"') :][:200]


@pytest.mark.parametrize("interactive", [False, True])
def test_every_coordinate_label_lies_inside_the_viewbox(interactive):
    board = [{"at": [x, y], "card": "7H", "pieces": {}} for x in range(-2, 6) for y in (-1, 0) if (x + y) % 3]
    board += [{"at": [x, 0], "card": "2C", "pieces": {}} for x in range(-2, 6) if not x % 3]
    svg = render_board_svg({"deck_type": "standard", "board": board}, interactive=interactive)
    left, top, width, height = (float(n) for n in re.search(r'viewBox="([^"]+)"', svg).group(1).split())
    columns, rows = re.search(r'zc-coords--cols">(.*?)</g><g class="zc-coords--rows">(.*?)</g>', svg).groups()
    xs = [float(x) for x in re.findall(r'<text x="([-\d.]+)"', columns)]
    ys = [float(y) for y in re.findall(r'<text x="[-\d.]+" y="([-\d.]+)"', rows)]
    assert len(xs) == (8 if not interactive else 10) and len(ys) == (2 if not interactive else 4)
    assert all(left + 20 <= x <= left + width - 20 for x in xs), "a column number at the picture's edge"
    assert all(top + 20 <= y <= top + height - 20 for y in ys)
    # The felt bands behind labels that follow a panned board are only for the game page.
    assert ("zc-coord-strip" in svg) == interactive


def test_the_page_reads_chat_draw_offers_and_days_away_only_where_its_first_read_finds_some(alice, bob):
    """Most games have no chat and no draw offer, most players no days away: the page's first read says
    so, and the page asks no more; once there is one of each, the page reads it and shows it."""
    from datetime import timedelta

    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from notifications import services as notification_services

    def page(user) -> tuple[str, set[str]]:
        with CaptureQueriesContext(connection) as queries:
            html = logged_in(user).get(reverse("game_detail", args=[game.pk])).content.decode()
        return html, {
            table for query in queries.captured_queries for table in re.findall(r'^SELECT "(\w+)"\.', query["sql"])
        }

    read_only_if_any = {"games_chatmessage", "games_drawproposal", "notifications_away"}
    game = play_plies(start_game(alice, bob), 4)
    html, tables = page(alice)
    assert not tables & read_only_if_any
    services.chat_post(game=game, user=bob, text="good luck, have fun")
    services.draw_propose(game=game, user=bob)
    today = timezone.localdate()
    notification_services.away_add(user=bob, first_day=today, last_day=today + timedelta(days=2), today=today)
    html, tables = page(alice)
    assert read_only_if_any <= tables
    assert "good luck, have fun" in html
    assert "proposed a draw." in html and "is away until" in html

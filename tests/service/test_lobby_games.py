"""The lobby offers every registered game: created with each of its player counts and options, refused
with a bad option or a table size the game does not seat, listed and filtered by game."""

from __future__ import annotations

import json
import re
from html import escape, unescape

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from engine import bots, registry
from engine.interface import GameInfo
from games import services
from games.forms_lobby import option_field_name
from games.models import Game
from tests.service.gameplay import play_plies, start_game

pytestmark = pytest.mark.django_db
INFOS = registry.infos()


def by_id(info: GameInfo) -> str:
    return info.id


def create(creator, info: GameInfo, seats: int, options: dict[str, str] | None = None) -> Game:
    return services.game_create(
        creator=creator, game=info.id, seats=seats, options=options or {}, time_limit_days=3, is_private=False
    )


@pytest.mark.parametrize("info", INFOS, ids=by_id)
def test_each_game_is_created_with_each_player_count_and_its_default_options(alice, info):
    for seats in info.player_counts:
        game = create(alice, info, seats)
        assert (game.game, game.seats_wanted, game.options) == (info.id, seats, info.default_options())
        assert str(game) == f"{info.name} #{game.pk}"


@pytest.mark.parametrize(
    ("info", "option", "value"),
    [(info, option.name, choice.value) for info in INFOS for option in info.options for choice in option.choices],
    ids=lambda v: getattr(v, "id", v),
)
def test_each_option_value_is_kept(alice, info, option, value):
    game = create(alice, info, info.player_counts[0], {option: value})
    assert game.options[option] == value
    assert info.options_text(game.options) == game.options_text


@pytest.mark.parametrize("info", INFOS, ids=by_id)
def test_a_table_size_the_game_does_not_seat_is_refused(alice, info):
    for seats in (1, max(info.player_counts) + 1):
        with pytest.raises(ValidationError, match=f"{info.name} is played by .* players, not {seats}"):
            create(alice, info, seats)
    assert not Game.objects.exists()


@pytest.mark.parametrize("info", INFOS, ids=by_id)
def test_a_bad_option_is_refused(alice, info):
    with pytest.raises(ValidationError, match="has no option 'colourblind'"):
        create(alice, info, info.player_counts[0], {"colourblind": "yes"})
    for option in info.options:
        with pytest.raises(ValidationError, match="must be one of"):
            create(alice, info, info.player_counts[0], {option.name: "no-such-value"})
    assert not Game.objects.exists()


def test_an_unknown_game_is_refused(alice):
    with pytest.raises(ValidationError, match="There is no game 'chess' here"):
        services.game_create(creator=alice, game="chess", seats=2, options={}, time_limit_days=3, is_private=False)


def test_the_new_game_form_offers_every_game_its_player_counts_and_options(client, alice):
    client.force_login(alice)
    html = client.get(reverse("game_new")).content.decode()
    for info in INFOS:
        assert f'value="{info.id}"' in html and info.name in html
        assert f"{info.name}: {', '.join(map(str, info.player_counts))}" in html
        for option in info.options:
            assert f'name="{option_field_name(info, option)}"' in html
            assert all(choice.label in html for choice in option.choices)


@pytest.mark.parametrize("info", INFOS, ids=by_id)
def test_the_form_creates_each_game_with_its_own_options_only(client, alice, info):
    client.force_login(alice)
    data = {"game": info.id, "seats": str(info.player_counts[-1]), "time_limit_days": "4"}
    chosen = {option.name: option.choices[-1].value for option in info.options}
    data |= {option_field_name(info, option): chosen[option.name] for option in info.options}
    response = client.post(reverse("game_new"), data)
    game = Game.objects.get()
    assert response["Location"] == reverse("game_lobby", args=[game.pk])
    assert (game.game, game.seats_wanted, game.options) == (info.id, info.player_counts[-1], chosen)
    room = client.get(response["Location"]).content.decode()
    said = game.options_text[:1].upper() + game.options_text[1:]
    assert escape(f"{info.name} #{game.pk}") in room and escape(said) in room


def test_the_form_refuses_a_player_count_the_chosen_game_does_not_seat(client, alice, monkeypatch):
    info = INFOS[0]
    narrow = GameInfo(id=info.id, name=info.name, player_counts=(2,), options=info.options)
    monkeypatch.setattr(registry.get(info.id), "info", narrow)
    client.force_login(alice)
    response = client.post(reverse("game_new"), {"game": info.id, "seats": "2", "time_limit_days": "3"})
    assert response.status_code == 302
    response = client.post(reverse("game_new"), {"game": info.id, "seats": "3", "time_limit_days": "3"})
    assert response.status_code == 200
    assert f"{info.name} is played by 2 players, not 3." in response.content.decode()
    assert Game.objects.count() == 1


def test_lists_show_each_game_by_name_with_its_options_and_filter_by_game(client, alice, bob):
    made = {info.id: create(alice, info, info.player_counts[-1]) for info in INFOS}
    client.force_login(bob)
    everything = client.get(reverse("open_games")).content.decode()
    for info in INFOS:
        game = made[info.id]
        assert escape(f"{info.name} #{game.pk}") in everything
        if game.options_text:
            assert game.options_text[:1].upper() + game.options_text[1:] in everything
    for info in INFOS:
        only = client.get(reverse("open_games"), {"game": info.id}).content.decode()
        shown = {other.id for other in INFOS if escape(f"{other.name} #{made[other.id].pk}") in only}
        assert shown == {info.id}
    assert len(client.get(reverse("open_games"), {"game": "nonsense"}).context["open_games"]) == len(INFOS)
    client.force_login(alice)
    for info in INFOS:
        board = client.get(reverse("dashboard"), {"game": info.id}).context["board"]
        assert [entry.game.game for entry in board.waiting_for_players] == [info.id]


def test_a_deck_town_game_page_renders_for_players_and_spectators(client, alice, bob, charlie):
    game = play_plies(start_game(alice, bob, charlie, game="decktown"), 12)
    assert game.status == Game.Status.ACTIVE and game.ply == 12
    url = reverse("game_detail", args=[game.pk])
    for user in (alice, bob, charlie, None):
        client.logout()
        if user is not None:
            client.force_login(user)
        page = client.get(url)
        html = page.content.decode()
        assert page.status_code == 200
        assert f"<h1>Deck Town #{game.pk}</h1>" in html and "How to play Deck Town" in html
        assert game.rules.rules_summary() in html
        if user is not None:
            hand = page.context["g"].hand
            assert hand and all(game.rules.card(code).label in html for code in hand)
    assert client.get(reverse("game_record", args=[game.pk])).json()["game"] == "decktown"
    assert client.get(reverse("game_board_svg", args=[game.pk])).status_code == 200


@pytest.mark.parametrize("page", ["dashboard", "open_games"])
def test_the_game_filter_offers_each_game_as_a_link_of_its_own(client, alice, page):
    """The links are list items with space between them: read, copied or spoken, they do not run together."""
    client.force_login(alice)
    html = client.get(reverse(page)).content.decode()
    nav = re.search(r'<nav class="game-filter".*?</nav>', html, re.S)
    assert nav, "the filter is on the page"
    names = ["every game", *(info.name for info in INFOS)]
    assert [unescape(a) for a in re.findall(r"<li><a [^>]*>([^<]*)</a></li>", nav.group(0))] == names
    text = " ".join(unescape(re.sub(r"<[^>]+>", "", nav.group(0))).split())
    assert text == "Show games of: " + " ".join(names)


def test_the_new_game_page_tells_its_script_what_each_game_allows(client, alice):
    client.force_login(alice)
    page = client.get(reverse("game_new")).content.decode()
    found = re.search(r'<script id="zc-new-game-offers" type="application/json">(.*?)</script>', page, re.S)
    assert found and 'src="/static/js/new_game.js"' in page
    offers = json.loads(found.group(1))
    for info in INFOS:
        allowed = offers["games"][info.id]
        assert allowed["seats"] == list(info.player_counts)
        assert allowed["options"] == [option_field_name(info, option) for option in info.options]
        assert allowed["bots"] == [bot.name for bot in bots.bots_for(info.id)]
        for name in allowed["options"] + offers["bot_fields"]:
            assert f'name="{name}"' in page  # the script finds each field by its name

"""rules.md 11: no page, picture or record shows a player another player's hand, the deck order, the
seed before the end, or a starter choice before all have chosen.

Each check takes the real secret card strings from the stored position, removes those that are
legitimately public for that viewer (board, discard pile, revealed hands and starters, cards named in
public moves, the viewer's own hand and draws), and asserts none of the rest appears anywhere.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game
from tests.conftest import make_user
from tests.service.gameplay import mover, pick, play_plies, start_game, user_of

pytestmark = pytest.mark.django_db
# A card code standing alone: not inside a word, a hex string or a %-escape such as "%3C".
CARD = re.compile(r"(?<![0-9A-Za-z%])(?:10|[2-9AJQK])[SHDCT](?![0-9A-Za-z])|(?<![0-9A-Za-z%])JK(?![0-9A-Za-z])")
PUBLIC_VERBS = ("build", "hatch", "demolish", "convert", "fly", "discard")


def cards_in(text: str) -> set[str]:
    return set(CARD.findall(without_examples(text)))


def without_examples(html: str) -> str:
    """The notation help's fixed examples ("build 7H 1,0") name cards that are nobody's secret."""
    html = re.sub(r'<p class="muted zc-help">.*?</p>', "", html, flags=re.S)
    html = re.sub(r'<details class="zc-panel zc-help-panel">.*?</details>', "", html, flags=re.S)
    return re.sub(r'placeholder="[^"]*"', "", html)


def public_cards(game: Game, viewer: str | None) -> set[str]:
    """Every card this viewer may legitimately see named somewhere."""
    pos = game.snapshot
    shown = {entry["card"] for entry in pos["board"]} | set(pos["discard"])
    shown |= {card for entry in pos["revealed"] for card in entry["cards"]}
    revealed = pos["phase"] != "choose"
    shown |= {card for colour, card in pos["starters"] if revealed or colour == viewer}
    if viewer:
        shown |= set(pos["hands"][viewer])
    for move in game.moves.select_related("seat"):
        verb = move.notation.split()[0]
        if verb in PUBLIC_VERBS or (verb == "choose" and (revealed or move.seat.colour == viewer)):
            shown |= cards_in(move.notation)
        shown |= cards_in(move.descriptions.get(viewer or "*", ""))
    return shown


def secret_cards(game: Game, viewer: str | None) -> set[str]:
    """Cards in other players' hands, in the deck, or chosen as starters by others and not yet revealed."""
    pos = game.snapshot
    hidden = set(pos["deck"])
    hidden |= {card for colour, hand in pos["hands"].items() if colour != viewer for card in hand}
    if pos["phase"] == "choose":
        hidden |= {card for colour, card in pos["starters"] if colour != viewer}
    return hidden - public_cards(game, viewer)


def everything_shown(client: Client, game: Game) -> dict[str, str]:
    urls = {
        "page": reverse("game_detail", args=[game.pk]),
        "whole history": reverse("game_detail", args=[game.pk]) + "?history=all",
        "board.svg": reverse("game_board_svg", args=[game.pk]),
        "record.json": reverse("game_record", args=[game.pk]),
        "ply.json": reverse("game_ply", args=[game.pk]) + "?since=0",
        "replay": reverse("replay", args=[game.pk, game.ply]),  # its words come from the step's events
        "log.txt": reverse("game_log", args=[game.pk]),
    }
    shown = {}
    for name, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, name
        shown[name] = response.content.decode()
    return shown


def assert_no_secrets(game: Game, client: Client, viewer: str | None) -> None:
    game.refresh_from_db()
    secrets = secret_cards(game, viewer)
    assert secrets, "the scenario should leave some cards hidden from this viewer"
    for name, body in everything_shown(client, game).items():
        leaked = secrets & cards_in(body)
        assert not leaked, f"{name} shows {viewer or 'a spectator'} hidden cards {sorted(leaked)}"
        assert game.seed not in body, f"{name} shows the seed before the end"
        assert '"deck": [' not in body and '"hands":' not in body


def viewers(game: Game):
    """(colour, client) for each player, then a logged-in outsider and an anonymous spectator."""
    for seat in game.seats.select_related("user"):
        client = Client()
        client.force_login(seat.user)
        yield seat.colour, client
    outsider = Client()
    outsider.force_login(make_user("outsider"))
    yield None, outsider
    yield None, Client()


@pytest.fixture
def three(alice, bob, charlie):
    return start_game(alice, bob, charlie)


def test_starter_choices_stay_hidden_until_all_have_chosen(three, alice, bob):
    game = three
    red_choice = pick(services.state_of(game), "red")
    services.move_submit(game=game, user=alice, text=red_choice, seen_ply=0)
    services.move_submit(game=game, user=bob, text=pick(services.state_of(game), "yellow"), seen_ply=0)
    game.refresh_from_db()
    red_card = red_choice.split()[1]
    for colour, client in viewers(game):
        assert_no_secrets(game, client, colour)
        page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
        if colour == "red":
            assert f"Your sealed choice: {red_choice}." in page
        else:
            assert red_card not in cards_in(page)
            assert (
                red_choice not in page and "has chosen a starter" in page
            )  # that red chose is public: the game says so
    record = Client().get(reverse("game_record", args=[game.pk])).json()
    assert record["moves"] == []  # sealed choices are no moves until all are in


def test_starters_are_public_once_everyone_has_chosen(three):
    game = play_plies(three, 3)
    assert game.phase == "place"
    page = Client().get(reverse("game_detail", args=[game.pk])).content.decode()
    for colour, card in game.snapshot["starters"]:
        assert f"{colour} {game.rules.card(card).label}" in page  # "Starters: red 8♠, ..."
    assert "choose ?" not in page


@pytest.mark.parametrize("plies", [4, 25, 60])
def test_mid_game_pages_show_no_hidden_card(three, plies):
    game = play_plies(three, plies)
    assert game.status == Game.Status.ACTIVE
    for colour, client in viewers(game):
        assert_no_secrets(game, client, colour)


def test_the_discard_step_shows_no_hidden_card(three):
    game = three
    for _ in range(300):
        game = play_plies(game, 1)
        if game.phase == "discard":
            break
    assert game.phase == "discard"
    for colour, client in viewers(game):
        assert_no_secrets(game, client, colour)


def test_a_refused_move_page_shows_no_hidden_card(three):
    game = play_plies(three, 20)
    colour = mover(game)
    client = Client()
    client.force_login(user_of(game, colour))
    response = client.post(reverse("game_move", args=[game.pk]), {"text": "move S 40,40 41,40", "seen_ply": game.ply})
    assert response.status_code == 400
    body = response.content.decode()
    assert not secret_cards(game, colour) & cards_in(body) and game.seed not in body


def test_a_finished_game_shows_everything(three, alice, bob):
    game = play_plies(three, 20)
    services.player_resign(game=game, user=alice)
    services.player_resign(game=game, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    body = Client().get(reverse("game_detail", args=[game.pk])).content.decode()
    assert game.seed in body
    for colour, hand in game.snapshot["hands"].items():
        labels = " ".join(game.rules.card(card).label for card in hand) or "empty"
        assert f"{colour}&#x27;s hand: {labels}." in body
    record = Client().get(reverse("game_record", args=[game.pk])).json()
    assert record["seed"] == game.seed


def test_admin_lists_show_no_seed_or_position(admin_client, three):
    game = play_plies(three, 10)
    listing = admin_client.get(reverse("admin:games_game_changelist")).content.decode()
    assert game.seed not in listing and game.seed_commitment not in listing
    moves = admin_client.get(reverse("admin:games_move_changelist")).content.decode()
    assert game.seed not in moves
    detail = admin_client.get(reverse("admin:games_game_change", args=[game.pk]))
    assert detail.status_code == 200  # the seed is there, read-only, behind "Secrets"

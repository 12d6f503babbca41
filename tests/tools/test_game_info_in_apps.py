"""The apps word each game from its GameInfo, never assuming a Zark City-like game (issue 10's follow-ups):
the board caption and the move box's example, the turn email's hand line, the verify page and the text
log, and the result reasons the models and the archive filter take. Martian Chess is the test game:
no hands, no cards, the seed decides only who starts, and it ends "by score"."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from django.urls import reverse

from archive.forms import ArchiveSearchForm
from archive.models import ArchivedGame
from engine import registry
from games import services
from games.models import Game
from tests.notifications.helpers import mail_to
from tests.service.gameplay import start_game

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = json.loads((ROOT / "tests/engine/golden/martianchess-two.record.json").read_text())
SEATS = {"red": "red", "blue": "yellow"}  # the service seats red and yellow; the seed orders two seats alike


def chess_game(alice, bob) -> Game:
    return start_game(alice, bob, seed=GOLDEN["seed"], game="martianchess")


def submit(game: Game, entry: dict) -> None:
    colour = SEATS[entry["by"]]
    user = game.seats.get(colour=colour).user
    services.move_submit(game=game, user=user, text=entry["move"], seen_ply=game.ply)
    game.refresh_from_db()


@pytest.fixture
def finished_chess(alice, bob) -> Game:
    game = chess_game(alice, bob)
    for entry in GOLDEN["moves"]:
        submit(game, entry)
    return game


def test_the_game_page_takes_its_caption_and_example_from_the_game(client, alice, bob):
    game = chess_game(alice, bob)
    client.force_login(alice)
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    rules = game.rules
    assert f'placeholder="e.g. {rules.notation_help()[0][0]}"' in html and "e.g. c2-d3" in html
    assert rules.info.board_hint in html
    assert "Hover a card" not in html and "build 7H" not in html


def test_a_zark_city_page_keeps_its_own_caption_and_example(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "Hover a card for its pieces." in html
    assert f'placeholder="e.g. {game.rules.notation_help()[0][0]}"' in html


@pytest.mark.usefixtures("eager")
def test_a_turn_email_of_a_game_without_hands_has_no_hand_line(alice, bob, django_capture_on_commit_callbacks):
    game = chess_game(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        submit(game, GOLDEN["moves"][0])
    [email] = mail_to(bob)  # the turn email: "Martian Chess #1: red moved a Pawn from b3 to c4, move a piece"
    [(html, _)] = email.alternatives
    for part in (email.body, html):
        assert "Your hand" not in part and "no cards" not in part
    assert "b3-c4" in email.body


def test_a_finished_game_stores_its_own_reason(finished_chess):
    assert (finished_chess.status, finished_chess.winner, finished_chess.result_reason) == (
        "finished",
        "yellow",
        "score",
    )
    assert ArchivedGame.objects.get(game=finished_chess).reason == "score"
    assert Game._meta.get_field("result_reason").choices is None
    assert ArchivedGame._meta.get_field("reason").choices is None


def test_the_archive_filter_offers_every_games_reasons(finished_chess):
    form = ArchiveSearchForm(data={"reason": "score"})
    assert form.is_valid(), form.errors
    offered = [value for value, _ in form.fields["reason"].choices]
    assert offered == ["", *registry.reasons()]


def test_the_verify_page_and_log_word_the_games_chance(client, finished_chess):
    response = client.get(reverse("game_verify", args=[finished_chess.pk]))
    html = response.content.decode()
    check = response.context["check"]
    assert check.ok and check.offline and check.chance == "who starts"
    assert "decides who starts" in html and "with who starts as the seed decides" in html
    assert "shuffled the deck" not in html and "cards dealt" not in html
    assert "python3 verify_martianchess.py martianchess-" in html
    log = client.get(reverse("game_log", args=[finished_chess.pk])).content.decode()
    assert " dealt " not in log and "b3-c4" in log


def test_the_verify_page_of_a_buyers_market_game_gives_the_offline_tool(client, alice, bob):
    game = start_game(alice, bob, game="buyersmarket")
    services.player_resign(game=game, user=bob)
    game.refresh_from_db()
    html = client.get(reverse("game_verify", args=[game.pk])).content.decode()
    assert game.status == Game.Status.FINISHED and game.rules.info.chance in html
    assert "python3 verify_buyersmarket.py buyersmarket-" in html
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'href="/static/games/buyersmarket/board.css"' in page  # its Package.style
    download = client.get(reverse("game_verifier", args=["buyersmarket"]))
    text = b"".join(download.streaming_content).decode()
    assert download["Content-Disposition"].startswith('attachment; filename="verify_buyersmarket.py"')
    assert (
        text.startswith('"""Re-verify a finished Buyer\'s Market game')
        and "\nfrom engine" not in text
        and "\nimport engine" not in text
    )


def test_the_verify_page_of_a_game_the_tool_does_not_read_points_to_the_engine(client, alice, bob, monkeypatch):
    """Every registered game verifies offline today; a game added without the tool's support would not."""
    monkeypatch.setattr(registry.package("buyersmarket").__class__, "verifier_path", property(lambda self: None))
    game = start_game(alice, bob, game="buyersmarket")
    services.player_resign(game=game, user=bob)
    game.refresh_from_db()
    html = client.get(reverse("game_verify", args=[game.pk])).content.decode()
    assert "python -m engine replay buyersmarket-" in html
    assert "verify_buyersmarket.py" not in html and "has no standalone checker yet" in html
    assert client.get(reverse("game_verifier", args=["buyersmarket"])).status_code == 404


def test_every_verifier_the_tool_runs_reads_its_games_record_format():
    spec = importlib.util.spec_from_file_location("verify_game", ROOT / "tools" / "verify_game.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    for game_id, module in tool.verifiers().items():
        record = registry.get(game_id).make_record(["red", "blue"], {}, "s", [], None)
        assert module.FORMATS[game_id] == record["format"], game_id

"""The turn email's text and HTML, written in Python (notifications.turn_email), are to the byte what the
templates they replaced (kept in reference/, with the layout and partials they include from
templates/emails/) write from the same context: every registered game's first turn emails, then every
branch (no moves, no hand, no board, no deadline, no reply address, markup and non-ASCII in every text)."""

from __future__ import annotations

import io
from dataclasses import replace
from datetime import date, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.template import Context, Template
from PIL import Image

from engine import registry
from engine.kit.core import Card
from games import services
from games.models import Game
from notifications import delivery, emails, turn_email
from notifications.models import Notification
from notifications.selectors import MoveLine
from tests.notifications.helpers import start_game

pytestmark = pytest.mark.django_db

REFERENCE = Path(__file__).parent / "reference"
TEXT = Template((REFERENCE / "your_turn.txt").read_text())
HTML = Template((REFERENCE / "your_turn.html").read_text())


def same_as_templates(context: dict[str, Any]) -> None:
    assert turn_email.text(context) == TEXT.render(Context(context))
    assert turn_email.html(context) == HTML.render(Context(context))


def tiny_png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (3, 2), "white").save(out, "PNG")
    return out.getvalue()


@pytest.fixture
def contexts(monkeypatch) -> list[dict[str, Any]]:
    """The context of every turn email built while the fixture is on (the board a tiny PNG: not the point)."""
    seen: list[dict[str, Any]] = []
    parts = emails._parts

    def noting(template: str, context: dict[str, Any]) -> tuple[str, str]:
        if template == "your_turn":
            seen.append(context)
        return parts(template, context)

    monkeypatch.setattr(emails, "_parts", noting)
    png = tiny_png()
    monkeypatch.setattr(emails, "board_png", lambda notification, shown: png)
    return seen


def build_turn_emails(game: Game, done: set[int]) -> None:
    rows = Notification.objects.filter(game=game, kind=Notification.Kind.YOUR_TURN).exclude(pk__in=done)
    for pk in rows.values_list("pk", flat=True):
        emails.build_message(delivery.CLAIMED_READ.get(pk=pk))
        done.add(pk)


def moved(game: Game, player: Any, number: int) -> bool:
    """One legal move by `player` if the game waits on them (False if not, or if their sealed choice is in)."""
    game.refresh_from_db()
    colour, rules = game.seats.get(user=player).colour, game.rules
    if game.status != Game.Status.ACTIVE or colour not in game.to_move.split(","):
        return False
    moves = [m for m in rules.legal_moves(services.state_of(game), colour) if not rules.is_resign(m)]
    try:
        services.move_submit(game=game, user=player, text=str(moves[number % len(moves)]), seen_ply=game.ply)
    except services.PlayError:
        return False  # a sealed choice made already
    return True


@pytest.mark.parametrize("game_id", registry.ids())
def test_every_games_first_turn_emails(alice, bob, contexts, game_id):
    game = start_game(alice, bob, game_id=game_id, options=None if game_id == "zarkcity" else {})
    done: set[int] = set()
    for number in range(10):
        build_turn_emails(game, done)
        if not any([moved(game, player, number) for player in (alice, bob)]):
            break
    assert contexts, "no turn email was built"
    for context in contexts:
        same_as_templates(context)


def test_every_branch_and_every_text_escaped(alice, bob, contexts):
    game = start_game(alice, bob)
    done: set[int] = set()
    while not contexts:
        build_turn_emails(game, done)
        game.refresh_from_db()
        colour = game.to_move.split(",")[0]
        move = game.rules.legal_moves(services.state_of(game), colour)[0]
        services.move_submit(game=game, user=game.seats.get(colour=colour).user, text=str(move), seen_ply=game.ply)
    base = contexts[0]
    marked = "<b>Zoë & \"Ångström\"</b> 'x'"
    line = MoveLine(ply=3, colour="red & <i>", words=f"{marked} built 7H", notation="b 7H <1,2>")
    image = emails.DiceImage(cid="dice1", alt=f"{marked} threw", width=22, height=11)
    player = {"colour": "blue", "name": marked, "facts": "3 cards & <more>", "resigned": False, "away_until": None}
    variants = [
        {},
        {"title": f"Zark City #7 {marked}", "name": marked, "colour": marked, "step": f"place {marked}"},
        {"moves": [], "opening": [], "move_rows": []},
        {"moves": [line], "move_rows": [(line, [image, replace(image, cid="dice2")])], "opening": []},
        {"opening": [emails.Opening(f"{marked} threw", [image])], "moves": [line], "move_rows": [(line, [])]},
        {"hand": [], "has_hands": True},
        {"hand": [], "has_hands": False},
        {"hand": [Card(code="7H", label="7♥ <", name=marked), Card(code="AS", label="AS", name="ace")]},
        {"hand": [Card(code="QC", label="QC", name="queen")]},
        {"board_cid": None},
        {"board_alt": marked, "board_width": 1200, "board_height": 7},
        {"deadline": None},
        {"deadline": datetime(2026, 12, 1, 9, 5, tzinfo=ZoneInfo("Pacific/Chatham"))},
        {"reply_to": None, "mute_url": ""},
        {"reply_to": "play+x@example.com", "mute_url": f"https://x.example/m/{marked}"},
        {"site_url": f"https://{marked}", "settings_url": marked, "unsubscribe_url": marked, "play_url": marked},
        {"game_url": marked, "board_text": f"  {marked}\n  7H 8H\n"},
        {"players": []},
        {"players": [player]},
        {
            "players": [
                player,
                player | {"resigned": True, "away_until": date(2026, 12, 24)},
                player | {"facts": "", "away_until": date(2027, 1, 2)},
                player | {"facts": ""},
            ]
        },
    ]
    for variant in variants:
        same_as_templates(base | variant)

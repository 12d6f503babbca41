"""games.events: what the move service announces, and when its subscribers hear it (docs/service.md)."""

from __future__ import annotations

import ast
import logging
from collections import defaultdict
from pathlib import Path

import pytest
from django.db import transaction

from games import events, services
from games.models import Game
from notifications.models import Notification
from tests.service.gameplay import start_game
from tests.service.test_move_submit import starter_of

pytestmark = pytest.mark.django_db
GAMES = Path(__file__).resolve().parents[2] / "games"


@pytest.fixture
def subscribers(monkeypatch):
    """The app's subscriptions, copied: whatever a test subscribes is gone after it."""
    copied = defaultdict(list, {kind: list(handlers) for kind, handlers in events._subscribers.items()})
    monkeypatch.setattr(events, "_subscribers", copied)
    return copied


def test_a_move_is_announced_inside_its_transaction_with_its_rows(alice, bob, subscribers):
    game = start_game(alice, bob)
    heard = []

    def record(event):
        heard.append((event, transaction.get_connection().in_atomic_block, event.move.pk is not None))

    events.subscribe(events.MoveMade, record)
    services.move_submit(game=game, user=alice, text=starter_of(game, "red"), seen_ply=0)  # sealed: no move yet
    row = services.move_submit(game=game, user=bob, text=starter_of(game, "yellow"), seen_ply=0)
    [(event, inside, saved)] = heard  # both starters, resolved: announced once
    assert (event.game.pk, event.move, event.game.ply, inside, saved) == (game.pk, row, 2, True, True)
    assert [seat.colour for seat in event.seats] == ["red", "yellow"]


def test_a_subscriber_failing_inside_the_transaction_rolls_the_move_back(alice, bob, subscribers):
    game = start_game(alice, bob)
    rows_before = Notification.objects.count()

    def broken(event):
        raise RuntimeError("outbox unwritable")

    events.subscribe(events.MoveMade, broken)
    services.move_submit(game=game, user=alice, text=starter_of(game, "red"), seen_ply=0)
    with pytest.raises(RuntimeError, match="outbox unwritable"):
        services.move_submit(game=game, user=bob, text=starter_of(game, "yellow"), seen_ply=0)
    assert Game.objects.get(pk=game.pk).ply == 0 and not game.moves.exists()
    assert [c.seat.colour for c in game.commitments.all()] == ["red"]  # bob's, and the resolution, rolled back
    assert Notification.objects.count() == rows_before  # no email for a move that never happened


def test_after_commit_events_wait_for_the_commit_and_one_failure_spares_the_rest(
    subscribers, django_capture_on_commit_callbacks, caplog
):
    subscribers.clear()  # not the app's own: no bot turn goes to a broker
    heard = []

    def broken(event):
        raise RuntimeError("broker gone")

    events.subscribe(events.BotToMove, broken)
    events.subscribe(events.BotToMove, heard.append)
    with django_capture_on_commit_callbacks() as callbacks, transaction.atomic():
        events.publish(events.BotToMove(game_id=7, ply=3))
        assert heard == []  # not before the commit
    with caplog.at_level(logging.ERROR, logger="games.events"):
        for callback in callbacks:
            callback()
    assert heard == [events.BotToMove(game_id=7, ply=3)]
    assert "a subscriber to BotToMove failed" in caplog.text


def test_a_rolled_back_write_announces_nothing_after_commit(subscribers, django_capture_on_commit_callbacks):
    subscribers.clear()
    with django_capture_on_commit_callbacks() as callbacks, transaction.atomic():
        events.publish(events.BotToMove(game_id=7, ply=3))
        transaction.set_rollback(True)
    assert callbacks == []


def test_subscribing_twice_hears_once(subscribers):
    subscribers.clear()
    heard = []
    events.subscribe(events.GameStarted, heard.append)
    events.subscribe(events.GameStarted, heard.append)
    events.publish(events.GameStarted(game=None))
    assert len(heard) == 1


def test_the_game_service_imports_none_of_the_apps_that_subscribe():
    imported = set()
    for path in [GAMES / "events.py", *sorted((GAMES / "services").glob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                imported.add(node.module.split(".")[0])
            elif isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
    assert not imported & {"notifications", "replies", "archive"}
